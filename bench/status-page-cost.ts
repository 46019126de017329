/**
 * What a public status page of 50 websites costs: its bytes as sent (identity, gzip, brotli), and
 * requests/s with latency percentiles for `--connections` visitors at once (browsers' Accept-Encoding,
 * half of them revalidating with If-None-Match), then the same after every request changes the page
 * (each answer rendered anew: the cost without the cache). The API runs in this process on a
 * throwaway FerretDB and Redis (or MONGODB_URL / REDIS_URL), loaded over loopback from this process
 * too, so the figures compare the two runs rather than state a server's capacity.
 * Usage: node --import tsx bench/status-page-cost.ts [-- --seconds 10 --connections 50]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { ApiTokenRepository, OrganizationRepository } from '../libs/auth/index.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { startInProcessApi } from './support/in-process-api.js';
import { percentile } from './support/process-stats.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const BROWSER = 'gzip, deflate, br, zstd';

await withBenchDatabases('status-page', async ({ mongoUrl, redisUrl }) => {
  const { api, mongo, stop } = await startInProcessApi({ mongoUrl, redisUrl });
  const pool = new Pool(api.url, { connections });
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const answer = await pool.request({
      method: method as 'GET',
      path,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    return { status: answer.statusCode, headers: answer.headers, bytes };
  };
  try {
    const organization = await new OrganizationRepository(mongo.db).create('bench');
    const { token } = await new ApiTokenRepository(mongo.db).create({
      organizationId: organization.id,
      name: 'bench',
      scopes: ['admin'],
    });
    const auth = { authorization: `Bearer ${token}` };
    await call('POST', '/api/packages', auth, {
      key: 'bench',
      displayName: 'Bench',
      limits: { maxWebsites: 100 },
    });
    const customer = await call('POST', '/api/v1/customers', auth, { name: 'Bench', plan: 'bench' });
    const customerId = Number(JSON.parse(customer.bytes.toString()).id);
    for (let n = 1; n <= 50; n++)
      await call('POST', '/api/websites', auth, {
        customerId,
        name: `Site ${n}`,
        url: `https://site${n}.example.com/`,
        paused: true,
      });
    const slug = `bench-${randomUUID().slice(0, 8)}`;
    const page = await call('POST', '/api/status-pages', auth, {
      slug,
      title: 'Bench',
      customerId,
      public: true,
    });
    const pageId = Number(JSON.parse(page.bytes.toString()).id);

    const sizes = Object.fromEntries(
      await Promise.all(
        ['identity', 'gzip', 'br'].map(async (coding) => [
          coding,
          (await call('GET', `/status/${slug}`, { 'accept-encoding': coding })).bytes.length,
        ]),
      ),
    );
    const etag = String((await call('GET', `/status/${slug}`, { 'accept-encoding': BROWSER })).headers.etag);
    console.log(`page of 50 websites, bytes sent: ${JSON.stringify(sizes)}`);

    const load = async (label: string, changeEach: boolean) => {
      const latencies: number[] = [];
      let notModified = 0;
      let edits = 0;
      const until = Date.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: connections }, async (_, visitor) => {
          while (Date.now() < until) {
            if (changeEach)
              await call('PATCH', `/api/status-pages/${pageId}`, auth, { title: `Bench ${edits++}` });
            const started = performance.now();
            const headers: Record<string, string> = { 'accept-encoding': BROWSER };
            if (visitor % 2 === 1) headers['if-none-match'] = etag;
            const answer = await call('GET', `/status/${slug}`, headers);
            latencies.push(performance.now() - started);
            if (answer.status === 304) notModified++;
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      console.log(
        `${label}: ${Math.round(latencies.length / seconds)} page requests/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(latencies, 99).toFixed(1)} ms, 304s ${notModified}${changeEach ? `, edits ${edits}` : ''}`,
      );
    };
    await load(`cached, ${connections} visitors`, false);
    await load(`changed before every request (no cache), ${connections} visitors`, true);
  } finally {
    await pool.close();
    await stop();
  }
});
