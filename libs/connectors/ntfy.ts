import { z } from 'zod';
import { apiBase, optionalApiBase } from './api-base.js';
import {
  type ConfigProblem,
  type ConnectorIo,
  defineConnector,
  type OpenedChannel,
  verdictOf,
} from './connector.js';
import { type EventSummary, type Severity, summarize } from './event-summary.js';
import { PLAIN } from './markup.js';
import { JSON_TYPE, messageSegments, notThrough, text } from './message-parts.js';
import { cut, fitSegments, utf8Bytes } from './text-fit.js';

const PUBLIC_API = 'https://ntfy.sh';
/** ntfy keeps a message of up to 4,096 bytes as text (longer ones become an attachment). */
const MESSAGE_BYTES = 4096;
const TITLE_CHARS = 250;
const TOPIC = /^[A-Za-z0-9_-]{1,64}$/;

/** ntfy's priorities: 5 max (a long vibration), 4 high, 3 default. */
const PRIORITY: Record<Severity, number> = { critical: 5, error: 4, warning: 4, info: 3 };
const tagOf = (summary: EventSummary) =>
  summary.recovery
    ? 'white_check_mark'
    : summary.severity === 'info'
      ? 'information_source'
      : summary.severity === 'warning'
        ? 'warning'
        : 'rotating_light';

/** A protected topic's credentials: an access token (Bearer), or a user and password (Basic). */
function authorization(channel: OpenedChannel): Record<string, string> {
  if (channel.secrets.accessToken) return { authorization: `Bearer ${channel.secrets.accessToken}` };
  if (channel.secrets.password)
    return {
      authorization: `Basic ${Buffer.from(`${text(channel.config.username)}:${channel.secrets.password}`).toString('base64')}`,
    };
  return {};
}

function problems(config: Readonly<Record<string, unknown>>): ConfigProblem[] {
  if (config.password != null && config.username == null)
    return [{ path: 'config.username', message: 'is required with a password' }];
  if (config.password != null && config.accessToken != null)
    return [{ path: 'config.password', message: 'give an accessToken or a username and password, not both' }];
  return [];
}

/** One message published as JSON to the server's root URL (the topic in the body). */
async function publish(channel: OpenedChannel, body: Record<string, unknown>, io: ConnectorIo) {
  return verdictOf(
    await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, PUBLIC_API)}/`,
      headers: { ...JSON_TYPE, ...authorization(channel) },
      body: JSON.stringify(body),
    }),
  );
}

/**
 * ntfy (ntfy.sh or a server of your own): a push to a topic's subscribers, published as JSON, with
 * its priority and an emoji by severity, opening the incident when tapped. Reaching one person,
 * `to` is their own topic and the push's button acknowledges.
 */
export const ntfy = defineConnector({
  label: 'ntfy',
  shape: {
    apiBaseUrl: optionalApiBase(PUBLIC_API, ' (or your own ntfy server)'),
    topic: z
      .string()
      .regex(TOPIC, 'must be a topic name: letters, digits, _ and -')
      .describe(
        'The topic phones subscribe to; on ntfy.sh whoever knows it reads it: pick one hard to guess',
      ),
    accessToken: z
      .string()
      .regex(/^tk_[A-Za-z0-9]{10,64}$/, 'must be an ntfy access token (tk_…)')
      .nullable()
      .describe('Write-only: an access token (tk_…) for a protected topic'),
    username: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .nullable()
      .describe('With password: a user of a protected topic'),
    password: z.string().min(1).max(256).nullable().describe('Write-only: the user’s password'),
  },
  secrets: ['accessToken', 'password'],
  defaults: { apiBaseUrl: null, accessToken: null, username: null, password: null },
  problems,
  deliver(channel, event, io) {
    const summary = summarize(event);
    const links = [
      summary.link ? { action: 'view', label: 'Open the incident', url: summary.link } : null,
      summary.screenshot ? { action: 'view', label: 'Screenshot', url: summary.screenshot } : null,
    ].filter(Boolean);
    return publish(
      channel,
      {
        topic: text(channel.config.topic),
        title: cut(summary.title, TITLE_CHARS),
        message: fitSegments(
          messageSegments(channel, event, summary, PLAIN, { title: false }),
          MESSAGE_BYTES,
          '\n',
          utf8Bytes,
        ),
        priority: PRIORITY[summary.severity],
        tags: [tagOf(summary)],
        ...(summary.link ? { click: summary.link } : {}),
        ...(links.length > 0 ? { actions: links } : {}),
      },
      io,
    );
  },
  reaches: ['push'],
  async reach(channel, to, message, io) {
    if (!TOPIC.test(to)) return { verdict: 'skipped', reason: 'the address is not an ntfy topic' };
    const refused = notThrough(message, ['push'], 'ntfy');
    if (refused) return refused;
    const { ackUrl } = message;
    return publish(
      channel,
      {
        topic: to,
        title: cut(message.title, TITLE_CHARS),
        message: fitSegments([{ plain: message.text }], MESSAGE_BYTES, '\n', utf8Bytes),
        priority: ackUrl ? 5 : 3,
        ...(ackUrl
          ? { click: ackUrl, actions: [{ action: 'view', label: 'Acknowledge', url: ackUrl, clear: true }] }
          : {}),
      },
      io,
    );
  },
});
