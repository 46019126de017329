import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type BodyBounds, readBoundedText } from './bounded-body.js';

const MiB = 1024 * 1024;
const bounds: BodyBounds = {
  maxWireBytes: 2 * MiB,
  maxDecodedBytes: 5 * MiB,
  maxCompressionRatio: 50,
  ratioCheckAfterBytes: MiB,
};

/** A body arriving in chunks, noting how many were pulled. */
function body(data: Buffer, chunkSize = 16 * 1024) {
  const pulled = { chunks: 0 };
  async function* chunks() {
    for (let at = 0; at < data.length; at += chunkSize) {
      pulled.chunks++;
      yield data.subarray(at, at + chunkSize);
    }
  }
  return { stream: Readable.from(chunks()), pulled };
}

async function read(data: Buffer, encoding?: string, charset: string | null = null) {
  let text = '';
  const { stream, pulled } = body(data);
  const result = await readBoundedText(stream, encoding, charset, bounds, (piece) => {
    text += piece;
  });
  return { result, text, pulled };
}

describe('reading a body within bounds', () => {
  it('reads a plain and a gzip page whole', async () => {
    const html = '<p>héllo</p>'.repeat(1000);
    const plain = await read(Buffer.from(html));
    expect(plain.text).toBe(html);
    expect(plain.result.cutBy).toBeNull();
    const gzipped = await read(gzipSync(html), 'gzip');
    expect(gzipped.text).toBe(html);
    expect(gzipped.result).toMatchObject({ cutBy: null, decodedBytes: Buffer.byteLength(html) });
  });

  it('stops an over-size page at the wire bound without pulling the rest', async () => {
    const { result, text, pulled } = await read(Buffer.alloc(10 * MiB, 'a'));
    expect(result).toEqual({ wireBytes: 2 * MiB, decodedBytes: 2 * MiB, cutBy: 'pageBytes' });
    expect(text.length).toBe(2 * MiB);
    expect(pulled.chunks).toBeLessThanOrEqual(2 * 64 + 2);
  });

  it('stops a gzip bomb by its ratio after a megabyte or so, never decoding it all', async () => {
    const bomb = gzipSync(Buffer.alloc(200 * MiB, ' '));
    const { result } = await read(bomb, 'gzip');
    expect(result.cutBy).toBe('compressionRatio');
    // Past the first megabyte, well before the decoded bound (zlib reads a little ahead of what it gave).
    expect(result.decodedBytes).toBeLessThan(3 * MiB);
    expect(result.wireBytes).toBeLessThan(bomb.length);
  });

  it('stops a body that decodes past the decoded bound at a modest ratio', async () => {
    // One random bit a byte: gzip gets it to about an eighth, well under the ratio bound.
    const random = Buffer.from(randomBytes(8 * MiB).map((byte) => 97 + (byte & 1)));
    const { result } = await read(gzipSync(random), 'gzip');
    expect(result.cutBy).toBe('decodedBytes');
    expect(result.decodedBytes).toBe(5 * MiB);
  });

  it('decodes the charset the page declares', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    expect((await read(latin1, undefined, 'iso-8859-1')).text).toBe('café');
    expect((await read(Buffer.from('café'), undefined, 'no-such-charset')).text).toBe('café');
  });
});
