import { requestConnector } from './connector.js';
import { endpoint, JSON_TYPE, text } from './message-parts.js';
import { webhookHeaders } from './signing.js';

/**
 * Standard Webhooks: the event as JSON, signed with the channel's secret (and, during a rotation,
 * the previous one); a channel with a template adds its rendered text as `message`.
 */
export const webhook = requestConnector({
  label: 'webhooks',
  shape: { url: endpoint.describe('Receives Standard Webhooks POSTs, signed with the channel’s secret') },
  secrets: [],
  defaults: {},
  signs: true,
  request(channel, event, at) {
    const body = JSON.stringify(channel.message ? { ...event, message: channel.message } : event);
    // The previous secret is there only while its rotation grace lasts.
    const secrets = [channel.secrets.secret, channel.secrets.previousSecret].filter((s): s is string =>
      Boolean(s),
    );
    return {
      url: text(channel.config.url),
      headers: { ...JSON_TYPE, ...webhookHeaders(secrets, event.id, at, body) },
      body,
    };
  },
});
