import { pipeline, Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export interface BodyBounds {
  /** Bytes read off the wire at most (compressed, when it is). */
  maxWireBytes: number;
  /** Decoded bytes at most. */
  maxDecodedBytes: number;
  /** Decoded bytes per wire byte past which a body is taken for a compression bomb… @defaultValue no bound */
  maxCompressionRatio?: number;
  /** …once this many bytes are decoded (a small page may compress very well). @defaultValue 0 */
  ratioCheckAfterBytes?: number;
}

export interface BodyDecoding {
  /** The answer's Content-Encoding: gzip, deflate and br are undone, anything else is read as it is. */
  contentEncoding: string | undefined;
  /**
   * Also undo a gzip file inside, told by its magic bytes rather than a name or type (a
   * sitemap.xml.gz is sent as application/x-gzip, as `Content-Encoding: gzip`, or both).
   */
  gzipByMagic?: boolean;
  /**
   * A compressed stream that ends before it should is an error (zlib's, a `Z_…` code), not what
   * it gave until then. A stream cut at `maxWireBytes` is never one.
   */
  strict?: boolean;
}

export interface BodyRead {
  wireBytes: number;
  decodedBytes: number;
  /** The bound that stopped the reading, null when the body was read whole. */
  cutBy: 'wireBytes' | 'decodedBytes' | 'compressionRatio' | null;
}

export interface BoundedBody {
  /** The decoded bytes as they arrive, up to the bounds. */
  chunks: AsyncIterable<Buffer>;
  /** What was read so far (complete once `chunks` is). */
  read: BodyRead;
  /** Whether it was compressed (by Content-Encoding, or a gzip file by its magic bytes). */
  compressed: () => boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];

const normalized = (contentEncoding: string | undefined) => contentEncoding?.trim().toLowerCase() ?? '';

/** Whether a body in this Content-Encoding can be decoded (we ask for gzip, deflate and br only). */
export function isDecodable(contentEncoding: string | undefined): boolean {
  return ['', 'identity', 'gzip', 'x-gzip', 'deflate', 'br'].includes(normalized(contentEncoding));
}

// Unless strict, flushing at the end instead of insisting on a complete stream: a body cut short
// still gives what was decoded, without an "unexpected end of file".
const zlibEnd = (strict: boolean) => (strict ? {} : { finishFlush: constants.Z_SYNC_FLUSH });

function decoderFor(encoding: string, strict: boolean): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(zlibEnd(strict));
    case 'deflate':
      return createInflate(zlibEnd(strict));
    case 'br':
      return createBrotliDecompress(strict ? {} : { finishFlush: constants.BROTLI_OPERATION_FLUSH });
    default:
      return null;
  }
}

// zlib heeds its reader's pace (it inflates no further while its output is unread), so a bomb is
// decoded only as far as the bounds below let it be read.
function decoded(source: AsyncIterable<Uint8Array>, decoder: Transform): AsyncIterable<Buffer> {
  return pipeline(Readable.from(source, { objectMode: false }), decoder, () => undefined);
}

/** `source`, gunzipped when its first bytes open a gzip stream (`onGzip` is told so). */
async function* gunzipIfGzip(
  source: AsyncIterable<Uint8Array>,
  strict: boolean,
  onGzip: () => void,
): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < GZIP_MAGIC.length) {
      const next = await iterator.next();
      if (next.done) break;
      head.push(next.value);
      length += next.value.length;
    }
    const first = Buffer.concat(head);
    const whole = (async function* () {
      if (first.length > 0) yield first;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
    const isGzip = first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
    if (isGzip) onGzip();
    yield* isGzip ? decoded(whole, createGunzip(zlibEnd(strict))) : whole;
  } finally {
    // Not awaited: a read-ahead may still wait on the network, which the caller's close ends.
    iterator.return?.()?.catch(() => undefined);
  }
}

/**
 * A body decoded as it streams (nothing is buffered whole) within the bounds: the wire bytes, the
 * decoded bytes, and the decoded-to-wire ratio, each checked while streaming, so a compression
 * bomb is stopped after a few of its megabytes and not decoded first. Stops at the first bound
 * reached and says which in `read.cutBy`; the caller closes `raw` (its connection) when it was cut
 * or when it leaves `chunks` early.
 */
export function readBoundedBody(
  raw: AsyncIterable<Uint8Array>,
  decoding: BodyDecoding,
  bounds: BodyBounds,
): BoundedBody {
  const read: BodyRead = { wireBytes: 0, decodedBytes: 0, cutBy: null };
  const strict = decoding.strict ?? false;
  const decoder = decoderFor(normalized(decoding.contentEncoding), strict);
  let compressed = decoder !== null;
  async function* counted() {
    for await (const chunk of raw) {
      const room = bounds.maxWireBytes - read.wireBytes;
      read.wireBytes += Math.min(chunk.length, room);
      if (chunk.length > room) {
        read.cutBy = 'wireBytes';
        yield chunk.subarray(0, room);
        return;
      }
      yield chunk;
    }
  }
  let stream: AsyncIterable<Uint8Array> = decoder ? decoded(counted(), decoder) : counted();
  if (decoding.gzipByMagic)
    stream = gunzipIfGzip(stream, strict, () => {
      compressed = true;
    });
  const source = stream;
  async function* bounded(): AsyncGenerator<Buffer> {
    try {
      for await (const piece of source) {
        const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.length);
        const room = bounds.maxDecodedBytes - read.decodedBytes;
        if (chunk.length > room) {
          read.decodedBytes += room;
          read.cutBy = 'decodedBytes';
          if (room > 0) yield chunk.subarray(0, room);
          return;
        }
        read.decodedBytes += chunk.length;
        yield chunk;
        if (
          compressed &&
          read.decodedBytes >= (bounds.ratioCheckAfterBytes ?? 0) &&
          read.decodedBytes / Math.max(read.wireBytes, 1) >
            (bounds.maxCompressionRatio ?? Number.POSITIVE_INFINITY)
        ) {
          read.cutBy = 'compressionRatio';
          return;
        }
      }
    } catch (error) {
      // A stream we cut ourselves ends early: a strict decoder's complaint about it is ours.
      if (read.cutBy !== 'wireBytes') throw error;
    }
  }
  return { chunks: bounded(), read, compressed: () => compressed };
}

function textDecoderFor(charset: string | null): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/**
 * {@link readBoundedBody} as text in `charset` (utf-8 when it is null or unknown), handing each
 * decoded piece to `onText` as it comes.
 */
export async function readBoundedText(
  raw: AsyncIterable<Uint8Array>,
  decoding: BodyDecoding,
  charset: string | null,
  bounds: BodyBounds,
  onText: (text: string) => void,
): Promise<BodyRead> {
  const body = readBoundedBody(raw, decoding, bounds);
  const text = textDecoderFor(charset);
  for await (const chunk of body.chunks) onText(text.decode(chunk, { stream: true }));
  onText(text.decode());
  return body.read;
}
