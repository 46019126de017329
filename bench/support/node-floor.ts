/**
 * The least a Node.js process can spend on a check: a new TCP connection (and TLS handshake, with
 * one shared secure context, verifying the farm's certificate) per check, a hand-written GET, the
 * answer read to its end, the status and keyword checked. No HTTP client library, no storage, no
 * queue. `npm run bench:peers` runs it beside the real systems so that a figure of ours can be read
 * against what Node's own sockets and TLS cost on the same machine.
 *
 * Env: FLOOR_URLS (JSON array), FLOOR_PER_SECOND, FLOOR_CA_FILE.
 */
import { readFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { createSecureContext, connect as tlsConnect } from 'node:tls';

const urls = (JSON.parse(process.env.FLOOR_URLS ?? '[]') as string[]).map((url) => new URL(url));
const perSecond = Number(process.env.FLOOR_PER_SECOND);
const secureContext = createSecureContext({ ca: readFileSync(process.env.FLOOR_CA_FILE ?? '', 'utf8') });
let failures = 0;

function check(url: URL): void {
  const options = { host: url.hostname, port: Number(url.port) };
  const socket: Socket =
    url.protocol === 'https:' ? tlsConnect({ ...options, secureContext }) : netConnect(options);
  socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () =>
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
  );
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('end', () => {
    const answer = Buffer.concat(chunks).toString('utf8');
    if (!answer.startsWith('HTTP/1.1 200') || !answer.includes('Welcome')) failures++;
    socket.destroy();
  });
  socket.on('error', () => failures++);
}

let next = 0;
setInterval(() => check(urls[next++ % urls.length]!), 1000 / perSecond);
setInterval(() => {
  if (failures > 0) console.error(`[node-floor] ${failures} checks failed`);
  failures = 0;
}, 10_000);
