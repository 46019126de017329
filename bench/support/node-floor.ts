/**
 * The least a Node.js process can spend on a check: a new TCP connection (and TLS handshake, with
 * one shared secure context, verifying the farm's certificate chain and its address) per check, a hand-written GET, the
 * answer read to its end, the status and keyword checked. No HTTP client library, no queue. `npm run
 * bench:peers` runs it beside the real systems so that a figure of ours can be read against what
 * Node's own sockets and TLS cost on the same machine.
 *
 * With FLOOR_MONGODB_URL (`node-floor-stored`) it also stores each check's result, a document of
 * the fields ours has (timings, checks, the certificate's dates over HTTPS), with the official
 * driver in one insertMany every 100 ms, as our worker batches them: the least a Node.js checker
 * that keeps every result durably can spend.
 *
 * Env: FLOOR_URLS (JSON array), FLOOR_PER_SECOND, FLOOR_CA_FILE, FLOOR_MONGODB_URL.
 */
import { readFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { type Document, MongoClient, ObjectId } from 'mongodb';

const urls = (JSON.parse(process.env.FLOOR_URLS ?? '[]') as string[]).map((url) => new URL(url));
const perSecond = Number(process.env.FLOOR_PER_SECOND);
const secureContext = createSecureContext({ ca: readFileSync(process.env.FLOOR_CA_FILE ?? '', 'utf8') });
let failures = 0;

const mongo = process.env.FLOOR_MONGODB_URL ? new MongoClient(process.env.FLOOR_MONGODB_URL) : null;
const results = mongo?.db().collection('check_results');
let batch: Document[] = [];
if (results)
  setInterval(() => {
    if (batch.length === 0) return;
    const documents = batch;
    batch = [];
    results.insertMany(documents, { ordered: false }).catch(() => {
      failures += documents.length;
    });
  }, 100);

function store(
  url: URL,
  index: number,
  started: number,
  answer: string,
  socket: Socket,
  marks: number[],
): void {
  const [connected = started, firstByte = started] = marks;
  const certificate = url.protocol === 'https:' ? (socket as TLSSocket).getPeerX509Certificate() : undefined;
  const ok = answer.startsWith('HTTP/1.1 200');
  const found = answer.includes('Welcome');
  const total = performance.now() - started;
  batch.push({
    _id: new ObjectId(),
    organizationId: 1,
    websiteId: index,
    region: 'floor',
    nodeId: 'floor',
    startedAt: new Date(Date.now() - total),
    status: ok && found ? 'up' : 'down',
    inMaintenance: false,
    httpStatus: Number(answer.slice(9, 12)),
    sizeBytes: answer.length,
    truncated: false,
    timings: { dns: 0, connect: connected - started, tls: 0, ttfb: firstByte - connected, total },
    redirects: [],
    error: null,
    checks: [
      { name: 'status', ok, detail: answer.slice(9, 12) },
      { name: 'keyword', ok: found, detail: found ? 'found' : 'missing' },
      { name: 'responseTime', ok: total < 5000, detail: `${Math.round(total)} ms` },
    ],
    ssl: certificate
      ? {
          validFrom: new Date(certificate.validFrom),
          validTo: new Date(certificate.validTo),
          issuer: certificate.issuer,
        }
      : null,
    retainUntil: new Date(Date.now() + 30 * 86_400_000),
  });
}

const skipped = (() => ({})) as unknown as TLSSocket['getPeerCertificate'];

function check(index: number): void {
  const url = urls[index % urls.length] as URL;
  const started = performance.now();
  const marks: number[] = [];
  const options = { host: url.hostname, port: Number(url.port) };
  const secure = url.protocol === 'https:';
  // As our probe: the host matched on the X509Certificate, Node's chain-as-objects skipped (see
  // libs/probe/pinned-connector.ts), so this floor is the least a Node.js checker spends.
  const socket: Socket = secure
    ? tlsConnect({ ...options, secureContext, checkServerIdentity: () => undefined })
    : netConnect(options);
  if (secure) (socket as TLSSocket).getPeerCertificate = skipped;
  socket.once(secure ? 'secureConnect' : 'connect', () => {
    marks.push(performance.now());
    if (secure) {
      Reflect.deleteProperty(socket, 'getPeerCertificate');
      if ((socket as TLSSocket).getPeerX509Certificate()?.checkIP(url.hostname) === undefined) failures++;
    }
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    if (chunks.length === 0) marks.push(performance.now());
    chunks.push(chunk);
  });
  socket.on('end', () => {
    const answer = Buffer.concat(chunks).toString('utf8');
    if (!answer.startsWith('HTTP/1.1 200') || !answer.includes('Welcome')) failures++;
    if (results) store(url, index % urls.length, started, answer, socket, marks);
    socket.destroy();
  });
  socket.on('error', () => failures++);
}

await mongo?.connect();
let next = 0;
setInterval(() => check(next++), 1000 / perSecond);
setInterval(() => {
  if (failures > 0) console.error(`[node-floor] ${failures} checks failed`);
  failures = 0;
}, 10_000);
