import { z } from 'zod';
import { expectField, isCredentialName } from '../probe-kind.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers the upgrade itself sets: a monitor may not replace them. */
const UPGRADE_HEADERS = new Set([
  'host',
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'content-length',
  'transfer-encoding',
]);

/** A WebSocket check's own fields, each once (create fills the defaults, PATCH takes any). */
export const websocketFields = {
  url: z
    .url({ protocol: /^wss?$/ })
    .max(2048)
    .refine(
      (url) => !new URL(url).username && !new URL(url).password,
      'must not hold a user name or password',
    )
    .refine(
      (url) => ![...new URL(url).searchParams.keys()].some(isCredentialName),
      'must not hold a credential in its query (a token, a key): give it in `query`, where it is sealed',
    )
    .describe('ws:// or wss:// address'),
  query: z
    .record(
      z.string().min(1).max(100),
      z
        .string()
        .max(4000)
        .refine((value) => !/[\r\n\0]/.test(value), 'must be one line'),
    )
    .refine((query) => Object.keys(query).length <= 20, 'at most 20 parameters')
    .describe(
      'Query parameters added to the URL (where WebSocket servers take a token: browsers cannot send headers); credential names (token, key, auth, secret…) are sealed and shown as "(set)"',
    ),
  secrets: z
    .record(
      z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be letters, digits or _'),
      z.string().min(1).max(4000),
    )
    .refine((secrets) => Object.keys(secrets).length <= 10, 'at most 10 secrets')
    .describe(
      'Values `send`, `headers` and `query` use as {{secret.NAME}} (a message that logs in, say): sealed when written, shown as "(set)", blanked in evidence',
    ),
  headers: z
    .record(
      z
        .string()
        .regex(TOKEN, 'must be a header name')
        .refine((name) => !UPGRADE_HEADERS.has(name.toLowerCase()), 'is set by the upgrade itself'),
      z
        .string()
        .max(4000)
        .refine((value) => !/[\r\n\0]/.test(value), 'must be one line'),
    )
    .refine((headers) => Object.keys(headers).length <= 20, 'at most 20 headers')
    .describe('Sent with the upgrade request (credential headers are shown as "(set)")'),
  subprotocol: z
    .string()
    .regex(TOKEN, 'must be a token such as chat.v2')
    .nullable()
    .describe('Asked for; the server must choose it'),
  send: z.string().max(4000).nullable().describe('A text message sent once open'),
  expect: expectField,
};

/** As a check takes them. */
export const websocketSettings = z.strictObject({
  url: websocketFields.url,
  query: websocketFields.query.default({}),
  secrets: websocketFields.secrets.default({}),
  headers: websocketFields.headers.default({}),
  subprotocol: websocketFields.subprotocol.default(null),
  send: websocketFields.send.default(null),
  expect: websocketFields.expect.default(null),
});
export type WebSocketSettings = z.output<typeof websocketSettings>;
