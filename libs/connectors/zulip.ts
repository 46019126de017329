import { z } from 'zod';
import { emailAddress } from '../contract/index.js';
import { jsonOf, toolVerdict } from './answers.js';
import { apiBase, serverApiBase } from './api-base.js';
import { defineConnector } from './connector.js';
import { summarize } from './event-summary.js';
import { ZULIP_MARKDOWN } from './markup.js';
import { FORM_TYPE, form, messageSegments, text } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';

/** Zulip's defaults: a message of up to 10,000 characters, a topic of up to 60. */
const CONTENT_CHARS = 10_000;
const TOPIC_CHARS = 60;

/**
 * Zulip through a bot (`POST /api/v1/messages`, form-encoded, Basic auth with the bot's e-mail and
 * API key): a channel (stream) message, by default in a topic per website.
 */
export const zulip = defineConnector({
  label: 'Zulip',
  shape: {
    apiBaseUrl: serverApiBase('https://agency.zulipchat.com'),
    email: emailAddress().describe('The bot’s e-mail address (Personal settings → Bots)'),
    apiKey: z
      .string()
      .regex(/^[A-Za-z0-9]{20,64}$/, 'must be a Zulip API key')
      .describe('Write-only: the bot’s API key'),
    stream: z.string().trim().min(1).max(60).describe('The channel (stream) the bot posts to'),
    topic: z
      .string()
      .trim()
      .min(1)
      .max(TOPIC_CHARS)
      .nullable()
      .describe('The topic of every message; null: a topic per website, named after it'),
  },
  secrets: ['apiKey'],
  defaults: { topic: null },
  async deliver(channel, event, io) {
    const credentials = Buffer.from(`${text(channel.config.email)}:${channel.secrets.apiKey ?? ''}`).toString(
      'base64',
    );
    const answer = await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, '')}/api/v1/messages`,
      headers: { ...FORM_TYPE, authorization: `Basic ${credentials}` },
      body: form({
        type: 'stream',
        to: text(channel.config.stream),
        topic: cut(text(channel.config.topic) || event.data.website?.name || 'webmon', TOPIC_CHARS),
        content: fitSegments(
          messageSegments(channel, event, summarize(event), ZULIP_MARKDOWN),
          CONTENT_CHARS,
        ),
      }),
    });
    const { result, msg } = jsonOf(answer);
    return toolVerdict(answer, 'Zulip', result === 'success', msg);
  },
});
