import { z } from 'zod';
import { apiBase, serverApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, verdictOf } from './connector.js';
import { JSON_TYPE, notThrough, text } from './message-parts.js';
import { eventText, notANumber, personalText, phoneNumber } from './phone.js';

/** Signal shows up to 2,000 characters as a message (its apps send longer ones as a file): ours too. */
const MESSAGE_CHARS = 2000;

/** One message from the registered number to the recipients (`POST /v2/send`): 201 with its timestamp. */
async function send(channel: OpenedChannel, recipients: readonly string[], message: string, io: ConnectorIo) {
  return verdictOf(
    await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, '')}/v2/send`,
      headers: JSON_TYPE,
      body: JSON.stringify({ message, number: text(channel.config.number), recipients, text_mode: 'normal' }),
    }),
  );
}

/**
 * Signal through signal-cli REST API (a self-hosted gateway with a registered number): a message
 * to numbers and groups. Reaching one person, `to` is their number.
 */
export const signal = defineConnector({
  label: 'Signal',
  shape: {
    apiBaseUrl: serverApiBase('http://signal-cli-rest-api:8080').describe(
      'Your signal-cli REST API’s base URL, e.g. http://signal-cli:8080 (it has no credential of its own: keep it on a private network, allowed by PROBE_EXEMPT_ADDRESSES)',
    ),
    number: phoneNumber().describe('The number signal-cli is registered with (E.164): the sender'),
    recipients: z
      .array(
        z
          .string()
          .regex(/^(\+[1-9]\d{6,14}|group\.[A-Za-z0-9+/=]{8,200})$/, 'must be an E.164 number or a group id'),
      )
      .min(1)
      .max(20)
      .describe('Numbers (E.164) and group ids (group.…, from GET /v1/groups/{number}) the messages go to'),
  },
  secrets: [],
  defaults: {},
  deliver: (channel, event, io) =>
    send(
      channel,
      Array.isArray(channel.config.recipients) ? channel.config.recipients : [],
      eventText(channel, event, MESSAGE_CHARS),
      io,
    ),
  reaches: ['sms'],
  async reach(channel, to, message, io) {
    const refused = notANumber(to) ?? notThrough(message, ['sms'], 'Signal');
    return refused ?? send(channel, [to], personalText(message, MESSAGE_CHARS), io);
  },
});
