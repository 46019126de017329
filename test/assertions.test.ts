import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, type TestApi } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

/** A local JSON API whose health the test sets, and a page of 50,000 "a" and a "!". */
async function startJsonApi() {
  let health = 'ok';
  const server: Server = createServer((req, res) => {
    if (req.url === '/health') {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-api-version', '2');
      res.end(JSON.stringify({ status: health, checks: [{ name: 'db', ms: 12 }] }));
    } else if (req.url === '/as') res.end(`${'a'.repeat(50_000)}!`);
    else res.end('fine');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setHealth: (value: string) => {
      health = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Outcome {
  source: string;
  path?: string;
  passed: boolean;
  actual: string | null;
}

describe('response assertions on the HTTP check', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let jsonApi: Awaited<ReturnType<typeof startJsonApi>>;

  beforeAll(async () => {
    stack = await startMonitoringStack('assertions-node');
    ({ api, token } = stack);
    jsonApi = await startJsonApi();
  });
  afterAll(async () => {
    await jsonApi?.close();
    await stack?.stop();
  });

  const create = async (name: string, path: string) => {
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: stack.customerId, name, url: `${jsonApi.url}${path}`, checkInterval: 10 },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const latestChecks = async (id: number) =>
    (
      await api.request<{ items: Array<{ checks: Array<{ name: string; assertions?: Outcome[] }> }> }>(
        'GET',
        `/api/websites/${id}/results?limit=1`,
        { token },
      )
    ).body.items[0]?.checks ?? [];

  it('a JSON value and a header that hold keep it up; a 200 carrying "degraded" takes it down, naming the path and value', async () => {
    const id = await create('Health API', '/health');
    const patched = await api.request<{ assertions: unknown[] }>(
      'PATCH',
      `/api/websites/${id}/check-config`,
      {
        token,
        body: {
          assertions: [
            { source: 'jsonBody', path: '$.status', operator: 'equals', value: 'ok' },
            { source: 'header', path: 'X-API-Version', operator: 'equals', value: 2 },
            { source: 'jsonBody', path: "$.checks[?@.name == 'db'].ms", operator: 'lessThan', value: 500 },
          ],
        },
      },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.assertions).toHaveLength(3);
    await expect
      .poll(async () => (await latestChecks(id)).find((c) => c.name === 'assertions')?.assertions, {
        timeout: 20_000,
        interval: 200,
      })
      .toMatchObject([
        { path: '$.status', passed: true, actual: 'ok' },
        { path: 'X-API-Version', passed: true, actual: '2' },
        { passed: true, actual: '12' },
      ]);
    await expect
      .poll(async () => (await stack.status(id)).status, { timeout: 20_000, interval: 200 })
      .toBe('up');

    jsonApi.setHealth('degraded');
    await expect
      .poll(async () => (await stack.status(id)).status, { timeout: 30_000, interval: 200 })
      .toBe('down');
    const incidents = await api.request<{ items: Array<{ cause: string }> }>(
      'GET',
      `/api/websites/${id}/incidents`,
      { token },
    );
    expect(incidents.body.items[0]?.cause).toContain('$.status equals "ok": got degraded');
    const failed = (await latestChecks(id)).find((c) => c.name === 'assertions');
    expect(failed).toMatchObject({ outcome: 'fail', message: '$.status equals "ok": got degraded' });
    jsonApi.setHealth('ok');
  }, 60_000);

  it('a catastrophic pattern fails its assertion without stalling the worker: other websites keep their schedule', async () => {
    const hostile = await create('Hostile pattern', '/as');
    const neighbour = await create('Neighbour', '/fine');
    const patched = await api.request('PATCH', `/api/websites/${hostile}/check-config`, {
      token,
      body: { assertions: [{ source: 'body', operator: 'matches', value: '^(a+)+$' }] },
    });
    expect(patched.status).toBe(200);
    await expect
      .poll(async () => (await stack.status(hostile)).status, { timeout: 30_000, interval: 200 })
      .toBe('down');
    const results = async () =>
      (await api.request<{ items: unknown[] }>('GET', `/api/websites/${neighbour}/results`, { token })).body
        .items.length;
    const before = await results();
    // Checked every 10 s: within 25 s the neighbour has at least two more results.
    await expect.poll(results, { timeout: 25_000, interval: 500 }).toBeGreaterThanOrEqual(before + 2);
    expect((await stack.status(neighbour)).status).toBe('up');
  }, 90_000);

  it('refuses what cannot run, naming the field, and what the package lacks (403)', async () => {
    const id = await create('Refused', '/health');
    const invalid = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'PATCH',
      `/api/websites/${id}/check-config`,
      {
        token,
        body: {
          assertions: [
            { source: 'jsonBody', path: 'status', operator: 'exists' },
            { source: 'body', operator: 'matches', value: '(a)\\1' },
          ],
        },
      },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e) => e.path)).toEqual(['assertions.0.path', 'assertions.1.value']);
    const tooMany = await api.request('PATCH', `/api/websites/${id}/check-config`, {
      token,
      body: {
        assertions: Array.from({ length: 21 }, () => ({ source: 'status', operator: 'equals', value: 200 })),
      },
    });
    expect(tooMany.status).toBe(400);

    // A package that loses the feature: the stored assertions may be sent back as they are (a form
    // saves every field), not changed.
    const pkg = await createPackage(api, token);
    const customerId = await createCustomer(api, token, pkg.id, 'Basic');
    const basic = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Basic', url: `${jsonApi.url}/health` },
    });
    const kept = [{ source: 'status', operator: 'equals', value: 200 }];
    const checkConfig = `/api/websites/${basic.body.id}/check-config`;
    expect((await api.request('PATCH', checkConfig, { token, body: { assertions: kept } })).status).toBe(200);
    const downgraded = await api.request('PATCH', `/api/packages/${pkg.id}`, {
      token,
      body: { features: { assertions: false } },
    });
    expect(downgraded.status).toBe(200);
    const resaved = await api.request('PATCH', checkConfig, {
      token,
      body: { assertions: kept, checkKeywordEnabled: false },
    });
    expect(resaved.status).toBe(200);
    const forbidden = await api.request<{ errors: Array<{ path: string }> }>('PATCH', checkConfig, {
      token,
      body: { assertions: [...kept, { source: 'responseTime', operator: 'lessThan', value: 1000 }] },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors.map((e) => e.path)).toEqual(['assertions']);
  });
});
