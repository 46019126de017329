import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedServer, findFreePort, startFerretDb } from '../libs/embedded/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

describe('the public budget behind a trusted proxy', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start({ TRUST_PROXY: 'true', PUBLIC_PAGES_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('counts the address the proxy appended, whatever the client put before it', async () => {
    const badge = () => `/badge/${randomUUID()}/status.svg`;
    // The proxy appends the connecting address; the client writes a new left-most one each time.
    const from = (address: string, spoofed: number) => ({
      'x-forwarded-for': `192.0.2.${spoofed}, ${address}`,
    });
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++)
      statuses.push((await api.request('GET', badge(), { headers: from('198.51.100.66', n) })).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const refused = await api.request<{ type: string }>('GET', badge(), {
      headers: from('198.51.100.66', 9),
    });
    const type = await api.request<{ description: string }>('GET', refused.body.type);
    expect(type.body.description).toMatch(/per token .* per client address on public pages/);
    expect((await api.request('GET', badge(), { headers: from('203.0.113.7', 0) })).status).toBe(404);
  });
});

/** A FerretDB of its own, since it is stopped (SIGSTOP: it accepts connections and answers nothing). */
describe('public pages while MongoDB stalls', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-public-stall-'));
  let ferret: EmbeddedServer;
  let api: TestApi;
  beforeAll(async () => {
    ferret = await startFerretDb({
      port: await findFreePort(),
      dataDir: join(dataDir, 'ferretdb'),
      database: 'stall',
      say: () => {},
    });
    api = await TestApi.start({ MONGODB_URL: ferret.url, PUBLIC_PAGES_PER_MINUTE: '1000000' });
    const { token } = await api.createOrganization();
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const page = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug: 'stall', title: 'Stall', customerId, public: true },
    });
    expect(page.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await ferret?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a crowd of unknown slugs is answered 503 with Retry-After within the lookup deadline, none left waiting', async () => {
    const crowd = 150;
    process.kill(ferret.pid, 'SIGSTOP');
    try {
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: crowd }, async () => {
          const response = await fetch(`${api.api.url}/status/gone-${randomUUID().slice(0, 8)}.json`, {
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          return {
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            ms: performance.now() - started,
          };
        }),
      );
      expect(answers.filter((answer) => answer.status !== 503 || answer.retryAfter === null)).toEqual([]);
      // Past the reads' queue, refused at once; the others when their 3 s deadline passes.
      expect(answers.filter((answer) => answer.ms < 1000).length).toBeGreaterThanOrEqual(crowd - 2 - 64);
      expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(6000);
    } finally {
      process.kill(ferret.pid, 'SIGCONT');
    }
    // Resumed, FerretDB first works through the crowd's abandoned lookups: the page is served again
    // once they are done, within seconds and without a restart.
    await expect
      .poll(async () => (await api.request('GET', '/status/stall.json')).status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(200);
  }, 60_000);
});
