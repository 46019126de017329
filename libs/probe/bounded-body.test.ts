import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type BodyBounds, type BodyDecoding, readBoundedBody, readBoundedText } from './bounded-body.js';

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
  const result = await readBoundedText(stream, { contentEncoding: encoding }, charset, bounds, (piece) => {
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
    expect(result).toEqual({ wireBytes: 2 * MiB, decodedBytes: 2 * MiB, cutBy: 'wireBytes' });
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

/** A body's decoded bytes, whether it was compressed, and how its reading ended. */
async function readBytes(data: Buffer, decoding: BodyDecoding, limits: BodyBounds = bounds) {
  const read = readBoundedBody(body(data, 100).stream, decoding, limits);
  const parts: Buffer[] = [];
  for await (const chunk of read.chunks) parts.push(chunk);
  return { bytes: Buffer.concat(parts), compressed: read.compressed(), read: read.read };
}

describe('a gzip file told by its magic bytes', () => {
  const xml = '<urlset><url><loc>https://example.com/</loc></url></urlset>'.repeat(50);

  it('is undone whatever its Content-Encoding, and once more inside a gzip encoding', async () => {
    const file = gzipSync(xml);
    const byMagic = await readBytes(file, { contentEncoding: undefined, gzipByMagic: true });
    expect(byMagic).toMatchObject({ compressed: true, read: { cutBy: null, wireBytes: file.length } });
    expect(byMagic.bytes.toString()).toBe(xml);
    const twice = await readBytes(gzipSync(file), { contentEncoding: 'gzip', gzipByMagic: true });
    expect(twice).toMatchObject({ compressed: true, read: { cutBy: null } });
    expect(twice.bytes.toString()).toBe(xml);
    // Without the option the file is read as it is.
    const asIs = await readBytes(file, { contentEncoding: undefined });
    expect(asIs.compressed).toBe(false);
    expect(asIs.bytes.equals(file)).toBe(true);
  });

  it('leaves a plain body as it is, a one-byte one too', async () => {
    const plain = await readBytes(Buffer.from(xml), { contentEncoding: undefined, gzipByMagic: true });
    expect(plain).toMatchObject({ compressed: false, read: { cutBy: null } });
    expect(plain.bytes.toString()).toBe(xml);
    const tiny = await readBytes(Buffer.from('\x1f'), { contentEncoding: undefined, gzipByMagic: true });
    expect(tiny.bytes.toString()).toBe('\x1f');
  });

  it('stops decoding at the decoded bound', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * MiB, ' '));
    const limits = { maxWireBytes: Number.POSITIVE_INFINITY, maxDecodedBytes: MiB };
    const { read, compressed } = await readBytes(
      bomb,
      { contentEncoding: undefined, gzipByMagic: true },
      limits,
    );
    expect(compressed).toBe(true);
    expect(read).toMatchObject({ cutBy: 'decodedBytes', decodedBytes: MiB });
    expect(read.wireBytes).toBeLessThan(bomb.length);
  });

  it('is an error when truncated and strict, what it gave when not', async () => {
    const cut = gzipSync(xml).subarray(0, -12);
    await expect(
      readBytes(cut, { contentEncoding: undefined, gzipByMagic: true, strict: true }),
    ).rejects.toMatchObject({ code: 'Z_BUF_ERROR' });
    const lenient = await readBytes(cut, { contentEncoding: undefined, gzipByMagic: true });
    expect(xml.startsWith(lenient.bytes.toString())).toBe(true);
    expect(lenient.bytes.length).toBeGreaterThan(0);
  });

  it('is no error when strict and cut at the wire bound by us', async () => {
    const file = gzipSync(Buffer.from(randomBytes(64 * 1024).toString('hex')));
    const limits = { maxWireBytes: 20_000, maxDecodedBytes: MiB };
    const { read } = await readBytes(file, { contentEncoding: 'gzip', strict: true }, limits);
    expect(read).toMatchObject({ cutBy: 'wireBytes', wireBytes: 20_000 });
  });
});
