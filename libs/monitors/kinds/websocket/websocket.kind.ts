import { z } from 'zod';
import { probeWebSocket, type WebSocketObservation } from '../../../probe/index.js';
import { certificateCheck, downVerdict, type MonitorVerdict, verdictWithCertificate } from '../../verdict.js';
import {
  certificateEvidence,
  defineProbeKind,
  expectField,
  expectProblem,
  isCredentialName,
  keptText,
} from '../probe-kind.js';

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

const fields = {
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

const settings = z.strictObject({
  url: fields.url,
  query: fields.query.default({}),
  secrets: fields.secrets.default({}),
  headers: fields.headers.default({}),
  subprotocol: fields.subprotocol.default(null),
  send: fields.send.default(null),
  expect: fields.expect.default(null),
});
type WebSocketSettings = z.output<typeof settings>;

/** The URL with the query parameters given apart (sealed ones opened) added to its own. */
function withQuery(url: string, query: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query)) parsed.searchParams.set(name, value);
  return parsed.href;
}

/** Opened (with the subprotocol asked) is up; a reply that misses `expect`, a refused upgrade or a bad certificate down. */
export function websocketVerdict(
  s: WebSocketSettings,
  seen: WebSocketObservation,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): MonitorVerdict {
  const ssl = new URL(s.url).protocol === 'wss:' ? certificateCheck(seen.tls, alerting, now) : null;
  const problem = seen.error ? null : expectProblem(s.expect, seen.reply ?? '');
  return verdictWithCertificate(seen.error, ssl, problem ? downVerdict('UNEXPECTED_REPLY', problem) : null);
}

export const websocketKind = defineProbeKind({
  kind: 'websocket',
  noun: 'WebSocket check',
  feature: 'websocketChecks',
  limit: 'maxWebsocketChecksPerWebsite',
  lane: 'fast',
  description:
    'A WebSocket opened as a browser opens it (ws or wss; the certificate judged as for HTTPS), with `headers` and the `subprotocol` the server must choose; then, with `send` or `expect`, a message sent and the first one back read and matched ({contains} or an RE2 {matches}). A token the server takes in the URL goes in `query` and a value the message carries in `secrets` (used as {{secret.NAME}}): sealed, shown as "(set)", blanked in evidence; a credential in the URL itself is refused. Package feature `websocketChecks`, limit `maxWebsocketChecksPerWebsite`.',
  sealedRecords: ['headers', 'query', 'secrets'],
  secretRecords: ['secrets'],
  fields,
  settings,
  hostOf: (s) => new URL(s.url).hostname.replace(/^\[|\]$/g, ''),
  defaultName: (s) =>
    `WebSocket ${new URL(s.url).host}${new URL(s.url).pathname === '/' ? '' : new URL(s.url).pathname}`,
  probe: (s, context) =>
    probeWebSocket(
      {
        url: withQuery(s.url, s.query),
        headers: s.headers,
        subprotocol: s.subprotocol,
        send: s.send,
        awaitReply: s.send !== null || s.expect !== null,
        timeoutMs: context.timeoutMs,
      },
      context.probe,
    ),
  verdict: (s, seen, context, now) => websocketVerdict(s, seen, context.alerting, now),
  evidence: (seen) => ({
    httpStatus: seen.httpStatus,
    protocol: seen.protocol,
    reply: seen.reply === null ? null : keptText(seen.reply, 500),
    certificate: certificateEvidence(seen.tls, seen.startedAt),
    ...(seen.error ? { error: seen.error } : {}),
  }),
  timings: (seen) => seen.timings,
  tls: (seen) => seen.tls,
});
