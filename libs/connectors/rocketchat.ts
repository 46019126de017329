import { z } from 'zod';
import { markdownWebhook } from './incoming-webhook.js';
import { ROCKETCHAT_MARKDOWN } from './markup.js';

/** Rocket.Chat through an incoming webhook: its Markdown, within a message's 5,000 characters (its default). */
export const rocketchat = markdownWebhook({
  label: 'Rocket.Chat',
  urlDescription: 'Write-only (the URL is the credential): the incoming webhook, https://…/hooks/…/…',
  channel: z
    .string()
    .regex(/^[#@][A-Za-z0-9._-]{1,64}$/, 'must be #channel or @username')
    .describe('Post to this #channel or @user instead of the webhook’s; null: the webhook’s'),
  markup: ROCKETCHAT_MARKDOWN,
  maxChars: 5000,
});
