import { z } from 'zod';
import { apiBase, optionalApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, verdictOf } from './connector.js';
import { JSON_TYPE, notThrough, text } from './message-parts.js';
import { digits, eventText, notANumber, numbersOf, personalText, phoneNumbers, senderId } from './phone.js';

const PUBLIC_API = 'https://rest.messagebird.com';
/** An SMS body: nine concatenated parts of 153 GSM-7 characters. */
const BODY_CHARS = 1377;

/** One message to every recipient at once (`POST /messages`, `Authorization: AccessKey …`): 201. */
async function sendSms(channel: OpenedChannel, recipients: string[], body: string, io: ConnectorIo) {
  return verdictOf(
    await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, PUBLIC_API)}/messages`,
      headers: {
        ...JSON_TYPE,
        accept: 'application/json',
        authorization: `AccessKey ${channel.secrets.accessKey ?? ''}`,
      },
      body: JSON.stringify({
        originator: digits(text(channel.config.originator)),
        recipients: recipients.map(digits),
        body,
      }),
    }),
  );
}

/** MessageBird (Bird) SMS through its REST API's messages resource. */
export const messagebird = defineConnector({
  label: 'MessageBird',
  shape: {
    accessKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{20,64}$/, 'must be a MessageBird access key')
      .describe('Write-only: a live access key (Developers → API access)'),
    originator: senderId().describe(
      'The sender: a number (E.164), or an alphanumeric sender id of up to 11 characters where the destination country allows one',
    ),
    to: phoneNumbers(),
    apiBaseUrl: optionalApiBase(PUBLIC_API),
  },
  secrets: ['accessKey'],
  defaults: { apiBaseUrl: null },
  deliver: (channel, event, io) =>
    sendSms(channel, numbersOf(channel), eventText(channel, event, BODY_CHARS), io),
  reaches: ['sms'],
  async reach(channel, to, message, io) {
    const refused = notANumber(to) ?? notThrough(message, ['sms'], 'MessageBird');
    return refused ?? sendSms(channel, [to], personalText(message, BODY_CHARS), io);
  },
});
