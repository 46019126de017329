import { z } from 'zod';
import {
  absoluteHttpUrl,
  decimalId,
  decimalInteger,
  nameText,
  patchBody,
  resourceId,
  uniqueArray,
} from '../contract/index.js';
import { WEBSITE_STATUSES } from '../events/event-kinds.js';
import { SEARCH_MAX_CHARS, SEARCH_MIN_CHARS } from './website-search-limits.js';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const COOKIE_HANDLING = ['jar', 'none'] as const;
const MAX_HEADERS = 50;
const MAX_REQUEST_BODY_BYTES = 64 * 1024;
const MAX_PEM_CHARS = 32 * 1024;
/** Headers the probe sets itself: a configured value would break or smuggle the request. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;
const REGION = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Seconds; bounded above by a day and below by the package's minimum (checked against the package). */
export const MAX_CHECK_INTERVAL_SECONDS = 86_400;
const MAX_LISTED_CHANNELS = 20;

const url = absoluteHttpUrl('send them as customHeaders.Authorization');

const headerValue = z.string().max(8192).regex(HEADER_VALUE, 'must not contain line breaks or NUL');

/** Header names: valid, not set by the probe itself, not twice (names are case-insensitive). */
function checkHeaderNames(headers: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_HEADERS} headers` });
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) {
      ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid header name' });
    } else if (FORBIDDEN_HEADERS.has(lower)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `${name} is set by the probe and cannot be configured`,
      });
    } else if (seen.has(lower)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'is given twice (header names are case-insensitive)',
      });
    }
    seen.add(lower);
  }
}

const customHeaders = z
  .record(z.string(), headerValue)
  .superRefine(checkHeaderNames)
  .describe(
    'Headers sent with each check. Authorization, Proxy-Authorization and Cookie are stored sealed and never returned (see secretHeaders)',
  );

const secretHeaders = z
  .record(z.string(), headerValue.nullable())
  .superRefine(checkHeaderNames)
  .describe(
    'Headers whose values are credentials (an API key, a token): write-only, sealed at rest, never returned or logged; responses list their names in secretHeaderNames. A value sets or replaces one, null removes it, omitted ones are kept (also in a full update)',
  );

const utf8 = new TextEncoder();

const requestBody = z
  .string()
  .refine(
    // Its UTF-8 bytes, counted as Buffer.byteLength would, also in the browser (the app checks it too).
    (body) => utf8.encode(body).byteLength <= MAX_REQUEST_BODY_BYTES,
    `at most ${MAX_REQUEST_BODY_BYTES} bytes`,
  )
  .nullable();

const pem = z.string().max(MAX_PEM_CHARS).nullable();

/** Enums named once: one class in generated clients, not one per field that holds them. */
const httpMethod = z.enum(HTTP_METHODS).meta({ id: 'HttpMethod' });
const cookieHandling = z.enum(COOKIE_HANDLING).meta({ id: 'CookieHandling' });

/** Every website field a client may send; none has a default here (defaults differ between create and patch). */
export const websiteFields = {
  customerId: resourceId(),
  name: nameText(200),
  url,
  httpMethod,
  customHeaders,
  secretHeaders,
  requestBody,
  requestBodySecret: z
    .boolean()
    .describe(
      'The body is a credential: stored sealed, never returned (requestBody reads null). Setting it false needs the body sent again',
    ),
  followRedirects: z.boolean(),
  maxRedirects: z.number().int().min(0).max(20),
  cookieHandling: cookieHandling.describe(
    'jar: cookies set during a check are sent on its redirects; none: never',
  ),
  mtlsEnabled: z.boolean(),
  mtlsClientCert: pem.describe('PEM client certificate (a chain may follow it)'),
  mtlsClientKey: pem.describe(
    'PEM private key, unencrypted; write-only: never returned, encrypted at rest. Omitted: kept; null: cleared',
  ),
  checkInterval: z.number().int().min(1).max(MAX_CHECK_INTERVAL_SECONDS).describe('Seconds between checks'),
  timeoutSeconds: z.number().int().min(1).max(120),
  regions: uniqueArray(z.string().regex(REGION, 'must be a region label (lowercase letters, digits, dashes)'))
    .max(20)
    .describe('Regions to check from; empty: all regions (one region unless the package has multiRegion)'),
  paused: z.boolean(),
  notificationChannelIds: uniqueArray(resourceId())
    .max(MAX_LISTED_CHANNELS)
    .describe(
      'Notification channels that receive this website’s events, besides those whose scope covers it (organization-wide or the customer’s)',
    ),
  escalationPolicyId: resourceId()
    .nullable()
    .describe(
      'The escalation policy its alerts follow (null: its customer’s, else the organization’s default)',
    ),
};

/** The defaults a new website gets, and a full update returns omitted fields to. */
export const WEBSITE_DEFAULTS = {
  httpMethod: 'GET',
  customHeaders: {},
  requestBody: null,
  followRedirects: true,
  maxRedirects: 10,
  cookieHandling: 'jar',
  mtlsEnabled: false,
  mtlsClientCert: null,
  checkInterval: 300,
  timeoutSeconds: 30,
  regions: [],
  paused: false,
  notificationChannelIds: [],
  escalationPolicyId: null,
} as const satisfies Partial<Record<keyof typeof websiteFields, unknown>>;

const { customerId, name, url: urlField, ...optionalFields } = websiteFields;

export const createWebsiteBody = z
  .strictObject({
    customerId,
    name,
    url: urlField,
    ...Object.fromEntries(Object.entries(optionalFields).map(([key, schema]) => [key, schema.optional()])),
  } as { customerId: typeof customerId; name: typeof name; url: typeof urlField } & {
    [K in keyof typeof optionalFields]: z.ZodOptional<(typeof optionalFields)[K]>;
  })
  .meta({ id: 'WebsiteCreate' });

export const patchWebsiteBody = patchBody(createWebsiteBody.partial()).meta({ id: 'WebsiteUpdate' });

export type WebsiteInput = z.output<typeof patchWebsiteBody>;

export const websiteView = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    customerId: z.number().int(),
    name: z.string(),
    url: z.string(),
    httpMethod,
    customHeaders: z.record(z.string(), z.string()).describe('The headers sent in clear'),
    secretHeaderNames: z.array(z.string()).describe('Headers sent with each check whose values are sealed'),
    requestBody: z.string().nullable().describe('null also while requestBodySecret is true'),
    requestBodySecret: z.boolean(),
    followRedirects: z.boolean(),
    maxRedirects: z.number().int(),
    cookieHandling,
    mtlsEnabled: z.boolean(),
    mtlsClientCert: z.string().nullable(),
    mtlsClientKeySet: z
      .boolean()
      .describe('Whether a client key is stored (the key itself is never returned)'),
    checkInterval: z.number().int(),
    timeoutSeconds: z.number().int(),
    regions: z.array(z.string()),
    paused: z.boolean(),
    notificationChannelIds: z.array(z.number().int()),
    escalationPolicyId: z.number().int().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Website' });

export const websiteRefParams = z.object({
  websiteRef: z
    .string()
    .refine(
      (ref) => UUID.test(ref) || (/^[1-9][0-9]{0,15}$/.test(ref) && Number(ref) <= Number.MAX_SAFE_INTEGER),
      'must be a website UUID (publicId) or integer id',
    )
    .describe('The website publicId (UUID) or integer id'),
});

export const websitePublicIdParams = z.object({
  websiteRef: z
    .string()
    .regex(UUID, 'must be the website publicId (a UUID)')
    .describe('The website publicId (UUID)'),
});

/** The statuses a listed website can have (those GET …/status reports). */
export const LISTED_STATUSES = WEBSITE_STATUSES;

export const listWebsitesQuery = z.strictObject({
  customerId: decimalId()
    .optional()
    .describe("One customer's websites (all of them); omitted: the organization's, a page at a time"),
  status: z.enum(LISTED_STATUSES).optional().describe('Only websites whose status is this now'),
  limit: decimalInteger({ min: 1, max: 500 })
    .optional()
    .describe('Websites per page (default 100 without customerId; with it, all unless given)'),
  afterId: decimalId().optional().describe('The last id of the previous page (from the Link header)'),
  q: z
    .string()
    .trim()
    .min(SEARCH_MIN_CHARS)
    .max(SEARCH_MAX_CHARS)
    .optional()
    .describe('Only websites whose name or URL (without the scheme) holds this text, any case'),
});

/** The summaries' pages may be larger: each website is a tenth of its full view. */
export const listWebsiteSummariesQuery = listWebsitesQuery.extend({
  limit: decimalInteger({ min: 1, max: 1000 })
    .optional()
    .describe('Websites per page (default 100 without customerId; with it, all unless given)'),
});
