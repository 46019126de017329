import { z } from 'zod';
import { LINK_ELEMENTS } from './html-links.js';

/** Pages a finding lists; `pageCount` counts them all. */
export const MAX_FINDING_PAGES = 20;
/** Pages a crawl may be asked to crawl at most (the package's `maxCrawlPages` stays under it). */
export const MAX_CRAWL_PAGES = 10_000;

const hostName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9.-]+$/i, 'a host name, without scheme, port or path')
  .transform((host) => host.toLowerCase());

/** What a crawl is asked to do: the settings a website's crawl monitor stores. */
export const crawlSettingsSchema = z.object({
  maxPages: z
    .number()
    .int()
    .min(1)
    .max(MAX_CRAWL_PAGES)
    .default(500)
    .describe('Pages crawled (fetched and read for links) at most; links on them are checked beyond it'),
  maxDepth: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(10)
    .describe('Clicks from the start page (or a seed URL) to a page crawled; deeper pages are only checked'),
  extraHosts: z
    .array(hostName)
    .max(20)
    .default([])
    .describe("Host names crawled besides the start URL's (and the host its start page redirects to)"),
  ignore: z
    .array(z.string().min(1).max(500))
    .max(100)
    .default([])
    .describe(
      'URL patterns neither crawled, checked nor reported: `*` is any run of characters, the rest literal, matched against the whole normalized URL (e.g. `https://example.com/private/*`, `*.pdf`)',
    ),
  checkExternal: z.boolean().default(true).describe('Whether links to other hosts are checked too'),
});
export type CrawlSettings = z.infer<typeof crawlSettingsSchema>;

export const LINK_ERROR_CODES = [
  'dns',
  'timeout',
  'tls',
  'connection-refused',
  'connection',
  'redirect-loop',
  'too-many-redirects',
  'invalid-redirect',
  'blocked',
  'protocol',
] as const;
export type LinkErrorCode = (typeof LINK_ERROR_CODES)[number];

export const linkErrorSchema = z
  .object({
    code: z
      .enum(LINK_ERROR_CODES)
      .describe(
        'dns: the name does not resolve; timeout; tls: the handshake or certificate failed; connection-refused; connection: reset or unreachable; redirect-loop; too-many-redirects (over 10); invalid-redirect; blocked: the address is one monitoring may not reach (private, loopback, link-local), so it was not requested; protocol: not a valid HTTP answer',
      ),
    message: z.string().max(500).describe('What happened, in words'),
  })
  .describe('Why a link got no answer');
export type LinkError = z.infer<typeof linkErrorSchema>;

export const linkAppearanceSchema = z
  .object({
    page: z.string().describe('The page that names the URL'),
    element: z.enum(LINK_ELEMENTS).describe('The element naming it: a, img, script, link, iframe, …'),
    text: z
      .string()
      .max(200)
      .nullable()
      .describe("What a reader sees of it: a link's text or label, an image's alt; null for the rest"),
  })
  .describe('Where a URL appears (its first mention on a page)');
export type LinkAppearance = z.infer<typeof linkAppearanceSchema>;

const pages = z
  .array(linkAppearanceSchema)
  .max(MAX_FINDING_PAGES)
  .describe(`The pages it appears on, the first ${MAX_FINDING_PAGES} found`);
const pageCount = z.number().int().min(0).describe('Pages it appears on, all of them');

export const brokenLinkFindingSchema = z
  .object({
    type: z.literal('broken-link'),
    url: z.string().describe('The link or resource, normalized'),
    status: z.number().int().nullable().describe('The final HTTP status (≥ 400), null when there was none'),
    error: linkErrorSchema.nullable().describe('Why there was no answer, null when there was one'),
    pages,
    pageCount,
    seeded: z.boolean().describe('It was also given as a seed URL (e.g. from the sitemap)'),
  })
  .describe('A link or resource that does not work: an HTTP status ≥ 400 or no answer');
export type BrokenLinkFinding = z.infer<typeof brokenLinkFindingSchema>;

export const mixedContentFindingSchema = z
  .object({
    type: z.literal('mixed-content'),
    url: z.string().describe('The http: resource, normalized'),
    category: z
      .enum(['active', 'passive'])
      .describe(
        'active: a script, stylesheet, frame, plugin or form post (browsers block it); passive: an image, media or icon (the padlock breaks)',
      ),
    pages,
    pageCount,
  })
  .describe('An https: page loading an http: resource');
export type MixedContentFinding = z.infer<typeof mixedContentFindingSchema>;

export const crawlFindingSchema = z.discriminatedUnion('type', [
  brokenLinkFindingSchema,
  mixedContentFindingSchema,
]);
export type CrawlFinding = z.infer<typeof crawlFindingSchema>;

