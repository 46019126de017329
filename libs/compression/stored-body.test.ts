import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, StoredBody } from './stored-body.js';

describe('StoredBody', () => {
  const body = new StoredBody(Buffer.from('x'.repeat(5000)), 'text/html');

  it('matches If-None-Match in any of its codings, weak or strong, in a list, or *', () => {
    expect(body.matches(`"${body.etag}"`)).toBe(true);
    expect(body.matches(`"other", "${body.etag}-br"`)).toBe(true);
    expect(body.matches(`W/"${body.etag}-gzip"`)).toBe(true);
    expect(body.matches('*')).toBe(true);
    expect(body.matches('"other"')).toBe(false);
    expect(body.matches(`"${body.etag}x"`)).toBe(false);
  });

  it('has the same ETag for the same bytes and another for other bytes', () => {
    expect(new StoredBody(Buffer.from('x'.repeat(5000)), 'text/html').etag).toBe(body.etag);
    expect(new StoredBody(Buffer.from('y'.repeat(5000)), 'text/html').etag).not.toBe(body.etag);
  });

  it('kept as its compressed forms only, it holds those and still answers every coding', async () => {
    const bytes = Buffer.from('<p>a status page</p>'.repeat(5000));
    const full = new StoredBody(bytes, 'text/html');
    const compact = new StoredBody(await full.compressedForms(), 'text/html');
    expect(compact.etag).toBe(full.etag);
    expect(compact.size).toBe(bytes.length);
    expect(compact.heldBytes).toBeLessThan(bytes.length / 50);
    expect((await compact.coded('identity')).equals(bytes)).toBe(true);
    expect(gunzipSync(await compact.coded('gzip')).equals(bytes)).toBe(true);
    // The plain bytes made for a client that takes no compression are not kept.
    expect(compact.heldBytes).toBeLessThan(bytes.length / 50);
  });

  it('kept compressed, an empty body still answers its plain form', async () => {
    const empty = new StoredBody(Buffer.alloc(0), 'text/plain');
    const compact = new StoredBody(await empty.compressedForms(), 'text/plain');
    expect((await compact.coded('identity')).length).toBe(0);
  });

  it('compresses to bytes that decode to the original', async () => {
    const bytes = Buffer.from('<p>hello</p>'.repeat(500));
    expect(gunzipSync(await compress(bytes, 'gzip', 'dynamic')).equals(bytes)).toBe(true);
  });
});
