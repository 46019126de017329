// Slack's Events API, as far as acknowledging from an incident's thread needs it: Slack's signature,
// the envelopes it posts, what counts as "ack", and the Web API's users.info. Pure: no I/O here.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { OpenedChannel } from './connector.js';
import type { HttpAnswer, HttpCall } from './guarded-http.js';
import { botAuthorization, slackEscape, webApiUrl } from './slack.js';

/** How far a request's timestamp may be from now: Slack's advice, so a captured request cannot be replayed later. */
export const SLACK_MAX_SKEW_SECONDS = 300;

/** `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}` under the app's signing secret. */
export function slackSignature(secret: string, timestamp: string, body: Buffer | string): string {
  const hmac = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body);
  return `v0=${hmac.digest('hex')}`;
}

/**
 * Why a request is not Slack's (null: it is): its signature made with the signing secret over its
 * timestamp and raw body, compared in constant time, and the timestamp within 5 minutes of `now`.
 */
export function slackSignatureProblem(request: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Buffer;
  now: Date;
}): string | null {
  const { timestamp, signature } = request;
  if (!timestamp || !signature) return 'X-Slack-Request-Timestamp and X-Slack-Signature are required';
  if (!/^\d{1,12}$/.test(timestamp)) return 'X-Slack-Request-Timestamp is not a time in seconds';
  if (Math.abs(request.now.getTime() / 1000 - Number(timestamp)) > SLACK_MAX_SKEW_SECONDS)
    return 'X-Slack-Request-Timestamp is more than 5 minutes away: a replay, or a clock that is off';
  const expected = Buffer.from(slackSignature(request.secret, timestamp, request.body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return 'X-Slack-Signature does not match the channel’s signing secret';
  return null;
}

/** A message posted in reply to a thread (Slack's `message` event with `thread_ts`). */
export interface ThreadReply {
  /** The delivery's id: Slack sends it again, with the same id, when it did not see our answer. */
  eventId: string;
  /** The Slack channel's id (C…, G…). */
  channel: string;
  /** The Slack user's id (U…, W…). */
  user: string;
  text: string;
  /** The thread's first message: what our delivery of the incident's down event recorded. */
  threadTs: string;
}

export type SlackRequest =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'reply'; reply: ThreadReply }
  | { kind: 'ignored'; why: string };

const slackTs = z.string().regex(/^\d{1,12}\.\d{1,9}$/);
const messageEvent = z.object({
  type: z.string(),
  subtype: z.string().optional(),
  bot_id: z.string().nullish(),
  user: z.string().max(40).optional(),
  text: z.string().optional(),
  ts: slackTs.optional(),
  thread_ts: slackTs.optional(),
  channel: z.string().max(40).optional(),
});
const envelope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: z.string().max(1000) }),
  z.object({ type: z.literal('event_callback'), event_id: z.string().max(100), event: messageEvent }),
]);

/**
 * What Slack's request asks of us: to answer its URL check, to read a reply in a thread, or nothing
 * (another event, a bot's message, an edit or deletion, the thread's first message itself).
 */
export function parseSlackRequest(body: Buffer): SlackRequest {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { kind: 'ignored', why: 'not JSON' };
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) return { kind: 'ignored', why: 'not an event this endpoint reads' };
  const request = parsed.data;
  if (request.type === 'url_verification') return { kind: 'challenge', challenge: request.challenge };
  const { event } = request;
  if (event.type !== 'message' || event.subtype !== undefined || event.bot_id)
    return { kind: 'ignored', why: 'not a person’s new message' };
  if (!event.thread_ts || event.thread_ts === event.ts || !event.user || !event.channel)
    return { kind: 'ignored', why: 'not a reply in a thread' };
  return {
    kind: 'reply',
    reply: {
      eventId: request.event_id,
      channel: event.channel,
      user: event.user,
      text: event.text ?? '',
      threadTs: event.thread_ts,
    },
  };
}

/** Mentions first (`<@U0123> ack`), then one of the words, alone or followed by a remark ("ack, on my way"). */
const ACK_TEXT = /^(?:<@[A-Z0-9]+(?:\|[^>]*)?>[\s,:]*)*(?:ack|acknowledged?|on it)(?:$|[\s,.:;!\-–—])/i;

/** Whether a reply says its author takes the incident: "ack", "acknowledge(d)" or "on it". */
export const saysAck = (text: string): boolean => ACK_TEXT.test(text.trim());

/** users.info for the Slack user: their profile's e-mail needs the users:read.email scope. */
export function usersInfoCall(channel: OpenedChannel, user: string): HttpCall {
  return {
    method: 'GET',
    url: `${webApiUrl(channel, 'users.info')}?user=${encodeURIComponent(user)}`,
    headers: { authorization: botAuthorization(channel) },
  };
}

const usersInfoAnswer = z.object({
  ok: z.literal(true),
  user: z.object({
    name: z.string().optional(),
    real_name: z.string().optional(),
    profile: z.object({ email: z.string().optional(), real_name: z.string().optional() }).optional(),
  }),
});

/** The Slack user's e-mail (null: Slack did not give it, the scope is missing), or why it was not read. */
export function slackUserOf(answer: HttpAnswer): { email: string | null } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return { problem: `Slack's users.info answered HTTP ${answer.status} without its JSON` };
  }
  const parsed = usersInfoAnswer.safeParse(json);
  if (!parsed.success) {
    const error = (json as { error?: unknown } | null)?.error;
    return { problem: `Slack's users.info answered ${typeof error === 'string' ? error : 'otherwise'}` };
  }
  return { email: parsed.data.user.profile?.email ?? null };
}

/** What the thread is told, in Slack's markup (names and addresses escaped). */
export const threadReplies = {
  acknowledged: (name: string) => `Acknowledged by ${slackEscape(name)}: escalation stopped`,
  noAccount: (user: string, email: string) =>
    `<@${user}> nothing was acknowledged: no one in this webmon organization has the e-mail address of your Slack profile, ${slackEscape(email)}. Ask an admin to invite ${slackEscape(email)} (or to change your webmon e-mail to it), then reply “ack” again.`,
  clientUser: (user: string) =>
    `<@${user}> nothing was acknowledged: your webmon account is a client’s; only the agency’s people acknowledge incidents.`,
  noEmail: (user: string) =>
    `<@${user}> nothing was acknowledged: Slack did not tell your e-mail address (the Slack app needs the users:read.email scope). Acknowledge in webmon.`,
  refused: (user: string, why: string) => `<@${user}> nothing was acknowledged: ${slackEscape(why)}`,
};
