import type { Severity } from './event-summary.js';
import { incomingWebhook } from './incoming-webhook.js';
import { lines } from './message-parts.js';

const COLOR: Record<Severity, number> = {
  critical: 0xd92d20,
  error: 0xd92d20,
  warning: 0xf79009,
  info: 0x1570ef,
};

export const discord = incomingWebhook('Discord', null, (event, summary) => ({
  // Nobody is pinged by what a monitored page or a check message says.
  allowed_mentions: { parse: [] },
  embeds: [
    {
      title: summary.title.slice(0, 256),
      description: lines(event, summary).join('\n').slice(0, 4096) || undefined,
      url: event.data.website?.url,
      color: COLOR[summary.severity],
      timestamp: event.createdAt,
    },
  ],
}));