const seen = {
  firstSeenAt: z.iso.datetime().describe('When a crawl first found it (carried over while it stays open)'),
  lastSeenAt: z.iso.datetime().describe('When a crawl last found it'),
};
/** A finding as kept across crawls: identified by type and URL. */
export const trackedCrawlFindingSchema = z.discriminatedUnion('type', [
  brokenLinkFindingSchema.extend(seen),
  mixedContentFindingSchema.extend(seen),
]);
export type TrackedCrawlFinding = z.infer<typeof trackedCrawlFindingSchema>;

export const CRAWL_BOUNDS = [
  'maxPages',
  'maxDepth',
  'requestBudget',
  'maxUrls',
  'deadline',
  'pageBytes',
  'decodedBytes',
  'compressionRatio',
  'linksPerPage',
  'urlLength',
] as const;
export type CrawlBound = (typeof CRAWL_BOUNDS)[number];

export const crawlBoundHitSchema = z
  .object({
    bound: z
      .enum(CRAWL_BOUNDS)
      .describe(
        'maxPages, maxDepth: pages only checked, not crawled; requestBudget, deadline: URLs not checked; maxUrls: URLs found past the number kept; pageBytes, decodedBytes, compressionRatio: pages read only in part; linksPerPage: pages whose further links were not kept; urlLength: URLs skipped',
      ),
    limit: z.number().describe('The bound (pages, requests, URLs, ms, bytes, a ratio, characters)'),
    count: z
      .number()
      .int()
      .describe('What it held back: pages not crawled, URLs not checked, pages cut short'),
    examples: z.array(z.string()).max(5).describe('A few of the URLs concerned'),
  })
  .describe('A bound that stopped part of the crawl');
export type CrawlBoundHit = z.infer<typeof crawlBoundHitSchema>;

export const crawledPageSchema = z.object({
  url: z.string(),
  depth: z.number().int().min(0),
  status: z.number().int().nullable().describe('The final HTTP status, null when there was no answer'),
  error: linkErrorSchema.nullable(),
  finalUrl: z.string().describe('Where its redirects ended (the URL itself without one)'),
  html: z.boolean().describe('It was HTML and read for links'),
  links: z.number().int().describe('URLs it names'),
  cutBy: z.enum(CRAWL_BOUNDS).nullable().describe('The bound that cut its reading short'),
  ms: z.number().describe('Time to fetch and read it'),
});
export type CrawledPage = z.infer<typeof crawledPageSchema>;

export const CRAWL_OUTCOMES = ['complete', 'partial', 'failed'] as const;
export type CrawlOutcome = (typeof CRAWL_OUTCOMES)[number];

export const crawlReportSchema = z.object({
  startUrl: z.string(),
  outcome: z
    .enum(CRAWL_OUTCOMES)
    .describe(
      'complete: every page and link in reach was seen; partial: a bound stopped part of it (see stoppedBy); failed: the start page was not reached (the site is down), so the crawl says nothing of its findings',
    ),
  failure: z
    .object({
      reason: z.enum(['robots-unreachable', 'robots-disallowed', 'start-page']),
      message: z.string(),
      code: z
        .enum(LINK_ERROR_CODES)
        .nullable()
        .describe(
          'Why the start page got no answer (timeout, dns, blocked …); null: it answered ≥ 400, or robots.txt',
        ),
    })
    .nullable()
    .describe('Why a failed crawl failed'),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  durationMs: z.number(),
  pages: z.array(crawledPageSchema).describe('Every page crawled (at most maxPages)'),
  linksChecked: z.number().int().describe('URLs checked besides the pages crawled'),
  requests: z.number().int().describe('HTTP requests made, robots.txt and redirects included'),
  findings: z.array(crawlFindingSchema),
  stoppedBy: z.array(crawlBoundHitSchema),
  robots: z
    .array(
      z.object({
        origin: z.string(),
        state: z.enum(['parsed', 'absent', 'unreachable']),
        status: z.number().int().nullable(),
      }),
    )
    .describe(
      "Each crawled origin's robots.txt: parsed, absent (all allowed) or unreachable (nothing fetched)",
    ),
  skipped: z
    .object({
      robots: z.number().int().describe('URLs robots.txt forbids webmon'),
      ignored: z.number().int().describe('URLs matching an ignore pattern'),
      external: z.number().int().describe('Links to other hosts, not checked (checkExternal off)'),
    })
    .describe('URLs found and deliberately not requested'),
});
export type CrawlReport = z.infer<typeof crawlReportSchema>;
