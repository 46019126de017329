import { z } from 'zod';
import { apiBase, optionalApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, verdictOf } from './connector.js';
import { JSON_TYPE, notThrough, text } from './message-parts.js';
import {
  digits,
  eventText,
  notANumber,
  numbersOf,
  personalText,
  phoneNumbers,
  senderId,
  toEach,
} from './phone.js';

const PUBLIC_API = 'https://api.nexmo.com';
/** The Messages API takes an SMS text of up to 1,000 characters. */
const TEXT_CHARS = 1000;

/** One SMS through the Messages API (v1), Basic auth with the API key and secret: 202 and its message_uuid. */
async function sendSms(channel: OpenedChannel, to: string, textOfSms: string, io: ConnectorIo) {
  const key = text(channel.config.apiKey);
  const credentials = Buffer.from(`${key}:${channel.secrets.apiSecret ?? ''}`).toString('base64');
  const from = text(channel.config.from);
  return verdictOf(
    await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, PUBLIC_API)}/v1/messages`,
      headers: { ...JSON_TYPE, accept: 'application/json', authorization: `Basic ${credentials}` },
      body: JSON.stringify({
        message_type: 'text',
        channel: 'sms',
        to: digits(to),
        from: digits(from),
        text: textOfSms,
      }),
    }),
  );
}

/**
 * Vonage SMS through the Messages API (`POST /v1/messages`): Vonage's current API (the SMS API is
 * its legacy one), answering with HTTP statuses that say how it went (202 accepted, 401, 422, 429)
 * where the SMS API answers 200 with a status inside, and with the same API key and secret.
 */
export const vonage = defineConnector({
  label: 'Vonage',
  shape: {
    apiKey: z
      .string()
      .regex(/^[A-Za-z0-9]{6,32}$/, 'must be a Vonage API key')
      .describe('The account’s API key, on the Vonage dashboard'),
    apiSecret: z
      .string()
      .regex(/^[A-Za-z0-9]{6,64}$/, 'must be a Vonage API secret')
      .describe('Write-only: the account’s API secret'),
    from: senderId().describe(
      'The sender: a Vonage number (E.164), or an alphanumeric sender id where the destination country allows one',
    ),
    to: phoneNumbers(),
    apiBaseUrl: optionalApiBase(PUBLIC_API),
  },
  secrets: ['apiSecret'],
  defaults: { apiBaseUrl: null },
  deliver: (channel, event, io) => {
    const message = eventText(channel, event, TEXT_CHARS);
    return toEach(numbersOf(channel), (to) => sendSms(channel, to, message, io));
  },
  reaches: ['sms'],
  async reach(channel, to, message, io) {
    const refused = notANumber(to) ?? notThrough(message, ['sms'], 'Vonage');
    return refused ?? sendSms(channel, to, personalText(message, TEXT_CHARS), io);
  },
});
