import { absoluteHttpUrl } from '../contract/index.js';
import type { EventPayload } from '../events/index.js';
import type { ConfigValue } from './connector.js';
import type { EventSummary } from './event-summary.js';

/** What connectors share: field schemas, and the parts of an event most tools show. */

export const endpoint = absoluteHttpUrl('a connector’s token goes in its own write-only field');
/** Incoming-webhook URLs of chat tools carry their credential in the path: they are secrets. */
export const secretEndpoint = endpoint.describe('Write-only (the URL is the credential): never returned');

export const JSON_TYPE = { 'content-type': 'application/json' };

export const text = (value: ConfigValue | undefined): string => (typeof value === 'string' ? value : '');

/** The website's URL, why, what it answered, the screenshot and the incident: one line each, those there are. */
export function lines(payload: EventPayload, summary: EventSummary): string[] {
  return [
    payload.data.website?.url,
    summary.reason,
    summary.excerpt ? `Answer: ${summary.excerpt}` : null,
    screenshotLine(summary),
    incidentLine(payload, summary),
  ].filter((line): line is string => Boolean(line));
}

/** A failing journey's screenshot, as a line of plain text. */
export const screenshotLine = (summary: EventSummary): string | null =>
  summary.screenshot ? `Screenshot: ${summary.screenshot}` : null;

/** The incident: its page in the app when known, else its id. */
function incidentLine(payload: EventPayload, summary: EventSummary): string | null {
  if (!payload.data.incident) return null;
  return summary.link ? `Incident: ${summary.link}` : `Incident ${payload.data.incident}`;
}

/** The key that ties a trigger to its resolve: the incident, else one per website and kind. */
export function alertKey(payload: EventPayload): string {
  if (payload.data.incident) return payload.data.incident;
  if (payload.type === 'test') return `test-${payload.id}`;
  return `${payload.type}-${payload.data.website?.id ?? 'none'}`;
}

/** Incident tools hear about problems and their end; maintenance is not an alert. */
export const isMaintenance = (payload: EventPayload) => payload.type.startsWith('maintenance.');
