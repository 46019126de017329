import { z } from 'zod';
import { markdownWebhook } from './incoming-webhook.js';
import { COMMONMARK } from './markup.js';

/** Mattermost through an incoming webhook: Markdown, within a post's 16,383 characters. */
export const mattermost = markdownWebhook({
  label: 'Mattermost',
  urlDescription: 'Write-only (the URL is the credential): the incoming webhook, https://…/hooks/…',
  channel: z
    .string()
    .regex(/^(@?[a-z0-9][a-z0-9._-]{0,63})$/, 'must be a channel’s name (town-square) or @username')
    .describe(
      'Post to this channel (its name) or user (@username) instead of the webhook’s; null: the webhook’s',
    ),
  markup: COMMONMARK,
  maxChars: 16_383,
});
