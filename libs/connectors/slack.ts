import { z } from 'zod';
import { type EventPayload, isDownEvent, isUpEvent } from '../events/index.js';
import { apiBase, formerApiBase, formerApiBaseProblems, optionalApiBase } from './api-base.js';
import {
  type ConfigProblem,
  type ConnectorIo,
  defineConnector,
  type OpenedChannel,
  verdictOf,
} from './connector.js';
import { type EventSummary, summarize } from './event-summary.js';
import { secretEndpoint, text } from './message-parts.js';
import { cut, fitSegments, type Segment } from './text-fit.js';

const PUBLIC_API = 'https://slack.com/api';

/** Slack mrkdwn treats &, < and > as markup. */
export const slackEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack's limits: a section's text (3,000 characters) and a message's `text` (shown in notifications). */
const SECTION_CHARS = 3000;
const TEXT_CHARS = 4000;

/**
 * The message of an event, the same through a webhook or the Web API: the channel's rendered
 * template (`message`) when it has one, else the title, the website, why, the answer, the links.
 */
export function slackMessage(event: EventPayload, summary: EventSummary, message?: string) {
  const url = event.data.website?.url;
  const segments: Segment[] = message
    ? [{ plain: message, escape: slackEscape }]
    : [
        { plain: summary.title, escape: (title) => `*${slackEscape(title)}*` },
        ...(url ? [{ plain: url, escape: (shown: string) => `<${url}|${slackEscape(shown)}>` }] : []),
        ...(summary.reason ? [{ plain: summary.reason, escape: slackEscape }] : []),
        ...(summary.excerpt
          ? [{ plain: summary.excerpt, escape: (line: string) => `> ${slackEscape(line)}` }]
          : []),
        ...(summary.screenshot ? [`<${summary.screenshot}|Screenshot of the failing step>`] : []),
        ...(summary.link ? [`<${summary.link}|Open the incident>`] : []),
      ];
  return {
    text: cut(message || summary.title, TEXT_CHARS),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: fitSegments(segments, SECTION_CHARS) } }],
  };
}

/** The message that starts an incident's thread: its first down (not a reminder). */
const startsThread = (event: EventPayload) =>
  isDownEvent(event.type) && event.data.reminder !== true && event.data.incident !== null;

function problems(config: Readonly<Record<string, unknown>>): ConfigProblem[] {
  return [
    ...tokenProblems(config),
    ...formerApiBaseProblems(config, 'apiUrl', PUBLIC_API),
    ...(config.signingSecret != null && config.botToken == null
      ? [{ path: 'config.signingSecret', message: 'needs a botToken: replies are read in the bot’s threads' }]
      : []),
  ];
}

function tokenProblems(config: Readonly<Record<string, unknown>>): ConfigProblem[] {
  const webhook = config.webhookUrl != null;
  const bot = config.botToken != null;
  if (webhook === bot)
    return [
      {
        path: webhook ? 'config.botToken' : 'config.webhookUrl',
        message: webhook
          ? 'give a webhookUrl or a botToken, not both'
          : 'give a webhookUrl (incoming webhook) or a botToken and channel (threads per incident)',
      },
    ];
  return bot && config.channel == null
    ? [{ path: 'config.channel', message: 'is required with a botToken (a channel id such as C0123456789)' }]
    : [];
}

/** A Web API method's URL for the channel: its apiBaseUrl, the former apiUrl, or Slack's. */
export const webApiUrl = (channel: OpenedChannel, method: string) =>
  `${apiBase(channel.config, PUBLIC_API, 'apiUrl')}/${method}`;

export const botAuthorization = (channel: OpenedChannel) => `Bearer ${channel.secrets.botToken ?? ''}`;

/** One Web API call: the answer is HTTP 200 either way, `ok` says how it went. */
export async function postMessage(
  channel: OpenedChannel,
  body: Record<string, unknown>,
  send: ConnectorIo['send'],
) {
  const answer = await send({
    method: 'POST',
    url: webApiUrl(channel, 'chat.postMessage'),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      authorization: botAuthorization(channel),
    },
    body: JSON.stringify(body),
  });
  let parsed: { ok?: unknown; ts?: unknown; error?: unknown } = {};
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    // Not Slack's JSON: the problem below says so.
  }
  if (parsed.ok === true) return verdictOf(answer, { externalRef: String(parsed.ts ?? '') || undefined });
  return verdictOf(answer, {
    problem:
      typeof parsed.error === 'string'
        ? `Slack answered ${parsed.error}`
        : 'Slack did not answer with its JSON',
  });
}

/**
 * Slack: through an incoming webhook (the URL is the credential), or through the Web API with a
 * bot token, where an incident's messages (reminders, acknowledgement, recovery) are replies in
 * the thread its first down message started.
 */
export const slack = defineConnector({
  label: 'Slack',
  shape: {
    webhookUrl: secretEndpoint.nullable(),
    botToken: z
      .string()
      .regex(/^xox[bpa]-[A-Za-z0-9-]{10,250}$/, 'must be a Slack bot token (xoxb-…)')
      .nullable()
      .describe('Write-only; with `channel`, messages go through chat.postMessage and incidents thread'),
    channel: z
      .string()
      .regex(/^[A-Za-z0-9#_-]{1,80}$/, 'must be a channel id (C0123456789) or #name')
      .nullable()
      .describe('With botToken: the channel the bot posts to, its id (C0123456789)'),
    apiBaseUrl: optionalApiBase(PUBLIC_API, ' (the Web API, with a botToken)'),
    apiUrl: formerApiBase,
    signingSecret: z
      .string()
      .regex(/^[A-Za-z0-9]{16,128}$/, 'must be the Slack app’s signing secret (Basic Information)')
      .nullable()
      .describe(
        'Write-only; with a botToken: the Slack app’s signing secret, so a reply “ack” in an incident’s thread acknowledges it (docs/channels.md)',
      ),
  },
  secrets: ['webhookUrl', 'botToken', 'signingSecret'],
  defaults: {
    webhookUrl: null,
    botToken: null,
    channel: null,
    apiBaseUrl: null,
    apiUrl: undefined,
    signingSecret: null,
  },
  problems,
  async deliver(channel, event, io) {
    const message = slackMessage(event, summarize(event), channel.message);
    if (channel.secrets.webhookUrl)
      return verdictOf(
        await io.send({
          method: 'POST',
          url: channel.secrets.webhookUrl,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
        }),
      );
    const incident = event.data.incident;
    const thread = incident && !startsThread(event) ? await io.externalRefOf(incident) : null;
    const verdict = await postMessage(
      channel,
      {
        channel: text(channel.config.channel),
        ...message,
        ...(thread ? { thread_ts: thread, reply_broadcast: isUpEvent(event.type) } : {}),
      },
      io.send,
    );
    // Only the thread's first message is the incident's reference.
    return verdict.verdict === 'done' && !startsThread(event)
      ? { ...verdict, externalRef: undefined }
      : verdict;
  },
});
