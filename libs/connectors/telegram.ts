import { z } from 'zod';
import { isDownEvent } from '../events/index.js';
import { jsonOf, toolVerdict } from './answers.js';
import { apiBase, optionalApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, type Verdict } from './connector.js';
import { summarize } from './event-summary.js';
import { escapeHtml, HTML } from './markup.js';
import { JSON_TYPE, messageSegments, notThrough, text } from './message-parts.js';
import { fitSegments } from './text-fit.js';

const PUBLIC_API = 'https://api.telegram.org';
/** sendMessage's text: 1–4,096 characters after entities parsing (the HTML counted whole, to be sure). */
const TEXT_CHARS = 4096;
const CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

/** One sendMessage call (HTML parse mode, no link previews); Telegram says in `ok` how it went. */
async function sendMessage(
  channel: OpenedChannel,
  body: Record<string, unknown>,
  io: ConnectorIo,
): Promise<Verdict> {
  const answer = await io.send({
    method: 'POST',
    url: `${apiBase(channel.config, PUBLIC_API)}/bot${channel.secrets.botToken ?? ''}/sendMessage`,
    headers: JSON_TYPE,
    body: JSON.stringify({ parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...body }),
  });
  const { ok, result, description } = jsonOf(answer) as {
    ok?: unknown;
    result?: { message_id?: unknown };
    description?: unknown;
  };
  return toolVerdict(
    answer,
    'Telegram',
    ok === true,
    description,
    String(result?.message_id ?? '') || undefined,
  );
}

/**
 * Telegram through a bot (Bot API sendMessage, HTML): an incident's first down message is its
 * reference, and its later messages reply to it. Reaching one person, `to` is their chat id.
 */
export const telegram = defineConnector({
  label: 'Telegram',
  shape: {
    botToken: z
      .string()
      .regex(/^\d{5,20}:[A-Za-z0-9_-]{30,64}$/, 'must be a bot token from @BotFather (123456789:AA…)')
      .describe('Write-only: the bot’s token, from @BotFather'),
    chatId: z
      .string()
      .regex(CHAT, 'must be a chat id (-1001234567890) or a channel’s @username')
      .describe('The chat, group or channel the bot posts to: its id (-1001234567890) or @username'),
    messageThreadId: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe('A forum topic’s id in a supergroup; null: the chat itself'),
    apiBaseUrl: optionalApiBase(PUBLIC_API, ' (or your own Bot API server)'),
  },
  secrets: ['botToken'],
  defaults: { messageThreadId: null, apiBaseUrl: null },
  async deliver(channel, event, io) {
    const incident = event.data.incident;
    const starts = isDownEvent(event.type) && event.data.reminder !== true;
    const thread = incident && !starts ? Number(await io.externalRefOf(incident)) : Number.NaN;
    const verdict = await sendMessage(
      channel,
      {
        chat_id: text(channel.config.chatId),
        ...(typeof channel.config.messageThreadId === 'number'
          ? { message_thread_id: channel.config.messageThreadId }
          : {}),
        text: fitSegments(messageSegments(channel, event, summarize(event), HTML), TEXT_CHARS),
        ...(Number.isSafeInteger(thread)
          ? { reply_parameters: { message_id: thread, allow_sending_without_reply: true } }
          : {}),
      },
      io,
    );
    // Only an incident's first message is its reference (the one later messages reply to).
    return verdict.verdict === 'done' && !starts ? { ...verdict, externalRef: undefined } : verdict;
  },
  reaches: ['push'],
  async reach(channel, to, message, io) {
    if (!CHAT.test(to)) return { verdict: 'skipped', reason: 'the address is not a Telegram chat id' };
    const refused = notThrough(message, ['push'], 'Telegram');
    if (refused) return refused;
    const segments = [
      { plain: message.title, escape: (title: string) => `<b>${escapeHtml(title)}</b>` },
      { plain: message.text, escape: escapeHtml },
      ...(message.ackUrl ? [HTML.link(message.ackUrl, 'Acknowledge')] : []),
    ];
    return sendMessage(channel, { chat_id: to, text: fitSegments(segments, TEXT_CHARS) }, io);
  },
});
