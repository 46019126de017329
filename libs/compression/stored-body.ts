import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzip, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export type ContentCoding = 'br' | 'gzip' | 'identity';

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
export class StoredBody {
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
}
