import { z } from 'zod';
import type { EventPayload } from '../events/index.js';
import { apiBase, optionalApiBase } from './api-base.js';
import {
  type ConnectorIo,
  defineConnector,
  type OpenedChannel,
  type PersonalMessage,
  verdictOf,
} from './connector.js';
import { summarize } from './event-summary.js';
import { escapeXml } from './markup.js';
import { FORM_TYPE, form, notThrough, text } from './message-parts.js';
import {
  eventText,
  notANumber,
  numbersOf,
  personalText,
  phoneNumber,
  phoneNumbers,
  toEach,
} from './phone.js';
import { fitEscaped } from './text-fit.js';

const PUBLIC_API = 'https://api.twilio.com';
/** A message's Body: Twilio takes up to 1,600 characters (it splits them into segments). */
const BODY_CHARS = 1600;
/** A call's inline TwiML: up to 4,000 characters. */
const TWIML_CHARS = 4000;

/** A call that reads `spoken` out; with `ackUrl`, a keypress of 1 posts to it (the alert is acknowledged). */
export function twiml(spoken: string, ackUrl?: string): string {
  const after = ackUrl
    ? `</Say><Gather numDigits="1" action="${escapeXml(ackUrl)}" method="POST"><Say>Press 1 to acknowledge this alert.</Say></Gather><Say>No key was pressed. Goodbye.</Say></Response>`
    : '</Say></Response>';
  const before = '<Response><Say>';
  return `${before}${fitEscaped(spoken, TWIML_CHARS - before.length - after.length, escapeXml)}${after}`;
}

/** What a call about an event says: the template's text, else the title and why (no links: they are read badly). */
function spokenOf(channel: OpenedChannel, event: EventPayload): string {
  const summary = summarize(event);
  return channel.message || [summary.title, summary.reason].filter(Boolean).join('. ');
}

/** One call to the REST API (form-encoded, Basic auth with the account SID and auth token). */
async function post(
  channel: OpenedChannel,
  resource: 'Messages' | 'Calls',
  fields: Record<string, string>,
  io: ConnectorIo,
) {
  const sid = text(channel.config.accountSid);
  const credentials = Buffer.from(`${sid}:${channel.secrets.authToken ?? ''}`).toString('base64');
  return verdictOf(
    await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, PUBLIC_API)}/2010-04-01/Accounts/${encodeURIComponent(sid)}/${resource}.json`,
      headers: { ...FORM_TYPE, authorization: `Basic ${credentials}`, accept: 'application/json' },
      body: form({ To: fields.To, From: text(channel.config.from), ...fields }),
    }),
  );
}

/**
 * Twilio: an SMS through Messages.json, or a call through Calls.json reading the alert out (inline
 * TwiML); reaching one person, a call asks for a keypress of 1 to acknowledge.
 */
export const twilio = defineConnector({
  label: 'Twilio',
  shape: {
    accountSid: z
      .string()
      .regex(/^AC[0-9a-f]{32}$/, 'must be an account SID (AC and 32 hexadecimal digits)')
      .describe('The account SID (AC…), on the Twilio console’s dashboard'),
    authToken: z
      .string()
      .regex(/^[0-9a-f]{32}$/, 'must be an auth token (32 hexadecimal digits)')
      .describe('Write-only: the account’s auth token'),
    from: phoneNumber().describe('A number of the account (E.164) the messages and calls come from'),
    to: phoneNumbers(),
    call: z.boolean().describe('Call the numbers and read the alert out instead of sending an SMS'),
    apiBaseUrl: optionalApiBase(PUBLIC_API),
  },
  secrets: ['authToken'],
  defaults: { call: false, apiBaseUrl: null },
  async deliver(channel, event, io) {
    const fields: Record<string, string> =
      channel.config.call === true
        ? { Twiml: twiml(spokenOf(channel, event)) }
        : { Body: eventText(channel, event, BODY_CHARS) };
    return toEach(numbersOf(channel), (to) =>
      post(channel, channel.config.call === true ? 'Calls' : 'Messages', { To: to, ...fields }, io),
    );
  },
  reaches: ['sms', 'voice'],
  async reach(channel, to, message: PersonalMessage, io) {
    const refused = notANumber(to) ?? notThrough(message, ['sms', 'voice'], 'Twilio');
    if (refused) return refused;
    if (message.medium === 'voice')
      return post(
        channel,
        'Calls',
        { To: to, Twiml: twiml(message.spoken ?? message.text, message.ackUrl) },
        io,
      );
    return post(channel, 'Messages', { To: to, Body: personalText(message, BODY_CHARS) }, io);
  },
});
