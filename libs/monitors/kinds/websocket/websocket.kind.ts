import { probeWebSocket } from '../../../probe/index.js';
import { certificateEvidence, defineProbeKind, keptText } from '../probe-kind.js';
import { websocketFields, websocketSettings } from './websocket.schema.js';
import { websocketVerdict } from './websocket.verdict.js';

/** The URL with the query parameters given apart (sealed ones opened) added to its own. */
function withQuery(url: string, query: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query)) parsed.searchParams.set(name, value);
  return parsed.href;
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
  fields: websocketFields,
  settings: websocketSettings,
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
