import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_MIN_BYTES, compressionMiddleware } from '../libs/http/compression.js';
import type { AppState } from '../libs/http/context.js';

interface RawResponse {
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** An object body that counts how often it is serialized. */
function countedBody(size: number) {
  const counted = { serialized: 0 };
  const body = {
    items: Array.from({ length: size }, (_, n) => ({ n, name: `item ${n}` })),
    toJSON() {
      counted.serialized++;
      return { items: this.items };
    },
  };
  return { body, counted };
}

describe('compression: a JSON body is serialized once', () => {
  let server: Server;
  let url: string;
  let current: ReturnType<typeof countedBody>;

  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(compressionMiddleware());
    app.use((ctx) => {
      ctx.set('X-Custom', 'kept');
      ctx.body = current.body;
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

  const get = (headers: Record<string, string> = {}) =>
    new Promise<RawResponse>((resolve, reject) => {
      const req = httpRequest(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  it.each([
    ['small, identity', 3, {}, undefined],
    ['large, identity', 200, { 'accept-encoding': 'identity' }, undefined],
    ['large, gzip', 200, { 'accept-encoding': 'gzip' }, 'gzip'],
  ] as const)('%s', async (_what, size, headers, coding) => {
    current = countedBody(size);
    const expected = Buffer.from(JSON.stringify({ items: current.body.items }));
    expect(expected.length < COMPRESSION_MIN_BYTES).toBe(size === 3);
    const answer = await get(headers);
    expect(current.counted.serialized).toBe(1);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-custom']).toBe('kept');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(Number(answer.headers['content-length'])).toBe(answer.bytes.length);
    const decoded = coding === 'gzip' ? gunzipSync(answer.bytes) : answer.bytes;
    expect(decoded.equals(expected)).toBe(true);
  });
});
