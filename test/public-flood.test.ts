import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes, KEY_LOOKUPS } from '../libs/db/index.js';
import { websiteIndexes } from '../libs/websites/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

const FLOOD_CLIENTS = 50;
const FLOOD_SECONDS = 15;
/** Websites in the database: enough that a lookup reading the collection shows (the 505 made 88 ms). */
const WEBSITES = 500;

interface FloodReport {
  statuses: Record<string, number>;
  limited: { retryAfter: string | null; contentType: string | null } | null;
}

/**
 * Clients asking for badges of random website ids as fast as they are answered (a new id each
 * time, or ids drawn from `ids` of them), in a process of their own at a lower priority: the test
 * measures what the flood does to the API, not what the clients' own CPU takes from it on this
 * machine (an attacker's CPU is not ours).
 */
async function flood(
  baseUrl: string,
  options: { clients: number; seconds: number; ids: number },
): Promise<FloodReport> {
  const code = `
    const { randomUUID } = require('node:crypto');
    const [baseUrl, clients, seconds, ids] = process.argv.slice(1);
    // 0: a new id every time; else ids drawn from that many.
    const drawn = Array.from({ length: Number(ids) }, () => randomUUID());
    const nextId = () => (drawn.length > 0 ? drawn[Math.floor(Math.random() * drawn.length)] : randomUUID());
    const statuses = {};
    let limited = null;
    const deadline = Date.now() + Number(seconds) * 1000;
    Promise.all(Array.from({ length: Number(clients) }, async () => {
      while (Date.now() < deadline) {
        const response = await fetch(baseUrl + '/badge/' + nextId() + '/status.svg');
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status === 429 && !limited)
          limited = { retryAfter: response.headers.get('retry-after'), contentType: response.headers.get('content-type') };
      }
    })).then(() => process.stdout.write(JSON.stringify({ statuses, limited })));
  `;
  const child = spawn(
    'nice',
    [
      '-n',
      '10',
      process.execPath,
      '-e',
      code,
      baseUrl,
      ...[options.clients, options.seconds, options.ids].map(String),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code_] = (await once(child, 'exit')) as [number | null];
  if (code_ !== 0) throw new Error(`the flood clients exited with ${code_}`);
  return JSON.parse(output) as FloodReport;
}

/** Authenticated requests, one every 10 ms or as soon as the last is answered, until `until` settles. */
async function measure(api: TestApi, token: string, path: string, until: Promise<unknown>) {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  const statuses: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await api.request('GET', path, { token });
    const took = performance.now() - started;
    latencies.push(took);
    statuses.push(response.status);
    if (took < 10) await new Promise((resolve) => setTimeout(resolve, 10 - took));
  }
  latencies.sort((a, b) => a - b);
  return { statuses, p99: latencies[Math.ceil(latencies.length * 0.99) - 1] ?? Number.NaN };
}

/** An API with an organization, a customer and `WEBSITES` websites; the path of one of them. */
async function apiWithWebsites(env: Record<string, string>) {
  const api = await TestApi.start(env);
  const { token } = await api.createOrganization();
  const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
  const created = await api.request<{ id: number }>('POST', '/api/websites', {
    token,
    body: { customerId, name: 'Shop', url: 'https://shop.example.com/', checkInterval: 300 },
  });
  expect(created.status).toBe(201);
  // The others as copies stored directly (faster than the API), their lookups added as at start.
  const websites = api.db.collection('websites');
  const template = await websites.findOne({ id: created.body.id });
  await websites.insertMany(
    Array.from({ length: WEBSITES - 1 }, (_, n) => {
      const id = 1000 + n;
      return { ...template, _id: `w${id}` as never, id, publicId: crypto.randomUUID() };
    }),
  );
  await api.db.collection(KEY_LOOKUPS).deleteOne({ _id: '~backfilled/websites.publicId' as never });
  await ensureIndexes(api.db, [websiteIndexes]);
  return { api, token, path: `/api/websites/${created.body.id}` };
}

describe('a flood of public requests for random badge ids', () => {
  const apis: TestApi[] = [];
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
  });

  describe.each([
    ['within the per-address budget (a new id every time: past 600, answered 429 a second late)', '600', 0],
    ['with the budget lifted (ids drawn from 1,000: "not found" answered from memory)', '1000000', 1000],
    ['with the budget lifted and a new id every time (each one unknown: read each time)', '1000000', 0],
  ])('%s', (_name, budget, ids) => {
    let setup: Awaited<ReturnType<typeof apiWithWebsites>>;
    beforeAll(async () => {
      // The measuring token's own budget (1,200 a minute) is not what is tested here.
      setup = await apiWithWebsites({ PUBLIC_PAGES_PER_MINUTE: budget, RATE_LIMIT_PER_MINUTE: '1000000' });
      apis.push(setup.api);
    });

    it(`${FLOOD_CLIENTS} clients for ${FLOOD_SECONDS} s: authenticated requests meanwhile answer 200 with p99 under 100 ms`, async () => {
      const flooding = flood(setup.api.api.url, { clients: FLOOD_CLIENTS, seconds: FLOOD_SECONDS, ids });
      const authenticated = await measure(setup.api, setup.token, setup.path, flooding);
      const report = await flooding;

      const floodRequests = Object.values(report.statuses).reduce((sum, n) => sum + n, 0);
      if (budget === '600') {
        expect(report.statuses['429']).toBeGreaterThan(0);
        expect(report.statuses['404']).toBeLessThanOrEqual(600);
        expect(report.limited?.retryAfter).toMatch(/^\d+$/);
        expect(report.limited?.contentType).toContain('application/problem+json');
      } else {
        expect(report.statuses).toEqual({ 404: floodRequests });
      }
      expect(floodRequests).toBeGreaterThan(FLOOD_SECONDS * 50);
      expect(authenticated.statuses.length).toBeGreaterThan(FLOOD_SECONDS * 5);
      expect(authenticated.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(authenticated.p99).toBeLessThan(100);
    }, 60_000);
  });
});
