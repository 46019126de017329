import type { SitemapErrorCode } from './sitemap.schema.js';

/** The protocol's longest `<loc>`. */
export const MAX_LOC_CHARS = 2048;
/**
 * How far past now a `lastmod` may be before it is "in the future": a date without a time is read
 * as midnight UTC, and a site east of UTC (up to +14:00) can rightly write tomorrow's date.
 */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;

export interface ValueProblem {
  code: SitemapErrorCode;
  message: string;
}

const clip = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);

/**
 * What is wrong with a `<loc>`, or null. It must be an absolute http(s) URL of at most 2,048
 * characters on one of `allowedHosts` (host and port, as `URL.host` writes them): the sitemap's own
 * host, and the website's when robots.txt cross-submitted the sitemap (see docs/sitemaps.md).
 */
export function locProblem(loc: string, allowedHosts: ReadonlySet<string>): ValueProblem | null {
  if (loc.length > MAX_LOC_CHARS)
    return { code: 'LOC_TOO_LONG', message: `<loc> ${clip(loc)} is over ${MAX_LOC_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(loc);
  } catch {
    return { code: 'INVALID_LOC', message: `<loc> ${clip(loc) || '(empty)'} is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { code: 'INVALID_LOC', message: `<loc> ${clip(loc)} is not an http(s) URL` };
  if (!allowedHosts.has(url.host))
    return {
      code: 'LOC_OTHER_HOST',
      message: `<loc> ${clip(loc)} is on ${url.host}, not on ${[...allowedHosts].join(' or ')}`,
    };
  return null;
}

// W3C Datetime (https://www.w3.org/TR/NOTE-datetime): YYYY, YYYY-MM, YYYY-MM-DD, and a date with
// hh:mm, hh:mm:ss or hh:mm:ss.s… followed by a time zone (Z or ±hh:mm), which the note requires.
const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):(\d{2})))?)?)?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The earliest instant a W3C Datetime stands for, or null when it is not one (format or range). */
export function parseW3cDatetime(value: string): Date | null {
  const match = W3C_DATETIME.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, zone, zh, zm] = match;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetHours = zh === undefined ? 0 : Number(zh);
  const offsetMinutes = zm === undefined ? 0 : Number(zm);
  if (offsetHours > 14 || offsetMinutes > 59) return null;
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000 * (zone?.startsWith('-') ? -1 : 1);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs);
}

/** What is wrong with a `<lastmod>`, or null: not a W3C Datetime, or more than a day after `now`. */
export function lastmodProblem(value: string, now: Date): ValueProblem | null {
  const date = parseW3cDatetime(value);
  if (!date)
    return {
      code: 'INVALID_LASTMOD',
      message: `<lastmod> ${clip(value) || '(empty)'} is not a W3C Datetime (YYYY, YYYY-MM, YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm)`,
    };
  if (date.getTime() > now.getTime() + FUTURE_SLACK_MS)
    return { code: 'FUTURE_LASTMOD', message: `<lastmod> ${value} is in the future` };
  return null;
}

/** What is wrong with a `<changefreq>`, or null. */
export function changefreqProblem(value: string): ValueProblem | null {
  return (CHANGEFREQS as readonly string[]).includes(value)
    ? null
    : {
        code: 'INVALID_CHANGEFREQ',
        message: `<changefreq> ${clip(value) || '(empty)'} is not one of ${CHANGEFREQS.join(', ')}`,
      };
}

/** What is wrong with a `<priority>`, or null: a decimal from 0.0 to 1.0. */
export function priorityProblem(value: string): ValueProblem | null {
  const number = /^\+?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  return number >= 0 && number <= 1
    ? null
    : {
        code: 'INVALID_PRIORITY',
        message: `<priority> ${clip(value) || '(empty)'} is not a number from 0.0 to 1.0`,
      };
}
