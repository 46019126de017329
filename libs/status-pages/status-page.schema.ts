import { z } from 'zod';
import {
  absoluteHttpUrl,
  decimalId,
  lineText,
  nameText,
  patchBody,
  resourceId,
  uniqueArray,
} from '../contract/index.js';
import { ACCESS_MODES } from './access/access-decision.js';
import { addressRangeProblem } from './access/cidr.js';
import { isTimeZone, PAGE_LANGUAGES } from './i18n/catalog.js';
import { publicPostView } from './post-view.js';

export const SLUG_PATTERN = /^[a-z0-9-]{3,63}$/;
export const slug = z
  .string()
  .regex(SLUG_PATTERN, 'must be 3–63 characters of a–z, 0–9 and -')
  .describe('The page’s address: /status/{slug}; unique across the installation');

const branding = z.strictObject({
  logoUrl: absoluteHttpUrl('a logo is fetched by visitors’ browsers').nullable().default(null),
  accentColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1570ef')
    .nullable()
    .default(null),
  footerText: lineText(500).nullable().default(null),
});

/** An origin a page may be framed by: scheme, host and port as a browser writes them. */
const embeddingOrigin = z
  .string()
  .refine(
    (text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) && new URL(text).origin === text,
    {
      message:
        'must be an http(s) origin such as https://www.example.com (no path, lowercase, no trailing /)',
    },
  );

const embedAllowedOrigins = uniqueArray(embeddingOrigin)
  .max(20)
  .describe(
    'Sites that may show the page in a frame (CSP frame-ancestors); empty: none may (X-Frame-Options: DENY)',
  );

const maintenanceNoticeDays = z
  .number()
  .int()
  .min(0)
  .max(90)
  .describe(
    'How many days ahead the page announces its websites’ maintenance windows (0: only while under way)',
  );

const websiteIds = uniqueArray(resourceId())
  .max(500)
  .nullable()
  .describe('The customer’s websites shown; null: all of them, as they come and go');

const language = z
  .enum(PAGE_LANGUAGES)
  .describe(
    'The language of every fixed word its visitors and subscribers read (the page, its forms and mails): en, de, fr, nl or es',
  );

const timezone = z
  .string()
  .max(100)
  // As maintenance windows' zones are checked (the runtime's IANA zones), without their date library.
  .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
  .describe('The IANA time zone its dates and times are shown in, named beside them');

export const MAX_PAGE_SECTIONS = 20;

const section = z.strictObject({
  name: nameText(100),
  websiteIds: uniqueArray(resourceId())
    .max(500)
    .describe('Its websites in the order shown; each must be on the page and in no other section'),
});

const sections = z
  .array(section)
  .max(MAX_PAGE_SECTIONS)
  .superRefine((list, ctx) => {
    const seen = new Map<number, number>();
    for (const [i, entry] of list.entries())
      for (const [j, id] of entry.websiteIds.entries()) {
        const first = seen.get(id);
        if (first === undefined) seen.set(id, i);
        else
          ctx.addIssue({
            code: 'custom',
            path: [i, 'websiteIds', j],
            message: `website ${id} is in section ${first} already; a website is in one section at most`,
          });
      }
  })
  .describe(
    'Named groups of its websites, in the order shown; websites in none follow under a default heading. Empty: one list, as the websites come',
  );
export type PageSectionsInput = z.output<typeof sections>;

