import { z } from 'zod';
import { MIN_MASKED_CHARS, SECRET_NAME, SECRET_REFERENCE, VALUE_NAME } from '../placeholders/index.js';
import {
  JOURNEY_FORMAT_VERSION,
  journeyStep,
  MAX_JOURNEY_STEPS,
  MAX_URL_CHARS,
} from './journey-steps.schema.js';
import { MAX_TEXT_CHARS } from './text-match.js';

/**
 * A journey's browser: the device it plays, its locale and time zone, what every request carries
 * (headers, basic auth, cookies) and the values its placeholders take. Each run gets a fresh
 * context with exactly these, nothing kept from another run.
 */

export const MAX_VARIABLES = 20;
export const MAX_SECRETS = 20;
export const MAX_EXTRA_HEADERS = 20;
export const MAX_COOKIES = 20;
export const MAX_SECRET_CHARS = 4000;

export const JOURNEY_DEVICES = ['desktop', 'phone'] as const;
export type JourneyDevice = (typeof JOURNEY_DEVICES)[number];
/**
 * The playwright-core device each plays (`devices[name]`): Chromium runs the journeys, so the
 * phone is an Android one (touch, mobile viewport and user agent).
 */
export const PLAYWRIGHT_DEVICES = { desktop: 'Desktop Chrome', phone: 'Pixel 7' } as const satisfies Record<
  JourneyDevice,
  string
>;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers the browser sets itself or that would change how the connection works. */
const BROWSER_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'keep-alive',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
  'cookie',
]);

const text = (max: number) => z.string().min(1).max(max);

const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !/[\r\n\0]/.test(value), 'Must be one line');

/** A record whose names are checked one by one (zod would say only "Invalid key in record"). */
const namedRecord = <V extends z.ZodType<string>>(
  value: V,
  most: number,
  nameProblem: (name: string) => string | null,
) =>
  z.record(z.string(), value).superRefine((record, context) => {
    const names = Object.keys(record);
    if (names.length > most) context.addIssue({ code: 'custom', message: `At most ${most} entries` });
    for (const name of names) {
      const problem = nameProblem(name);
      if (problem) context.addIssue({ code: 'custom', path: [name], message: problem });
    }
  });

const variableName = (name: string) =>
  VALUE_NAME.test(name)
    ? null
    : 'Must be a variable name: a letter or _, then letters, digits or _ (at most 64 in all)';
const secretName = (name: string) =>
  SECRET_NAME.test(name) ? null : 'Must be a secret name: letters, digits or _ (at most 64)';

/**
 * A secret's value. One shorter than MIN_MASKED_CHARS could not be masked in a run's output: it is
 * refused when sealed (`sealSettings`), not here, so a journey stored before still parses to run.
 */
const secretValue = z.string().min(1).max(MAX_SECRET_CHARS);

export const isHttpUrl = (url: string) => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

