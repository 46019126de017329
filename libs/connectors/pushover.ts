import { z } from 'zod';
import { jsonOf, toolVerdict } from './answers.js';
import { apiBase, optionalApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import { PLAIN } from './markup.js';
import { FORM_TYPE, form, messageSegments, notThrough, text } from './message-parts.js';
import { personalText } from './phone.js';
import { cut, fitSegments } from './text-fit.js';

const PUBLIC_API = 'https://api.pushover.net';
/** Pushover's limits: message 1,024 characters, title 250, supplementary URL 512, its title 100. */
const MESSAGE_CHARS = 1024;
const TITLE_CHARS = 250;
const URL_CHARS = 512;
const KEY = /^[A-Za-z0-9]{30}$/;

/** Pushover's priorities: 1 high (bypasses quiet hours), 0 normal. */
const PRIORITY: Record<Severity, number> = { critical: 1, error: 1, warning: 0, info: 0 };

/** A supplementary URL when it fits Pushover's field (else the text's link line is all there is). */
const supplementary = (url: string | null | undefined, title: string) =>
  url && url.length <= URL_CHARS ? { url, url_title: title } : {};

/** One message (`POST /1/messages.json`, form-encoded): Pushover says `status: 1` when it took it. */
async function send(
  channel: OpenedChannel,
  fields: Record<string, string | number | undefined>,
  io: ConnectorIo,
) {
  const answer = await io.send({
    method: 'POST',
    url: `${apiBase(channel.config, PUBLIC_API)}/1/messages.json`,
    headers: { ...FORM_TYPE, accept: 'application/json' },
    body: form({
      token: channel.secrets.apiToken ?? '',
      device: text(channel.config.device) || undefined,
      ...fields,
    }),
  });
  const { status, errors } = jsonOf(answer);
  return toolVerdict(answer, 'Pushover', status === 1, Array.isArray(errors) ? errors.join('; ') : undefined);
}

/**
 * Pushover: a notification to a user's or group's devices, high priority for outages, opening the
 * incident from its link. Reaching one person, `to` is their user key and the link acknowledges.
 */
export const pushover = defineConnector({
  label: 'Pushover',
  shape: {
    apiToken: z
      .string()
      .regex(KEY, 'must be an application token (30 letters and digits)')
      .describe('Write-only: your Pushover application’s API token'),
    userKey: z
      .string()
      .regex(KEY, 'must be a user or group key (30 letters and digits)')
      .describe('The user or group key the notifications go to'),
    device: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,25}(,[A-Za-z0-9_-]{1,25})*$/, 'must be device names separated by commas')
      .nullable()
      .describe('Only these devices (names, comma separated); null: all of them'),
    apiBaseUrl: optionalApiBase(PUBLIC_API),
  },
  secrets: ['apiToken'],
  defaults: { device: null, apiBaseUrl: null },
  deliver(channel, event, io) {
    const summary = summarize(event);
    return send(
      channel,
      {
        user: text(channel.config.userKey),
        title: cut(summary.title, TITLE_CHARS),
        message: fitSegments(
          messageSegments(channel, event, summary, PLAIN, { title: false }),
          MESSAGE_CHARS,
        ),
        priority: PRIORITY[summary.severity],
        timestamp: Math.floor(Date.parse(event.createdAt) / 1000),
        ...supplementary(summary.link, 'Open the incident'),
      },
      io,
    );
  },
  reaches: ['push'],
  async reach(channel, to, message, io) {
    if (!KEY.test(to)) return { verdict: 'skipped', reason: 'the address is not a Pushover user key' };
    return (
      notThrough(message, ['push'], 'Pushover') ??
      send(
        channel,
        {
          user: to,
          title: cut(message.title, TITLE_CHARS),
          // A link too long for the supplementary URL goes at the text's end.
          message:
            (message.ackUrl?.length ?? 0) > URL_CHARS
              ? personalText(message, MESSAGE_CHARS)
              : cut(message.text, MESSAGE_CHARS),
          priority: message.ackUrl ? 1 : 0,
          ...supplementary(message.ackUrl, 'Acknowledge'),
        },
        io,
      )
    );
  },
});
