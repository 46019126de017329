import { validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../libs/http/index.js';
import { TestApi } from './support/harness.js';

describe('HTTP conventions', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
  });
  afterAll(() => api.stop());

  const validBody = { name: 'n', scopes: ['read'] };

  it('415 when a body is not application/json', async () => {
    const res = await api.request('POST', '/api/tokens', {
      token,
      rawBody: 'name=n',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: '/problems/unsupported-media-type', status: 415 });
  });

  it('415 when a body has no Content-Type', async () => {
    const res = await api.request('POST', '/api/tokens', { token, rawBody: JSON.stringify(validBody) });
    expect(res.status).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const res = await api.request('POST', '/api/tokens', {
      token,
      body: validBody,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('400 for malformed JSON', async () => {
    const res = await api.request('POST', '/api/tokens', {
      token,
      rawBody: '{"name": "n",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: '/problems/malformed-json' });
  });

  it('400 for a JSON scalar body', async () => {
    const res = await api.request('POST', '/api/tokens', {
      token,
      rawBody: '"text"',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('400 naming the body when it is missing', async () => {
    const res = await api.request('POST', '/api/tokens', { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ detail: 'A JSON body is required' });
  });

  it('400 for an array where an object is expected', async () => {
    const res = await api.request('POST', '/api/tokens', { token, body: [validBody] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: '/problems/validation-error' });
  });

  it('413 for a body over 1 MiB', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES), scopes: ['read'] });
    const res = await api.request('POST', '/api/tokens', {
      token,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ type: '/problems/payload-too-large' });
  });

  it('413 for a chunked body over 1 MiB (no Content-Length)', async () => {
    const chunk = new TextEncoder().encode(`{"name":"${'x'.repeat(256 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode('","scopes":["read"]}'));
          controller.close();
        }
      },
    });
    const response = await fetch(`${api.api.url}/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('404 problem for an unknown route, 400 for a malformed id', async () => {
    const res = await api.request('GET', '/api/nothing-here', { token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: '/problems/not-found', instance: '/api/nothing-here' });
    const bad = await api.request<{ errors: Array<{ path: string }> }>('GET', '/api/tokens/abc', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]?.path).toBe('id');
  });

  it('400 naming a query parameter given twice, and one of the wrong type', async () => {
    const twice = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'GET',
      '/api/websites?customerId=1&customerId=2',
      { token },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([{ path: 'customerId', message: 'must be given once' }]);
    const wrongType = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'POST',
      '/api/tokens',
      { token, body: { ...validBody, name: 42 } },
    );
    expect(wrongType.body.errors).toEqual([
      { path: 'name', message: 'Invalid input: expected string, received number' },
    ]);
  });

  it('400 naming the body when a route that takes none is sent one; nothing is done', async () => {
    const channel = await api.request<{ id: number }>('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Hook', config: { url: 'https://hooks.example.com/x' } },
    });
    const rotate = `/api/notification-channels/${channel.body.id}/rotate-secret`;
    const before = await api.db.collection('notification_channels').findOne({ id: channel.body.id });
    for (const body of [{ x: 1 }, []]) {
      const refused = await api.request<{ errors: unknown }>('POST', rotate, { token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors).toEqual([
        { path: 'body', message: 'must be absent: this route takes no request body' },
      ]);
    }
    const after = await api.db.collection('notification_channels').findOne({ id: channel.body.id });
    expect(after?.secrets).toEqual(before?.secrets);
    // Without a body, or with an empty object as some clients send, it rotates.
    expect((await api.request('POST', rotate, { token })).status).toBe(200);
    expect((await api.request('POST', rotate, { token, body: {} })).status).toBe(200);
  });

  it('405 with Allow for a known route and a wrong method', async () => {
    const res = await api.request('PUT', '/api/tokens', { token, body: validBody });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.body).toMatchObject({ type: '/problems/method-not-allowed' });
  });

  it('echoes a safe x-request-id and makes one up otherwise', async () => {
    const echoed = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await api.request('GET', '/healthz', {
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const problem = await api.request('GET', '/api/tokens', { headers: { 'x-request-id': 'trace-1' } });
    expect(problem.body).toMatchObject({ requestId: 'trace-1' });
  });

  it('serves the meaning of each problem type', async () => {
    const res = await api.request('GET', '/problems/rate-limited');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
  });

  it('healthz and readyz answer 200 when both servers are up', async () => {
    expect((await api.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await api.request('GET', '/readyz', { token });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { mongodb: 'up', redis: 'up' } });
  });

  it('exposes Prometheus metrics with request durations by route pattern', async () => {
    await api.request('GET', '/api/tokens/1', { token });
    const res = await api.request<string>('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('route="/api/tokens/:id"');
  });

  it('serves an OpenAPI 3.1 document that validates and covers every route', async () => {
    const res = await api.request<
      Record<string, unknown> & { paths: Record<string, Record<string, unknown>> }
    >('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(res.body) as never);
    expect(result).toMatchObject({ valid: true });
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/healthz',
        '/readyz',
        '/metrics',
        '/openapi.json',
        '/api/tokens',
        '/api/tokens/{id}',
      ]),
    );
    expect(Object.keys(res.body.paths['/api/tokens/{id}'] ?? {})).toEqual(
      expect.arrayContaining(['get', 'delete']),
    );
    // Resources are named components, so generated clients get real class names.
    const components = res.body.components as {
      schemas: Record<string, unknown>;
      headers: Record<string, unknown>;
    };
    for (const name of [
      'Website',
      'WebsiteCreate',
      'Customer',
      'Package',
      'CheckConfig',
      'MaintenanceWindow',
      'Channel',
      'Result',
      'Incident',
      'WebsiteStatus',
      'Problem',
    ])
      expect(components.schemas).toHaveProperty(name);
    expect(res.body.paths['/api/websites']?.post).toMatchObject({
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/WebsiteCreate' } } },
      },
      responses: {
        201: {
          headers: {
            Location: { $ref: '#/components/headers/Location' },
            'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
            'x-request-id': { $ref: '#/components/headers/x-request-id' },
          },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Website' } } },
        },
        429: { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
      },
    });
    expect(res.body.paths['/api/websites']?.get).toMatchObject({
      responses: { 200: { headers: { Link: { $ref: '#/components/headers/Link' } } } },
    });
    expect(res.body.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('passes redocly lint with its recommended rules', async () => {
    const res = await api.request('GET', '/openapi.json');
    const problems = await lintFromString({
      source: JSON.stringify(res.body),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    // Left, each for a reason: the system probes, the app's page and the documents (OpenAPI, the
    // monitoring file's JSON Schema) take no input and fail only with 503; the two maintenance paths are the contract's (ids are integers, so `check` is
    // never one); the licence of the API is its owners' decision, not the code's; single sign-on's
    // browser steps answer only by redirect (to the provider, back into the app or to the sign-in
    // page with the reason), never with a 2xx.
    const accepted = [
      'warn operation-4xx-response at #/paths/~1healthz/get/responses',
      'warn operation-4xx-response at #/paths/~1readyz/get/responses',
      'warn operation-4xx-response at #/paths/~1metrics/get/responses',
      'warn operation-4xx-response at #/paths/~1openapi.json/get/responses',
      'warn operation-4xx-response at #/paths/~1monitoring.schema.json/get/responses',
      'warn operation-4xx-response at #/paths/~1/get/responses',
      'warn no-ambiguous-paths at #/paths/~1api~1maintenance-windows~1check~1{websiteId}',
      'warn info-license at #/info',
      'warn operation-2xx-response at #/paths/~1api~1auth~1sso~1{providerId}~1start/get/responses',
      'warn operation-2xx-response at #/paths/~1api~1auth~1sso~1{providerId}~1callback/get/responses',
      'warn operation-2xx-response at #/paths/~1api~1auth~1sso~1{providerId}~1acs/get/responses',
      'warn operation-2xx-response at #/paths/~1api~1auth~1sso~1{providerId}~1acs/post/responses',
    ];
    const found = problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}`);
    expect(found.filter((p) => !accepted.includes(p))).toEqual([]);
    // Each accepted warning still occurs: one whose route is gone is struck off the list.
    expect(accepted.filter((p) => !found.includes(p))).toEqual([]);
  });
});

describe('rate limit per token', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => api.stop());

  it('answers 429 with Retry-After and RateLimit headers past the limit, per token', async () => {
    const { organizationId, token } = await api.createOrganization(['read']);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestApi['request']>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await api.request('GET', '/api/tokens/1', { token });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-limit')).toBe('5');
        expect(last.headers.get('ratelimit-remaining')).toBe('4');
      }
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(last?.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(last?.body).toMatchObject({ type: '/problems/rate-limited' });

    const other = await api.createToken(organizationId, ['read']);
    expect((await api.request('GET', '/api/tokens/1', { token: other })).status).not.toBe(429);
  });
});
