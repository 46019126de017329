import { de } from './de.js';
import { en, type MessageKey, type Messages } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { nl } from './nl.js';

/** The languages a status page speaks to its visitors and subscribers. */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'nl', 'es'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];
export const DEFAULT_PAGE_LANGUAGE: PageLanguage = 'en';
export const DEFAULT_PAGE_TIMEZONE = 'UTC';

export const CATALOG: Readonly<Record<PageLanguage, Messages>> = { en, de, fr, nl, es };

/** The locale dates and numbers are written in (British English: day first, 24-hour clock). */
const LOCALES: Record<PageLanguage, string> = {
  en: 'en-GB',
  de: 'de-DE',
  fr: 'fr-FR',
  nl: 'nl-NL',
  es: 'es-ES',
};

export type MessageValues = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** The `{name}` placeholders of a text, sorted (a translation must have the same). */
export const placeholdersOf = (text: string): string[] =>
  [...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string).sort();

/** A text with its placeholders filled; one not given stays as it is written. */
export function fill(text: string, values: MessageValues = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}

/** A text cut at its placeholders: literal parts and `{name}`s in order (for rendering with markup). */
export function textParts(text: string): Array<{ literal: string } | { placeholder: string }> {
  const parts: Array<{ literal: string } | { placeholder: string }> = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ literal: text.slice(last, match.index) });
    parts.push({ placeholder: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ literal: text.slice(last) });
  return parts;
}

/** A language given by a stored page (absent on pages stored before languages: English). */
export const pageLanguage = (value: string | undefined | null): PageLanguage =>
  (PAGE_LANGUAGES as readonly string[]).includes(value ?? '') ? (value as PageLanguage) : 'en';

/** How a page writes its words, moments and durations: its language, in its time zone. */
export interface PageLocale {
  language: PageLanguage;
  timezone: string;
}

export const DEFAULT_LOCALE: PageLocale = { language: 'en', timezone: 'UTC' };

export interface Translator {
  readonly language: PageLanguage;
  readonly timezone: string;
  /** The text of a key, its placeholders filled. */
  text(key: MessageKey, values?: MessageValues): string;
  /** The text of a key unfilled (to be rendered with markup in its placeholders). */
  raw(key: MessageKey): string;
  /** A moment to the minute, with its zone's name ("29. Nov. 2026, 10:00 MEZ"). */
  dateTime(at: Date | string): string;
  /** A month of the calendar ("März 2026"), given as YYYY-MM. */
  month(month: string): string;
  /** A span of seconds in words ("3 h 5 min"). */
  duration(seconds: number): string;
}

const formats = new Map<string, { dateTime: Intl.DateTimeFormat; month: Intl.DateTimeFormat }>();

function formatsOf(locale: PageLocale) {
  const key = `${locale.language}|${locale.timezone}`;
  let found = formats.get(key);
  if (!found) {
    const tag = LOCALES[locale.language];
    found = {
      dateTime: new Intl.DateTimeFormat(tag, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: locale.timezone,
        timeZoneName: 'short',
      }),
      // A month is named as the calendar has it: its first day at noon UTC is in it in every zone.
      month: new Intl.DateTimeFormat(tag, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    };
    formats.set(key, found);
  }
  return found;
}

/** The translator of a page's language and time zone (an unknown zone: UTC, as pages stored before). */
export function translator(locale: Partial<PageLocale> = {}): Translator {
  const language = pageLanguage(locale.language);
  const timezone = isTimeZone(locale.timezone) ? (locale.timezone as string) : 'UTC';
  const messages = CATALOG[language];
  const own = formatsOf({ language, timezone });
  const text = (key: MessageKey, values?: MessageValues) => fill(messages[key], values);
  return {
    language,
    timezone,
    text,
    raw: (key) => messages[key],
    dateTime: (at) => own.dateTime.format(typeof at === 'string' ? new Date(at) : at),
    month: (month) => own.month.format(new Date(`${month}-01T12:00:00Z`)),
    duration(seconds) {
      if (seconds < 60) return text('duration.seconds', { seconds });
      const minutes = Math.floor(seconds / 60);
      if (minutes < 60) return text('duration.minutes', { minutes });
      const hours = Math.floor(minutes / 60);
      if (hours < 48) return text('duration.hours', { hours, minutes: minutes % 60 });
      return text('duration.days', { days: Math.floor(hours / 24), hours: hours % 24 });
    },
  };
}

/** Whether the runtime knows the IANA time zone. */
export function isTimeZone(value: string | undefined | null): boolean {
  if (!value) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export type { MessageKey, Messages };
