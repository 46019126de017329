import { absoluteHttpUrl } from '../contract/index.js';
import type { EventPayload } from '../events/index.js';
import type { ConfigValue, OpenedChannel, PersonalMedium, PersonalMessage, Verdict } from './connector.js';
import type { EventSummary } from './event-summary.js';
import type { Markup } from './markup.js';
import type { Segment } from './text-fit.js';

/** What connectors share: field schemas, and the parts of an event most tools show. */

export const endpoint = absoluteHttpUrl('a connector’s token goes in its own write-only field');
/** Incoming-webhook URLs of chat tools carry their credential in the path: they are secrets. */
export const secretEndpoint = endpoint.describe('Write-only (the URL is the credential): never returned');

export const JSON_TYPE = { 'content-type': 'application/json' };
export const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** A form body (Twilio, Zulip, Pushover): the fields given, in order. */
export const form = (fields: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  ).toString();

export const text = (value: ConfigValue | undefined): string => (typeof value === 'string' ? value : '');

/**
 * An event in the tool's markup, one segment a line: the title (bold), the website's URL, why,
 * what it answered, the screenshot and the incident, those there are. Links are kept whole when a
 * message is cut; the rest is escaped and cut as needed (fitSegments).
 */
export function eventSegments(
  payload: EventPayload,
  summary: EventSummary,
  markup: Markup,
  { title = true }: { title?: boolean } = {},
): Segment[] {
  const literal = markup.escape;
  const url = payload.data.website?.url;
  const incident = payload.data.incident;
  const segments: Array<Segment | null> = [
    title ? { plain: summary.title, escape: (plain) => markup.bold(literal(plain)) } : null,
    url ? markup.address(url) : null,
    summary.reason ? { plain: summary.reason, escape: literal } : null,
    summary.excerpt ? { plain: `Answer: ${summary.excerpt}`, escape: literal } : null,
    summary.screenshot ? markup.link(summary.screenshot, 'Screenshot') : null,
    summary.link
      ? markup.link(summary.link, 'Incident')
      : incident
        ? { plain: `Incident ${incident}`, escape: literal }
        : null,
  ];
  return segments.filter((segment): segment is Segment => segment !== null);
}

/** The message's text: the channel's rendered template when it has one, else the event's segments. */
export const messageSegments = (
  channel: OpenedChannel,
  payload: EventPayload,
  summary: EventSummary,
  markup: Markup,
  options: { title?: boolean } = {},
): Segment[] =>
  channel.message
    ? [{ plain: channel.message, escape: markup.escape }]
    : eventSegments(payload, summary, markup, options);

/** A failing journey's screenshot, as a line of plain text. */
export const screenshotLine = (summary: EventSummary): string | null =>
  summary.screenshot ? `Screenshot: ${summary.screenshot}` : null;

/** The key that ties a trigger to its resolve: the incident, else one per website and kind. */
export function alertKey(payload: EventPayload): string {
  if (payload.data.incident) return payload.data.incident;
  if (payload.type === 'test') return `test-${payload.id}`;
  return `${payload.type}-${payload.data.website?.id ?? 'none'}`;
}

/** Incident tools hear about problems and their end; maintenance is not an alert. */
export const isMaintenance = (payload: EventPayload) => payload.type.startsWith('maintenance.');

/** A medium the tool does not reach people through (null: it does). */
export const notThrough = (
  message: PersonalMessage,
  media: readonly PersonalMedium[],
  label: string,
): Verdict | null =>
  media.includes(message.medium)
    ? null
    : { verdict: 'skipped', reason: `${label} does not send ${message.medium}` };
