import { createHash } from 'node:crypto';
import { z } from 'zod';
import { apiBase, serverApiBase } from './api-base.js';
import { defineConnector, verdictOf } from './connector.js';
import { summarize } from './event-summary.js';
import { HTML, noMentions, PLAIN } from './markup.js';
import { JSON_TYPE, messageSegments, text } from './message-parts.js';
import { fitSegments, utf8Bytes } from './text-fit.js';

/** An event is at most 65,536 bytes: the plain body and the HTML body get 20,000 and 30,000. */
const BODY_BYTES = 20_000;
const HTML_BYTES = 30_000;
/** The plain body with no @room (a room-wide ping, by the push rules, from a page's text). */
const MATRIX_PLAIN = { ...PLAIN, escape: noMentions };

/**
 * Matrix through a bot account's access token (client-server API v3): an `m.text` message with a
 * plain body and an HTML one. The transaction id is the event's and the room's, so a retry after
 * a lost answer is not posted twice.
 */
export const matrix = defineConnector({
  label: 'Matrix',
  shape: {
    apiBaseUrl: serverApiBase('https://matrix-client.matrix.org').describe(
      'The homeserver’s client API base URL, e.g. https://matrix-client.matrix.org',
    ),
    accessToken: z
      .string()
      .regex(/^[\x21-\x7e]{10,1024}$/, 'must be an access token')
      .describe('Write-only: the bot account’s access token'),
    roomId: z
      .string()
      .regex(/^![^:\s]+:\S+$/, 'must be a room id such as !abcdefg:matrix.org (Room settings → Advanced)')
      .describe('The room the bot (a member of it) posts to'),
  },
  secrets: ['accessToken'],
  defaults: {},
  async deliver(channel, event, io) {
    const summary = summarize(event);
    const room = text(channel.config.roomId);
    const txn = `webmon.${event.id}.${createHash('sha256').update(room).digest('hex').slice(0, 16)}`;
    return verdictOf(
      await io.send({
        method: 'PUT',
        url: `${apiBase(channel.config, '')}/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/m.room.message/${encodeURIComponent(txn)}`,
        headers: { ...JSON_TYPE, authorization: `Bearer ${channel.secrets.accessToken ?? ''}` },
        body: JSON.stringify({
          msgtype: 'm.text',
          body: fitSegments(
            messageSegments(channel, event, summary, MATRIX_PLAIN),
            BODY_BYTES,
            '\n',
            utf8Bytes,
          ),
          format: 'org.matrix.custom.html',
          formatted_body: fitSegments(
            messageSegments(channel, event, summary, HTML),
            HTML_BYTES,
            '<br>',
            utf8Bytes,
          ),
        }),
      }),
    );
  },
});
