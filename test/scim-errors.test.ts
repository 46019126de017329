import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimErrorDocuments } from '../apps/api/routes/scim-gate.js';
import { createHttpApp, createMetricsRegistry, defineRoute } from '../libs/http/index.js';
import { createLogger } from '../libs/logging/index.js';
import { ERROR } from './scim-fixture.js';
import { TestApi } from './support/harness.js';

/**
 * The refusals made before a SCIM route runs (an unknown path, 405, 413) in SCIM's error
 * document, with the API's own HTTP app and middleware as apps/api wires them.
 */
describe("SCIM's error document for everything under /scim/v2", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('test', 'silent'),
      metrics: createMetricsRegistry({ service: 'test', defaultMetrics: false }),
      trustProxy: false,
      guard: () => (_ctx, next) => next(),
      routes: [
        defineRoute({
          method: 'post',
          path: '/scim/v2/Users',
          operationId: 'scimCreateUser',
          summary: 'A SCIM route taking a body of at most 16 bytes',
          tags: ['SCIM'],
          access: 'public',
          rawBody: { maxBytes: 16, limitBytes: 16 },
          success: { status: 204, description: 'Taken' },
          handle: async () => {},
        }),
        defineRoute({
          method: 'get',
          path: '/api/thing',
          operationId: 'thing',
          summary: 'Not SCIM',
          tags: ['Test'],
          access: 'public',
          success: { status: 204, description: 'Nothing' },
          handle: async () => {},
        }),
      ],
      errorDocuments: scimErrorDocuments(),
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const scimError = async (res: Response, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ schemas: [ERROR], status: String(status) });
    expect(body).not.toHaveProperty('type');
    return body;
  };

  it('answers an unknown path, a method a path does not take and a body too large as SCIM errors', async () => {
    const unknown = await scimError(await fetch(`${base}/scim/v2/Bulk`), 404);
    expect(unknown.detail).toMatch(/No route for GET \/scim\/v2\/Bulk/);
    const method = await fetch(`${base}/scim/v2/Users`, { method: 'DELETE' });
    expect(method.headers.get('allow')).toMatch(/POST/);
    await scimError(method, 405);
    await scimError(
      await fetch(`${base}/scim/v2/Users`, {
        method: 'POST',
        headers: { 'content-type': 'application/scim+json' },
        body: JSON.stringify({ userName: 'a-long-address@agency.example' }),
      }),
      413,
    );
  });

  it('leaves the rest of the API its problem documents', async () => {
    const other = await fetch(`${base}/api/nothing`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const near = await fetch(`${base}/scim/v20`);
    expect(near.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('is what the API itself answers under /scim/v2', async () => {
    const api = await TestApi.start();
    try {
      const res = await api.request<Record<string, unknown>>('GET', '/scim/v2/Bulk');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '404' });
    } finally {
      await api.stop();
    }
  });
});
