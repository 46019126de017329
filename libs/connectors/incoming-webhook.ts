import type { z } from 'zod';
import type { EventPayload } from '../events/index.js';
import { requestConnector } from './connector.js';
import { type EventSummary, summarize } from './event-summary.js';
import type { Markup } from './markup.js';
import { JSON_TYPE, messageSegments, secretEndpoint } from './message-parts.js';
import { fitSegments } from './text-fit.js';

/**
 * A chat tool's incoming webhook: the URL is the credential (write-only), the body the tool's
 * message format, with the channel's rendered template as its text when it has one.
 */
export function incomingWebhook(
  label: string,
  urlDescription: string | null,
  message: (event: EventPayload, summary: EventSummary, template: string | undefined) => unknown,
) {
  return requestConnector({
    label,
    shape: { webhookUrl: urlDescription ? secretEndpoint.describe(urlDescription) : secretEndpoint },
    secrets: ['webhookUrl'],
    defaults: {},
    request: (channel, event) => ({
      url: channel.secrets.webhookUrl ?? '',
      headers: JSON_TYPE,
      body: JSON.stringify(message(event, summarize(event), channel.message || undefined)),
    }),
  });
}

/**
 * A chat tool whose incoming webhook takes Markdown `text` and may post elsewhere than its default
 * channel (Mattermost, Rocket.Chat): the message in the tool's dialect, within its length.
 */
export function markdownWebhook(spec: {
  label: string;
  urlDescription: string;
  channel: z.ZodType<string>;
  markup: Markup;
  maxChars: number;
}) {
  return requestConnector({
    label: spec.label,
    shape: { webhookUrl: secretEndpoint.describe(spec.urlDescription), channel: spec.channel.nullable() },
    secrets: ['webhookUrl'],
    defaults: { channel: null },
    request: (channel, event) => ({
      url: channel.secrets.webhookUrl ?? '',
      headers: JSON_TYPE,
      body: JSON.stringify({
        text: fitSegments(messageSegments(channel, event, summarize(event), spec.markup), spec.maxChars),
        ...(channel.config.channel ? { channel: channel.config.channel } : {}),
      }),
    }),
  });
}
