import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress } from '../compression/index.js';
import { PrecompressedBody, preferredCoding } from './compression.js';

describe('preferredCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['GZIP ; Q=0.9', 'gzip'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
  ] as const)('%s → %s', (header, expected) => {
    expect(preferredCoding(header)).toBe(expected);
  });
});

describe('PrecompressedBody', () => {
  const body = new PrecompressedBody(Buffer.from('x'.repeat(5000)), 'text/html');

  it('matches If-None-Match in any of its codings, weak or strong, in a list, or *', () => {
    expect(body.matches(`"${body.etag}"`)).toBe(true);
    expect(body.matches(`"other", "${body.etag}-br"`)).toBe(true);
    expect(body.matches(`W/"${body.etag}-gzip"`)).toBe(true);
    expect(body.matches('*')).toBe(true);
    expect(body.matches('"other"')).toBe(false);
    expect(body.matches(`"${body.etag}x"`)).toBe(false);
  });

  it('has the same ETag for the same bytes and another for other bytes', () => {
    expect(new PrecompressedBody(Buffer.from('x'.repeat(5000)), 'text/html').etag).toBe(body.etag);
    expect(new PrecompressedBody(Buffer.from('y'.repeat(5000)), 'text/html').etag).not.toBe(body.etag);
  });

  it('kept as its compressed forms only, it holds those and still answers every coding', async () => {
    const bytes = Buffer.from('<p>a status page</p>'.repeat(5000));
    const full = new PrecompressedBody(bytes, 'text/html');
    const compact = new PrecompressedBody(await full.compressedForms(), 'text/html');
    expect(compact.etag).toBe(full.etag);
    expect(compact.size).toBe(bytes.length);
    expect(compact.heldBytes).toBeLessThan(bytes.length / 50);
    expect((await compact.coded('identity')).equals(bytes)).toBe(true);
    expect(gunzipSync(await compact.coded('gzip')).equals(bytes)).toBe(true);
    // The plain bytes made for a client that takes no compression are not kept.
    expect(compact.heldBytes).toBeLessThan(bytes.length / 50);
  });

  it('kept compressed, an empty body still answers its plain form', async () => {
    const empty = new PrecompressedBody(Buffer.alloc(0), 'text/plain');
    const compact = new PrecompressedBody(await empty.compressedForms(), 'text/plain');
    expect((await compact.coded('identity')).length).toBe(0);
  });

  it('compresses to bytes that decode to the original', async () => {
    const bytes = Buffer.from('<p>hello</p>'.repeat(500));
    expect(gunzipSync(await compress(bytes, 'gzip', 'dynamic')).equals(bytes)).toBe(true);
  });
});
