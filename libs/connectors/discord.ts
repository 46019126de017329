import type { Severity } from './event-summary.js';
import { incomingWebhook } from './incoming-webhook.js';
import { PLAIN } from './markup.js';
import { eventSegments } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';

const COLOR: Record<Severity, number> = {
  critical: 0xd92d20,
  error: 0xd92d20,
  warning: 0xf79009,
  info: 0x1570ef,
};

/** Discord's embed limits: a title of 256 characters, a description of 4,096. */
export const discord = incomingWebhook('Discord', null, (event, summary, template) => ({
  // Nobody is pinged by what a monitored page or a check message says.
  allowed_mentions: { parse: [] },
  embeds: [
    {
      title: cut(summary.title, 256),
      description:
        (template
          ? cut(template, 4096)
          : fitSegments(eventSegments(event, summary, PLAIN, { title: false }), 4096)) || undefined,
      url: event.data.website?.url,
      color: COLOR[summary.severity],
      timestamp: event.createdAt,
    },
  ],
}));