/** An allowed client range: an IPv4 or IPv6 address or CIDR range. */
const addressRange = z
  .string()
  .max(50)
  .superRefine((text, ctx) => {
    const problem = addressRangeProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const accessBody = z
  .strictObject({
    mode: z
      .enum(ACCESS_MODES)
      .describe(
        'Who may see the published page: anyone; visitors who give its password; clients from the listed address ranges; signed-in client users of its customer (and the organization’s staff)',
      ),
    password: z
      .string()
      .min(8, 'must be at least 8 characters')
      .max(200)
      .optional()
      .describe(
        'Write-only: sets or replaces the page’s password (stored as a scrypt hash); ends its visitors’ sessions',
      ),
    cidrs: z
      .array(addressRange)
      .max(100)
      .optional()
      .describe('The client address ranges a `cidr` page answers; kept when left out'),
  })
  .describe('Who may see the page once it is published (`public: true`); default: anyone');
export type StatusPageAccessInput = z.output<typeof accessBody>;

export const createStatusPageBody = z
  .strictObject({
    slug,
    title: nameText(200),
    customerId: resourceId(),
    websiteIds: websiteIds.default(null),
    branding: branding.default({ logoUrl: null, accentColor: null, footerText: null }),
    public: z.boolean().default(false).describe('Served at /status/{slug} without a token'),
    showResponseTimes: z.boolean().default(true),
    embedAllowedOrigins: embedAllowedOrigins.default([]),
    maintenanceNoticeDays: maintenanceNoticeDays.default(7),
    access: accessBody.optional(),
    language: language.default('en'),
    timezone: timezone.default('UTC'),
    sections: sections.default([]),
  })
  .meta({ id: 'StatusPageCreate' });
export type CreateStatusPageInput = z.output<typeof createStatusPageBody>;

export const patchStatusPageBody = patchBody(
  z.strictObject({
    domains: z
      .array(z.string().max(300))
      .max(10)
      .optional()
      .describe(
        'The page’s own domains, replacing its list; each is served once verified (see /api/status-pages/{id}/domains)',
      ),
    slug: slug.optional(),
    title: nameText(200).optional(),
    websiteIds: websiteIds.optional(),
    branding: branding.partial().optional(),
    public: z.boolean().optional(),
    showResponseTimes: z.boolean().optional(),
    embedAllowedOrigins: embedAllowedOrigins.optional(),
    maintenanceNoticeDays: maintenanceNoticeDays.optional(),
    access: accessBody.optional(),
    language: language.optional(),
    timezone: timezone.optional(),
    sections: sections.optional(),
  }),
).meta({ id: 'StatusPageUpdate' });
export type StatusPagePatch = z.output<typeof patchStatusPageBody>;

export const statusPageView = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    slug: z.string(),
    title: z.string(),
    customerId: z.number().int(),
    websiteIds: z.array(z.number().int()).nullable(),
    branding: z.object({
      logoUrl: z.string().nullable(),
      accentColor: z.string().nullable(),
      footerText: z.string().nullable(),
    }),
    public: z.boolean(),
    showResponseTimes: z.boolean(),
    embedAllowedOrigins: z.array(z.string()),
    maintenanceNoticeDays: z.number().int(),
    access: z.object({
      mode: z.enum(ACCESS_MODES),
      passwordSet: z.boolean().describe('Whether a password is set (the password itself is never shown)'),
      cidrs: z.array(z.string()),
    }),
    language: z.enum(PAGE_LANGUAGES),
    timezone: z.string(),
    sections: z.array(z.object({ name: z.string(), websiteIds: z.array(z.number().int()) })),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'StatusPage' });

export const listStatusPagesQuery = z.strictObject({
  customerId: decimalId().optional().describe('Only the pages of this customer'),
});

/** The page's data in JSON: the same figures the HTML page shows. */
/** One day of a website's or a monitor's 90 day bars. */
const dayBarView = z.object({
  date: z.string(),
  uptimePercent: z.number().nullable(),
  downtimeSeconds: z.number().int(),
});

export const publicStatusPageView = z
  .object({
    title: z.string(),
    language: z.enum(PAGE_LANGUAGES).describe('The language of the page’s words (the `…Text` fields)'),
    timezone: z.string().describe('The IANA time zone the HTML page shows its moments in'),
    branding: z.object({
      logoUrl: z.string().nullable(),
      accentColor: z.string().nullable(),
      footerText: z.string().nullable(),
    }),
    generatedAt: z.iso.datetime(),
    overall: z.object({ state: z.string(), text: z.string() }),
    websites: z.array(
      z.object({
        name: z.string(),
        status: z.string(),
        statusText: z.string(),
        lastCheckedAt: z.iso.datetime().nullable(),
        uptime90dPercent: z.number().nullable(),
        days: z.array(dayBarView),
        responseTimes: z
          .array(z.object({ hour: z.iso.datetime(), averageMs: z.number().nullable() }))
          .nullable(),
        monitors: z
          .array(
            z.object({
              kind: z.string(),
              name: z.string(),
              status: z.string(),
              statusText: z.string(),
              uptime90dPercent: z.number().nullable(),
              days: z.array(dayBarView),
            }),
          )
          .describe(
            'Its scheduled jobs (heartbeats), DNS records, service ports and the other checks, each with its 90 days as the website has them',
          ),
      }),
    ),
    incidents: z.array(
      z.object({
        website: z.string(),
        startedAt: z.iso.datetime(),
        resolvedAt: z.iso.datetime().nullable(),
        durationSeconds: z.number().int(),
        open: z.boolean(),
        note: z.string().nullable().describe('The root cause, as the agency made it public'),
      }),
    ),
    maintenance: z.array(
      z.object({
        website: z.string(),
        title: z.string(),
        startsAt: z.iso.datetime(),
        endsAt: z.iso.datetime(),
      }),
    ),
    sections: z
      .array(
        z.object({
          name: z.string().nullable().describe('null: the websites in no section'),
          websites: z.array(z.number().int()).describe('Indexes into `websites`, in order'),
        }),
      )
      .describe('The page’s named groups of websites in order; empty: the page has none'),
    posts: z
      .array(publicPostView)
      .describe('The agency’s incident posts: open ones first, then those resolved in the last 14 days'),
  })
  .meta({ id: 'PublicStatusPage' });
