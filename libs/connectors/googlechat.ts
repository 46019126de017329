import { requestConnector } from './connector.js';
import { summarize } from './event-summary.js';
import { GOOGLE_CHAT } from './markup.js';
import { alertKey, JSON_TYPE, messageSegments, secretEndpoint } from './message-parts.js';
import { fitSegments } from './text-fit.js';

/** A message is at most 32,000 bytes; 4,096 characters of text stay well within it. */
const TEXT_CHARS = 4096;

/** The webhook URL with the option that puts a message with a thread key in that key's thread. */
function threadedUrl(webhookUrl: string): string {
  if (!URL.canParse(webhookUrl)) return webhookUrl;
  const url = new URL(webhookUrl);
  url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
  return url.toString();
}

/**
 * Google Chat through a space's incoming webhook: a text message in Chat's own syntax, an
 * incident's messages in one thread (its id is the thread key).
 */
export const googlechat = requestConnector({
  label: 'Google Chat',
  shape: {
    webhookUrl: secretEndpoint.describe(
      'Write-only (the URL carries its key and token): the space’s webhook, https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…',
    ),
  },
  secrets: ['webhookUrl'],
  defaults: {},
  request: (channel, event) => ({
    url: threadedUrl(channel.secrets.webhookUrl ?? ''),
    headers: JSON_TYPE,
    body: JSON.stringify({
      text: fitSegments(messageSegments(channel, event, summarize(event), GOOGLE_CHAT), TEXT_CHARS),
      thread: { threadKey: alertKey(event) },
    }),
  }),
});
