import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzip, gzip } from 'node:zlib';
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import type { AppContext, AppState } from './context.js';

/** Smaller bodies are sent as they are: compressing them saves less than a packet and costs CPU. */
export const COMPRESSION_MIN_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip' | 'identity';

const HTML_JSON_SVG_TEXT = /^(text\/|application\/(.+\+)?json|application\/javascript|image\/svg\+xml)/;
/** Statuses that carry no body (Koa's `statuses.empty`) and 304s answered from a cache. */
const WITHOUT_BODY = new Set([204, 205, 304]);

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** How hard to compress: `dynamic` for a body sent once, `stored` for one kept and sent many times. */
const EFFORT = {
  // Brotli 4 compresses about like gzip 6 at gzip's speed; 11 (the default) is ~50× slower.
  dynamic: { br: 4, gzip: 6 },
  stored: { br: 9, gzip: 9 },
} as const;

export function compress(
  bytes: Buffer,
  coding: Exclude<ContentCoding, 'identity'>,
  effort: keyof typeof EFFORT,
): Promise<Buffer> {
  return coding === 'br'
    ? brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: EFFORT[effort].br,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipAsync(bytes, { level: EFFORT[effort].gzip });
}

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
 * stored `PrecompressedBody`) are left alone.
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

/** A body's compressed forms and what names it: enough to serve it to any client. */
export interface CompressedForms {
  etag: string;
  /** Its length uncompressed. */
  size: number;
  br: Buffer;
  gzip: Buffer;
}

const gunzipAsync = promisify(gunzip);

/**
 * Plain forms unzipped from bodies kept compressed, for clients that take no compression (curl,
 * some bots), kept by ETag while they fit in 32 MiB: a page asked for again is not unzipped again.
 */
const UNZIPPED_KEPT_BYTES = 32 * 1024 * 1024;
// One larger than all of it is not kept (`maxEntrySize` is `maxSize`): it would only push out the others.
const unzipped = new LRUCache<string, Promise<Buffer>>({ maxSize: UNZIPPED_KEPT_BYTES });

function unzippedOnce(key: string, size: number, unzip: () => Promise<Buffer>): Promise<Buffer> {
  const found = unzipped.get(key);
  if (found) return found;
  const bytes = unzip();
  // lru-cache takes no size of 0 (an empty body).
  unzipped.set(key, bytes, { size: Math.max(size, 1) });
  bytes.catch(() => unzipped.peek(key) === bytes && unzipped.delete(key));
  return bytes;
}

/**
 * A body rendered once and sent many times: a strong ETag and its forms, each compressed form made
 * on first demand and kept. One made from its compressed forms keeps only those (a status page of
 * 50 websites: ~10 KB instead of ~1 MB with its HTML as it is); for the rare client that takes
 * neither it is unzipped, and kept a while apart (32 MiB for all such bodies of the process).
 */
export class PrecompressedBody {
  readonly etag: string;
  /** Its length uncompressed. */
  readonly size: number;
  private readonly encoded = new Map<ContentCoding, Promise<Buffer>>();
  private held = 0;

  constructor(
    source: Buffer | CompressedForms,
    readonly type: string,
  ) {
    if (Buffer.isBuffer(source)) {
      this.etag = createHash('sha256').update(source).digest('base64url').slice(0, 27);
      this.size = source.length;
      this.keep('identity', source);
    } else {
      this.etag = source.etag;
      this.size = source.size;
      this.keep('br', source.br);
      this.keep('gzip', source.gzip);
    }
  }

  private keep(coding: ContentCoding, bytes: Buffer) {
    this.encoded.set(coding, Promise.resolve(bytes));
    this.held += bytes.length;
  }

  /** The bytes it holds now, in every form made so far. */
  get heldBytes(): number {
    return this.held;
  }

  /** The body in this coding, compressed on first demand. */
  coded(coding: ContentCoding): Promise<Buffer> {
    let body = this.encoded.get(coding);
    if (!body) {
      if (coding === 'identity')
        return unzippedOnce(`${this.etag}/${this.type}`, this.size, () =>
          this.coded('gzip').then((gzipped) => gunzipAsync(gzipped)),
        );
      const identity = this.coded('identity');
      body = identity.then((bytes) => compress(bytes, coding, 'stored'));
      this.encoded.set(coding, body);
      body.then(
        (made) => {
          this.held += made.length;
        },
        () => this.encoded.delete(coding),
      );
    }
    return body;
  }

  /** Both compressed forms (made now if they were not) and the ETag: what another process needs. */
  async compressedForms(): Promise<CompressedForms> {
    const [br, gzip] = await Promise.all([this.coded('br'), this.coded('gzip')]);
    return { etag: this.etag, size: this.size, br, gzip };
  }

  /** True when an `If-None-Match` names this body in any of its codings (or is `*`). */
  matches(ifNoneMatch: string): boolean {
    return ifNoneMatch.split(',').some((tag) => {
      const opaque = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
      return opaque === '*' || opaque.replace(/-(br|gzip)$/, '') === this.etag;
    });
  }

  /**
   * Answers with this body: 304 when the client holds it already, else the coding it prefers.
   * Each coding has its own strong ETag (`"<hash>-br"`): a strong validator names one
   * representation's bytes.
   */
  async send(ctx: AppContext): Promise<void> {
    const small = this.size < COMPRESSION_MIN_BYTES || ctx.method === 'HEAD';
    const coding = small ? 'identity' : preferredCoding(ctx.get('Accept-Encoding'));
    ctx.vary('Accept-Encoding');
    ctx.set('ETag', `"${coding === 'identity' ? this.etag : `${this.etag}-${coding}`}"`);
    const ifNoneMatch = ctx.get('If-None-Match');
    if (ifNoneMatch && this.matches(ifNoneMatch)) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.type = this.type;
    ctx.body = await this.coded(coding);
    if (coding !== 'identity') ctx.set('Content-Encoding', coding);
  }
}
