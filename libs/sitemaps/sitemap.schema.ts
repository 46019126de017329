import { z } from 'zod';

/** What can be wrong with a site's sitemaps, each named in a `SitemapError`. */
export const SITEMAP_ERROR_CODES = [
  'SITEMAP_NOT_FOUND',
  'UNREACHABLE',
  'BLOCKED',
  'HTTP_ERROR',
  'NOT_WELL_FORMED',
  'NOT_UTF8',
  'WRONG_ROOT',
  'WRONG_NAMESPACE',
  'UNKNOWN_ELEMENT',
  'REPEATED_ELEMENT',
  'MISSING_LOC',
  'EMPTY_SITEMAP',
  'INVALID_LOC',
  'LOC_TOO_LONG',
  'LOC_OTHER_HOST',
  'INVALID_LASTMOD',
  'FUTURE_LASTMOD',
  'INVALID_CHANGEFREQ',
  'INVALID_PRIORITY',
  'TOO_MANY_URLS',
  'FILE_TOO_LARGE',
  'NESTED_INDEX',
] as const;
export type SitemapErrorCode = (typeof SITEMAP_ERROR_CODES)[number];

export const SitemapErrorSchema = z
  .object({
    code: z
      .enum(SITEMAP_ERROR_CODES)
      .describe(
        'SITEMAP_NOT_FOUND: no `Sitemap:` line in robots.txt and no /sitemap.xml; UNREACHABLE: no answer (DNS, connection, TLS, timeout, redirects); BLOCKED: the address guard refused its address; HTTP_ERROR: answered 4xx/5xx; NOT_WELL_FORMED, NOT_UTF8: not readable XML; WRONG_ROOT, WRONG_NAMESPACE, UNKNOWN_ELEMENT, REPEATED_ELEMENT, MISSING_LOC, EMPTY_SITEMAP: not the sitemaps.org schema; INVALID_LOC, LOC_TOO_LONG, LOC_OTHER_HOST, INVALID_LASTMOD, FUTURE_LASTMOD, INVALID_CHANGEFREQ, INVALID_PRIORITY: an entry’s value; TOO_MANY_URLS, FILE_TOO_LARGE: over the protocol’s 50,000 entries or 50 MB a file; NESTED_INDEX: an index listing an index',
      ),
    message: z.string().describe('What is wrong, in words'),
    file: z.string().describe('The URL of the file it is in (robots.txt or the site for SITEMAP_NOT_FOUND)'),
    line: z.number().int().nullable().describe('Line in the file, from 1; null: not a position in a file'),
    column: z.number().int().nullable().describe('Column in the line, from 1; null: not known'),
    entry: z
      .number()
      .int()
      .nullable()
      .describe('Which `<url>` or `<sitemap>` of the file, from 1; null: not in an entry'),
  })
  .meta({ id: 'SitemapError' });
export type SitemapError = z.infer<typeof SitemapErrorSchema>;

export const SitemapFileSchema = z
  .object({
    url: z.string().describe('Where it was read (before any redirect)'),
    foundIn: z
      .string()
      .describe(
        '`robots.txt` (a `Sitemap:` line), `default` (/sitemap.xml) or the URL of the index listing it',
      ),
    kind: z
      .enum(['urlset', 'index'])
      .nullable()
      .describe('`<urlset>` or `<sitemapindex>`; null: not read, or not a sitemap'),
    httpStatus: z.number().int().nullable().describe('null: no answer'),
    compressed: z
      .boolean()
      .describe('Whether it came gzip-compressed (a .gz file or a gzip Content-Encoding)'),
    bytes: z.number().int().describe('Uncompressed bytes read'),
    entries: z.number().int().describe('Its `<url>` (urlset) or `<sitemap>` (index) entries'),
    complete: z.boolean().describe('Whether it was read to its end (false: an error or a bound stopped it)'),
  })
  .meta({ id: 'SitemapFile' });
export type SitemapFile = z.infer<typeof SitemapFileSchema>;

/** A bound of ours that stopped work before its end, so a reader knows the result is partial. */
export const StoppedBySchema = z
  .object({
    bound: z.string().describe('The bound’s option name, e.g. `maxSitemapFiles`, `deadlineMs`'),
    message: z.string().describe('What it left out, in words'),
  })
  .meta({ id: 'SitemapStoppedBy' });
export type StoppedBy = z.infer<typeof StoppedBySchema>;

export const SitemapReportSchema = z
  .object({
    found: z
      .enum(['robots.txt', 'default', 'none'])
      .describe('How the sitemaps were found: robots.txt `Sitemap:` lines, /sitemap.xml, or not at all'),
    sitemaps: z.array(SitemapFileSchema).describe('Every sitemap file tried, in the order read'),
    urlCount: z.number().int().describe('`<loc>`s of all `<urlset>` files read, repeats included'),
    urls: z
      .array(z.string())
      .describe(
        'The first distinct listed URLs, in the order listed, up to `maxUrlsKept` (for a crawl to start from)',
      ),
    sample: z
      .array(z.string())
      .describe(
        'Up to `sampleSize` distinct listed URLs chosen by a seeded hash: the same sitemaps and seed give the same sample',
      ),
    errors: z.array(SitemapErrorSchema).describe('The first `maxErrorsKept` errors, in the order found'),
    errorCount: z.number().int().describe('All errors found, the ones not kept included'),
    stoppedBy: z.array(StoppedBySchema).describe('Our bounds that stopped reading; empty: all was read'),
  })
  .meta({ id: 'SitemapReport' });
export type SitemapReport = z.infer<typeof SitemapReportSchema>;

export const BrokenSitemapUrlSchema = z
  .object({
    url: z.string(),
    status: z.number().int().nullable().describe('The final answer’s status (≥ 400); null: no answer'),
    error: z
      .string()
      .nullable()
      .describe(
        'Why there was no answer (e.g. `DNS`, `TIMEOUT`, `BLOCKED_TARGET`, `REDIRECT_LOOP`); null: answered',
      ),
    message: z.string().describe('What went wrong, in words'),
  })
  .meta({ id: 'BrokenSitemapUrl' });
export type BrokenSitemapUrl = z.infer<typeof BrokenSitemapUrlSchema>;

export const SitemapUrlCheckSchema = z
  .object({
    checked: z.number().int().describe('URLs asked for'),
    broken: z
      .array(BrokenSitemapUrlSchema)
      .describe('Those that answered ≥ 400 or not at all, in the order given'),
    stoppedBy: z.array(StoppedBySchema).describe('Our bounds that left URLs unchecked; empty: all were'),
  })
  .meta({ id: 'SitemapUrlCheck' });
export type SitemapUrlCheck = z.infer<typeof SitemapUrlCheckSchema>;
