import type { Middleware } from 'koa';
import { type ContentCoding, compress, type StoredBody } from '../compression/index.js';
import type { AppContext, AppState } from './context.js';

/** Smaller bodies are sent as they are: compressing them saves less than a packet and costs CPU. */
export const COMPRESSION_MIN_BYTES = 1024;

const HTML_JSON_SVG_TEXT = /^(text\/|application\/(.+\+)?json|application\/javascript|image\/svg\+xml)/;
/** Statuses that carry no body (Koa's `statuses.empty`) and 304s answered from a cache. */
const WITHOUT_BODY = new Set([204, 205, 304]);

/**
 * The coding to answer with under an `Accept-Encoding` header (RFC 9110 §12.5.3): the one of br
 * and gzip with the highest q-value (br on a tie, it is smaller), `*` standing for those not
 * named; identity when neither is acceptable. Identity is always sent rather than a 406.
 */
export function preferredCoding(acceptEncoding: string | undefined): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name !== '') weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br <= 0 && gz <= 0) return 'identity';
  return br >= gz ? 'br' : 'gzip';
}

const isCompressible = (type: string) => HTML_JSON_SVG_TEXT.test(type);

/** The body Koa would send, as bytes (objects are sent as JSON, as Koa's `respond` does). */
function bodyBytes(body: unknown): Buffer | null {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (body === null || body === undefined || typeof body !== 'object') return null;
  if (typeof (body as { pipe?: unknown }).pipe === 'function' || body instanceof ReadableStream) return null;
  return Buffer.from(JSON.stringify(body));
}

/**
 * Compresses HTML, JSON, SVG and other text answers of 1 KB or more with the coding the client
 * prefers. Answers without a body (HEAD, 204, 304), streams and answers already encoded (a
 * `StoredBody` sent by `sendStoredBody`) are left alone.
 */
export function compressionMiddleware(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.method === 'HEAD' || WITHOUT_BODY.has(ctx.status) || ctx.response.get('Content-Encoding')) return;
    if (!isCompressible(ctx.response.type)) return;
    const bytes = bodyBytes(ctx.body);
    if (!bytes) return;
    // Serialized once: Koa sends these bytes as they are, where it would JSON.stringify an object
    // again. The Content-Type set with the body stays (Koa types a Buffer only when none is set).
    if (ctx.body !== bytes) ctx.body = bytes;
    ctx.vary('Accept-Encoding');
    if (bytes.length < COMPRESSION_MIN_BYTES) return;
    const coding = preferredCoding(ctx.get('Accept-Encoding'));
    if (coding === 'identity') return;
    ctx.body = await compress(bytes, coding, 'dynamic');
    ctx.set('Content-Encoding', coding);
  };
}

/**
 * Answers with a stored body: 304 when the client holds it already, else the coding it prefers.
 * Each coding has its own strong ETag (`"<hash>-br"`): a strong validator names one
 * representation's bytes.
 */
export async function sendStoredBody(ctx: AppContext, body: StoredBody): Promise<void> {
  const small = body.size < COMPRESSION_MIN_BYTES || ctx.method === 'HEAD';
  const coding = small ? 'identity' : preferredCoding(ctx.get('Accept-Encoding'));
  ctx.vary('Accept-Encoding');
  ctx.set('ETag', `"${coding === 'identity' ? body.etag : `${body.etag}-${coding}`}"`);
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch && body.matches(ifNoneMatch)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = body.type;
  ctx.body = await body.coded(coding);
  if (coding !== 'identity') ctx.set('Content-Encoding', coding);
}