/** A BCP 47 language tag as Chromium takes it (en-GB, de, pt-BR). */
function isLocale(tag: string): boolean {
  try {
    return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) && Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** An IANA zone name (Europe/Berlin, UTC), not an offset: Chromium's override takes names. */
function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const cookie = z
  .strictObject({
    name: z.string().regex(TOKEN, 'Must be a cookie name'),
    value: oneLine(4096).refine((value) => !/[;]/.test(value), 'Must not hold ";"'),
    url: z
      .string()
      .max(MAX_URL_CHARS)
      .refine(isHttpUrl, 'Must be an http(s) URL')
      .optional()
      .describe('The cookie is set for this URL (or give domain)'),
    domain: z
      .string()
      .regex(/^\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/, 'Must be a domain such as shop.example or .example')
      .max(253)
      .optional()
      .describe('The cookie is set for this domain (.example: and its subdomains)'),
    path: z
      .string()
      .regex(/^\//, 'Must start with /')
      .max(1024)
      .optional()
      .describe('With domain; default /'),
    expires: z.int().min(-1).optional().describe('Unix time in seconds; none or -1: a session cookie'),
    httpOnly: z.boolean().optional(),
    secure: z.boolean().optional(),
    sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
  })
  .superRefine((given, context) => {
    if ((given.url === undefined) === (given.domain === undefined))
      context.addIssue({ code: 'custom', path: ['url'], message: 'Must give either url or domain' });
    else if (given.url !== undefined && given.path !== undefined)
      context.addIssue({ code: 'custom', path: ['path'], message: 'Must be given with domain, not url' });
  })
  .meta({ id: 'JourneyCookie' });

/**
 * A journey's fields, each once, without defaults (a monitor's create fills them, its PATCH takes
 * any): the cross-field rules are `journeyProblems`, which `browserJourney` runs.
 */
export const journeyFields = {
  version: z.literal(JOURNEY_FORMAT_VERSION).describe('The step format’s version'),
  steps: z.array(journeyStep).min(1).max(MAX_JOURNEY_STEPS).describe('In order; the first goes to a URL'),
  device: z
    .enum(JOURNEY_DEVICES)
    .describe('desktop: Desktop Chrome; phone: Pixel 7 (touch, mobile viewport)'),
  viewport: z
    .strictObject({ width: z.int().min(240).max(3840), height: z.int().min(240).max(2160) })
    .nullable()
    .describe('In CSS pixels, instead of the device’s'),
  locale: z
    .string()
    .max(35)
    .refine(isLocale, 'Must be a language tag such as en-GB or de-DE')
    .nullable()
    .describe(
      'The browser’s language (navigator.language, Accept-Language); null: the browser’s own (en-US)',
    ),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'Must be an IANA time zone such as Europe/Berlin')
    .nullable()
    .describe('The page’s time zone; null: the worker’s own'),
  extraHeaders: namedRecord(oneLine(4000), MAX_EXTRA_HEADERS, (name) =>
    !TOKEN.test(name)
      ? 'Must be a header name'
      : BROWSER_HEADERS.has(name.toLowerCase())
        ? 'Must not be a header the browser sets (give cookies in cookies)'
        : null,
  ).describe(
    'Sent with the requests to the journey’s own origin (its first page’s) only, never to another it loads or links to; values may hold placeholders',
  ),
  basicAuth: z
    .strictObject({
      username: text(200),
      password: z
        .string()
        .regex(
          SECRET_REFERENCE,
          'Must be a secret such as {{secret.PASSWORD}}: a password is kept in secrets',
        ),
    })
    .nullable()
    .describe('HTTP basic auth answered for the page; the password is one of the journey’s secrets'),
  cookies: z
    .array(cookie)
    .max(MAX_COOKIES)
    .describe('Set before the first step; values may hold placeholders'),
  variables: namedRecord(z.string().max(MAX_TEXT_CHARS), MAX_VARIABLES, variableName).describe(
    'Values the steps use as {{name}}, shown as written',
  ),
  secrets: namedRecord(secretValue, MAX_SECRETS, secretName).describe(
    `Values the steps use as {{secret.NAME}}: write-only (sealed when stored, masked in every run’s output), at least ${MIN_MASKED_CHARS} characters each`,
  ),
};

/** A journey as a run takes it (defaults filled in), without the cross-field rules. */
export const journeySettings = z.strictObject({
  version: journeyFields.version.default(JOURNEY_FORMAT_VERSION),
  steps: journeyFields.steps,
  device: journeyFields.device.default('desktop'),
  viewport: journeyFields.viewport.default(null),
  locale: journeyFields.locale.default(null),
  timezone: journeyFields.timezone.default(null),
  extraHeaders: journeyFields.extraHeaders.default({}),
  basicAuth: journeyFields.basicAuth.default(null),
  cookies: journeyFields.cookies.default([]),
  variables: journeyFields.variables.default({}),
  secrets: journeyFields.secrets.default({}),
});

export type BrowserJourney = z.output<typeof journeySettings>;
export type BrowserJourneyInput = z.input<typeof journeySettings>;
/** Everything but the steps: the browser a journey runs in and its values. */
export type JourneyOptions = Omit<BrowserJourney, 'version' | 'steps'>;
export type JourneyCookie = BrowserJourney['cookies'][number];
