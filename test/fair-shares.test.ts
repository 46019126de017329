import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi, type TestResponse } from './support/harness.js';

/**
 * One organization flooding exports, report builds, PDFs or imports is held to its share (429 with
 * Retry-After naming it) while another organization's requests of the same kind are served, and the
 * report printer's queue is served in turn across organizations.
 */
interface Tenant {
  token: string;
  customerId: number;
}

async function tenant(api: TestApi, websites: number): Promise<Tenant> {
  const { token } = await api.createOrganization(['admin']);
  const pkg = await createPackage(api, token, { limits: { maxWebsites: 1000, minCheckIntervalSeconds: 60 } });
  const customerId = await createCustomer(api, token, pkg.id, 'Acme');
  for (let start = 0; start < websites; start += 500) {
    const items = Array.from({ length: Math.min(500, websites - start) }, (_, i) => ({
      customerId,
      name: `Site ${start + i}`,
      url: `https://s${start + i}.example.com/`,
      checkInterval: 300,
      paused: true,
    }));
    const made = await api.request('POST', '/api/websites/batch', { token, body: { items } });
    if (made.status !== 201 && made.status !== 200)
      throw new Error(`websites not made: ${made.status} ${JSON.stringify(made.body)}`);
  }
  return { token, customerId };
}

/** The statuses of answers, counted. */
const tally = (answers: readonly TestResponse[]) => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
};

/** Every 429 says when to retry and names the share. */
function expectRefusals(answers: readonly TestResponse[], reason: string): void {
  const refused = answers.filter((a) => a.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused) {
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(answer.body).toMatchObject({ status: 429, reason });
  }
}

describe('fair shares: one organization’s flood is bounded, another’s requests are served', {
  timeout: 120_000,
}, () => {
  let api: TestApi;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    api = await TestApi.start({
      EXPORTS_PER_ORGANIZATION: '1',
      REPORTS_PER_ORGANIZATION: '1',
      IMPORTS_PER_ORGANIZATION: '1',
    });
    [a, b] = await Promise.all([tenant(api, 600), tenant(api, 20)]);
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('exports: past the share 429 with Retry-After, the other organization’s export served meanwhile, written as it is read', async () => {
    const flood = Array.from({ length: 6 }, (_, i) =>
      api.request('GET', `/api/exports${i % 2 ? '?format=csv' : ''}`, { token: a.token }),
    );
    const theirs = api.request<{ websites: unknown[] }>('GET', '/api/exports', { token: b.token });
    const answers = await Promise.all(flood);
    expect(tally(answers)[200]).toBeGreaterThanOrEqual(1);
    expectRefusals(answers, 'exports-per-organization');
    const served = await theirs;
    expect(served.status).toBe(200);
    expect(served.body.websites).toHaveLength(20);
    // Streamed: no length known up front; the share is given back once the export was written.
    expect(served.headers.get('content-length')).toBeNull();
    const whole = await api.request<{ websites: unknown[]; monitors: unknown[] }>('GET', '/api/exports', {
      token: a.token,
    });
    expect(whole.status).toBe(200);
    expect(whole.body.websites).toHaveLength(600);
    const csv = await api.request<string>('GET', '/api/exports?format=csv', { token: a.token });
    expect(csv.body.trim().split('\r\n')).toHaveLength(601);
  });

  it('report builds: past the share 429, the other organization’s report served meanwhile', async () => {
    const report = (tenant: Tenant) =>
      api.request('GET', `/api/customers/${tenant.customerId}/reports?format=csv`, { token: tenant.token });
    const flood = Array.from({ length: 6 }, () => report(a));
    const theirs = report(b);
    const answers = await Promise.all(flood);
    expect(tally(answers)[200]).toBeGreaterThanOrEqual(1);
    expectRefusals(answers, 'reports-per-organization');
    expect((await theirs).status).toBe(200);
    expect((await report(a)).status).toBe(200);
  });

  it('imports: one running or being read answers 429 before the file is read; the other organization imports meanwhile', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `Import ${i},https://i${i}.example.com/`).join('\n');
    const start = (tenant: Tenant, dryRun: boolean) =>
      api.request<{ id: number; status: string }>('POST', '/api/imports', {
        token: tenant.token,
        body: { format: 'csv', content: `name,url\n${rows}\n`, customerId: tenant.customerId, dryRun },
      });
    const answers = await Promise.all(Array.from({ length: 4 }, () => start(a, true)));
    expect(tally(answers)[202]).toBe(1);
    expectRefusals(answers, 'imports-per-organization');
    expect((await start(b, true)).status).toBe(202);
    // The running one is named, and the next is taken once it ended.
    const running = answers.find((answer) => answer.status === 202)?.body.id;
    for (let tries = 0; tries < 200; tries++) {
      const job = await api.request<{ status: string }>('GET', `/api/imports/${running}`, { token: a.token });
      if (job.body.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await start(a, true)).status).toBe(202);
  });
});

describe('the report printer: a share per organization, served in turn', { timeout: 180_000 }, () => {
  let api: TestApi;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    api = await TestApi.start({ PDFS_PER_ORGANIZATION: '8', REPORTS_PER_ORGANIZATION: '20' });
    [a, b] = await Promise.all([tenant(api, 30), tenant(api, 5)]);
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('past its share an organization gets 429; another’s one PDF is printed before most of the queue it found', async () => {
    const pdf = (tenant: Tenant) =>
      api.request('GET', `/api/customers/${tenant.customerId}/reports?format=pdf`, { token: tenant.token });
    // Started once, so that the first print of the flood is not Chromium's start.
    expect((await pdf(b)).status).toBe(200);
    const finished: string[] = [];
    const flood = Array.from({ length: 12 }, (_, i) =>
      pdf(a).then((answer) => {
        if (answer.status === 200) finished.push(`A${i}`);
        return answer;
      }),
    );
    // Once A's first PDF is out, the rest of its share is printing or waiting: then B asks for one.
    for (let waited = 0; finished.length === 0 && waited < 60_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const theirs = await pdf(b);
    finished.push('B');
    const answers = await Promise.all(flood);
    expect(theirs.status).toBe(200);
    // Eight at the printer at most: the rest refused (one built after a print ended may get in).
    expect(tally(answers)[200]).toBeGreaterThanOrEqual(8);
    expectRefusals(answers, 'pdfs-per-organization');
    // First come, first served, B's would be the last of the nine; in turn, A's last ones follow it.
    const afterB = finished.length - 1 - finished.indexOf('B');
    expect(afterB).toBeGreaterThanOrEqual(2);
  });
});
