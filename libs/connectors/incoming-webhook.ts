import type { EventPayload } from '../events/index.js';
import { requestConnector } from './connector.js';
import { type EventSummary, summarize } from './event-summary.js';
import { JSON_TYPE, secretEndpoint } from './message-parts.js';

/**
 * A chat tool's incoming webhook: the URL is the credential (write-only), the body the tool's
 * message format.
 */
export function incomingWebhook(
  label: string,
  urlDescription: string | null,
  message: (event: EventPayload, summary: EventSummary) => unknown,
) {
  return requestConnector({
    label,
    shape: { webhookUrl: urlDescription ? secretEndpoint.describe(urlDescription) : secretEndpoint },
    secrets: ['webhookUrl'],
    defaults: {},
    request: (channel, event) => ({
      url: channel.secrets.webhookUrl ?? '',
      headers: JSON_TYPE,
      body: JSON.stringify(message(event, summarize(event))),
    }),
  });
}
