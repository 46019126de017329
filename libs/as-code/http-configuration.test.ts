import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConfiguration } from './http-configuration.js';

describe('ApiConfiguration against a real HTTP server', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  let busyOnce = true;

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization}`);
      if (request.url?.endsWith('/api/customers') && busyOnce) {
        busyOnce = false;
        response.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/problem+json' });
        response.end('{"title":"Too many requests"}');
        return;
      }
      if (request.method === 'DELETE') {
        response.writeHead(409, { 'Content-Type': 'application/problem+json' });
        response.end(
          JSON.stringify({ detail: 'The customer has websites', errors: [{ path: 'id', message: 'busy' }] }),
        );
        return;
      }
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end('{"id":12}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webmon`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps the path of WEBMON_URL, sends the token, waits out a 429 and reports a problem with its fields', async () => {
    const api = new ApiConfiguration(base, 'wm_test');
    expect(await api.create('customer', { name: 'Acme', packageId: 1 })).toBe(12);
    expect(seen).toEqual([
      'POST /webmon/api/customers Bearer wm_test',
      'POST /webmon/api/customers Bearer wm_test',
    ]);
    expect(api.schemaUrl()).toBe(`${base}/monitoring.schema.json`);
    await expect(api.remove('website', '00000000-0000-4000-8000-000000000001')).rejects.toMatchObject({
      status: 409,
      message:
        'DELETE /webmon/api/websites/00000000-0000-4000-8000-000000000001: 409 The customer has websites',
      errors: [{ path: 'id', message: 'busy' }],
    });
  });

  it('says what to check when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const api = new ApiConfiguration(`http://127.0.0.1:${port}/`, 'wm_test');
    await expect(api.read()).rejects.toThrow(/ECONNREFUSED \(is WEBMON_URL right, and the API up\?\)/);
  });
});
