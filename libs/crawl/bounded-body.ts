import { pipeline, Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export interface BodyBounds {
  /** Bytes read off the wire at most (compressed, when it is). */
  maxWireBytes: number;
  /** Decoded bytes at most. */
  maxDecodedBytes: number;
  /** Decoded bytes per wire byte past which a body is taken for a compression bomb… */
  maxCompressionRatio: number;
  /** …once this many bytes are decoded (a small page may compress very well). */
  ratioCheckAfterBytes: number;
}

export interface BodyRead {
  wireBytes: number;
  decodedBytes: number;
  /** The bound that stopped the reading, null when the body was read whole. */
  cutBy: 'pageBytes' | 'decodedBytes' | 'compressionRatio' | null;
}

/** Whether a body in this Content-Encoding can be decoded (we ask for gzip, deflate and br only). */
export function isDecodable(contentEncoding: string | undefined): boolean {
  const encoding = contentEncoding?.trim().toLowerCase() ?? '';
  return ['', 'identity', 'gzip', 'x-gzip', 'deflate', 'br'].includes(encoding);
}

// Flushing at the end instead of insisting on a complete stream: a body cut at a bound still
// gives what was decoded, without an "unexpected end of file".
function decoderFor(contentEncoding: string | undefined) {
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    case 'deflate':
      return createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    case 'br':
      return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
    default:
      return null;
  }
}

function textDecoderFor(charset: string | null): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/**
 * Reads a body as text, handing each decoded piece to `onText` as it comes (nothing is buffered
 * whole), within the bounds: the wire bytes, the decoded bytes, and the decoded-to-wire ratio,
 * each checked while streaming, so a compression bomb is stopped after a few of its megabytes
 * and not decoded first. Stops at the first bound reached and says which; the caller destroys
 * `raw` (its connection) when it was cut.
 */
export async function readBoundedText(
  raw: Readable,
  contentEncoding: string | undefined,
  charset: string | null,
  bounds: BodyBounds,
  onText: (text: string) => void,
): Promise<BodyRead> {
  const read: BodyRead = { wireBytes: 0, decodedBytes: 0, cutBy: null };
  async function* counted() {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      const room = bounds.maxWireBytes - read.wireBytes;
      read.wireBytes += Math.min(chunk.length, room);
      if (chunk.length > room) {
        read.cutBy = 'pageBytes';
        yield chunk.subarray(0, room);
        return;
      }
      yield chunk;
    }
  }
  const decoder = decoderFor(contentEncoding);
  const source = Readable.from(counted(), { objectMode: false });
  const decoded: Readable = decoder ? pipeline(source, decoder, () => undefined) : source;
  const text = textDecoderFor(charset);
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      const room = bounds.maxDecodedBytes - read.decodedBytes;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      read.decodedBytes += kept.length;
      onText(text.decode(kept, { stream: true }));
      if (chunk.length > room) {
        read.cutBy = 'decodedBytes';
        break;
      }
      if (
        decoder &&
        read.decodedBytes >= bounds.ratioCheckAfterBytes &&
        read.decodedBytes / Math.max(read.wireBytes, 1) > bounds.maxCompressionRatio
      ) {
        read.cutBy = 'compressionRatio';
        break;
      }
    }
  } finally {
    decoded.destroy();
    source.destroy();
  }
  onText(text.decode());
  return read;
}
