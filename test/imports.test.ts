import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url), 'utf8');

interface Entry {
  source: string;
  name: string;
  url: string;
}
interface ImportJob {
  id: number;
  status: 'running' | 'succeeded' | 'failed';
  dryRun: boolean;
  progress: { done: number; total: number };
  error: string | null;
  report: {
    created: Array<Entry & { websiteId: number; publicId: string }>;
    wouldCreate: Entry[];
    duplicates: Array<Entry & { websiteId: number | null }>;
    unsupported: Array<Entry & { sourceType: string; reason: string }>;
    invalid: Array<Entry & { errors: Array<{ path: string; message: string }> }>;
    adjusted: Array<Entry & { changes: string[] }>;
    monitors: Array<
      Entry & {
        kind: string;
        status: 'created' | 'would-create' | 'exists';
        monitorId: number | null;
        website: { id: number | null; publicId: string | null; name: string };
        via: 'host' | 'attachTo' | 'name';
      }
    >;
  };
}

/** Imports into an API without a worker: websites are stored and scheduled, nothing is checked (no network). */
describe('imports: other tools’ monitors become websites', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let customerId: number;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    ({ organizationId, token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token, { limits: { minCheckIntervalSeconds: 60 } });
    customerId = await createCustomer(api, token, pkg.id, 'Acme');
  }, 60_000);
  afterAll(() => api.stop());

  /** The import once it has ended (its progress polled as the app does). */
  const finished = async (id: number) => {
    let job: ImportJob | undefined;
    await expect
      .poll(
        async () => {
          job = (await api.request<ImportJob>('GET', `/api/imports/${id}`, { token })).body;
          return job.status;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe('succeeded');
    const ended = job as ImportJob;
    expect(ended.progress.done).toBe(ended.progress.total);
    return ended;
  };
  /** Starts an import and waits for it to end. */
  const run = async (body: Record<string, unknown>) => {
    const started = await api.request<ImportJob>('POST', '/api/imports', { token, body });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.headers.get('location')).toBe(`/api/imports/${started.body.id}`);
    return finished(started.body.id);
  };

  it('an Uptime Kuma backup: its HTTP and keyword monitors with their settings; the others listed with why; run again, nothing twice', async () => {
    const body = { format: 'uptime-kuma', content: fixture('uptime-kuma-backup.json'), customerId };
    const dry = await run({ ...body, dryRun: true });
    expect(dry.report.wouldCreate.map((e) => e.name)).toEqual([
      'Orders API (POST, basic auth)',
      'Homepage keyword',
      'Error page must not show',
    ]);
    expect(dry.report.created).toEqual([]);

    const job = await run(body);
    expect(job.report.created.map((e) => e.name)).toEqual(dry.report.wouldCreate.map((e) => e.name));
    expect(job.report.unsupported.map((e) => `${e.name}: ${e.sourceType}`)).toEqual([
      'Production: group',
      'Router ping: ping',
      'Postgres port: port',
      'Nightly backup job: push',
    ]);
    // The backup's ping and port monitors are of hosts the customer has no website of.
    expect(job.report.unsupported[1]?.reason).toBe(
      'no website of host 192.0.2.1 in the customer: import its website too, or choose one to attach monitors to (attachTo)',
    );
    expect(job.report.adjusted).toEqual([
      expect.objectContaining({
        name: 'Orders API (POST, basic auth)',
        changes: ["interval 30 s raised to 60 s (the package's minimum)"],
      }),
    ]);
    const orders = job.report.created[0]?.publicId;
    const website = await api.request<{
      httpMethod: string;
      customHeaders: Record<string, string>;
      secretHeaderNames: string[];
      requestBody: string;
      checkInterval: number;
      maxRedirects: number;
    }>('GET', `/api/websites/${orders}`, { token });
    expect(website.body).toMatchObject({
      httpMethod: 'POST',
      customHeaders: { Accept: 'application/json' },
      requestBody: '{\n    "ping": true\n}',
      checkInterval: 60,
      maxRedirects: 5,
    });
    expect(website.body.secretHeaderNames.sort()).toEqual(['Authorization', 'X-Api-Key']);
    expect(JSON.stringify(website.body)).not.toContain('s3cr3t');
    const config = await api.request<{ expectedStatusCodes: string[] }>(
      'GET',
      `/api/websites/${orders}/check-config`,
      {
        token,
      },
    );
    expect(config.body.expectedStatusCodes).toEqual(['200-299', '401']);
    const inverted = job.report.created[2]?.publicId;
    expect(
      (
        await api.request<{ keyword: string; keywordMode: string }>(
          'GET',
          `/api/websites/${inverted}/check-config`,
          { token },
        )
      ).body,
    ).toMatchObject({ keyword: 'Internal Server Error', keywordMode: 'absent', checkKeywordEnabled: true });

    const again = await run(body);
    expect(again.report.created).toEqual([]);
    expect(again.report.duplicates.map((e) => e.websiteId)).toEqual(
      job.report.created.map((e) => e.websiteId),
    );
  });

  it('UptimeRobot’s getMonitors answer and its CSV export (the customer from a column, by name)', async () => {
    const json = await run({
      format: 'uptimerobot-json',
      content: fixture('uptimerobot-getmonitors.json'),
      customerId,
    });
    // The Kuma import made these URLs for Acme already: found, not made again.
    expect(json.report.duplicates.map((e) => e.name)).toEqual([
      'Orders API',
      'Homepage keyword',
      'Error page must not show',
    ]);
    const other = await createCustomer(api, token, (await createPackage(api, token)).id, 'Globex');
    const csv = fixture('uptimerobot-export.csv')
      .trim()
      .split('\n')
      .map((line, i) => `${line},${i === 0 ? 'Client' : i === 2 ? 'Nobody Inc' : 'globex'}`)
      .join('\n');
    const job = await run({ format: 'uptimerobot-csv', content: csv, customerColumn: 'Client' });
    expect(job.report.created.map((e) => e.name)).toEqual(['Orders API']);
    expect(job.report.invalid).toEqual([
      expect.objectContaining({
        name: 'Homepage keyword',
        errors: [{ path: 'customer', message: 'no customer named "Nobody Inc" in your organization' }],
      }),
    ]);
    const created = await api.request<{ customerId: number }>(
      'GET',
      `/api/websites/${job.report.created[0]?.publicId}`,
      {
        token,
      },
    );
    expect(created.body.customerId).toBe(other);
  });

  it('monitors of other kinds (ping, port, DNS, push, gRPC, WebSocket, mail) become checks of the website of their host, else of attachTo; run again, nothing twice', async () => {
    const pkg = await createPackage(api, token, { limits: { minCheckIntervalSeconds: 60 } });
    const shopLtd = await createCustomer(api, token, pkg.id, 'Shop Ltd');
    const kuma = { format: 'uptime-kuma', content: fixture('uptime-kuma-checks.json'), customerId: shopLtd };
    /** Each check of the report: name, kind, what became of it, and where it went. */
    const checks = (job: ImportJob) =>
      job.report.monitors.map((m) => `${m.name}: ${m.kind} ${m.status} on ${m.website.name} (${m.via})`);
    const onShop = ['Shop ping: icmp', 'Shop HTTPS port: port', 'Shop DNS: dns', 'Live feed: websocket'];

    // A dry run: the website of their host is one this import would make.
    const dry = await run({ ...kuma, dryRun: true });
    expect(dry.report.wouldCreate.map((e) => e.name)).toEqual(['Shop']);
    expect(checks(dry)).toEqual(onShop.map((c) => `${c} would-create on Shop (host)`));
    expect(dry.report.monitors[0]?.website.id).toBeNull();

    const first = await run(kuma);
    const shop = first.report.created[0] as ImportJob['report']['created'][number];
    expect(checks(first)).toEqual(onShop.map((c) => `${c} created on Shop (host)`));
    expect(first.report.unsupported.map((e) => `${e.name} (${e.sourceType}): ${e.reason}`)).toEqual([
      'Zone SOA (dns): its record type SOA is not one webmon checks (A, AAAA, CNAME, MX, TXT, NS, CAA)',
      'Nightly backup (push): a heartbeat has no host, and no website of the customer is named "Nightly backup": choose one to attach monitors to (attachTo)',
      'Orders gRPC (grpc-keyword): no website of host grpc.example.org in the customer: import its website too, or choose one to attach monitors to (attachTo)',
      'Office router (ping): no website of host 203.0.113.7 in the customer: import its website too, or choose one to attach monitors to (attachTo)',
      'Outgoing mail (smtp): no website of host mail.example.org in the customer: import its website too, or choose one to attach monitors to (attachTo)',
    ]);
    const listed = async (ref: string) =>
      (
        await api.request<{ items: Array<{ id: number; kind: string; name: string }> }>(
          'GET',
          `/api/websites/${ref}/monitors`,
          { token },
        )
      ).body.items;
    const shopChecks = await listed(shop.publicId);
    expect(shopChecks.map((m) => `${m.name}: ${m.kind}`)).toEqual(onShop);
    expect(shopChecks.map((m) => m.id)).toEqual(first.report.monitors.map((m) => m.monitorId));

    // attachTo names a website of the customer: unknown, or another customer's, is refused at once.
    const refusedAt = async (attachTo: string) => {
      const answer = await api.request<{ errors: Array<{ path: string }> }>('POST', '/api/imports', {
        token,
        body: { ...kuma, attachTo },
      });
      expect(answer.status).toBe(400);
      return answer.body.errors.map((e) => e.path);
    };
    expect(await refusedAt('999999')).toEqual(['attachTo']);
    const elsewhere = await api.request<{ publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Elsewhere', url: 'https://elsewhere.example.org/' },
    });
    expect(await refusedAt(elsewhere.body.publicId)).toEqual(['attachTo']);

    const office = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId: shopLtd, name: 'Office', url: 'https://office.example.org/' },
    });
    const second = await run({ ...kuma, attachTo: office.body.publicId });
    expect(second.report.duplicates.map((e) => e.websiteId)).toEqual([shop.websiteId]);
    expect(checks(second)).toEqual([
      ...onShop.slice(0, 3).map((c) => `${c} exists on Shop (host)`),
      'Nightly backup: heartbeat created on Office (attachTo)',
      'Orders gRPC: grpc created on Office (attachTo)',
      'Live feed: websocket exists on Shop (host)',
      'Office router: icmp created on Office (attachTo)',
      'Outgoing mail: smtp created on Office (attachTo)',
    ]);
    expect(second.report.monitors.filter((m) => m.status === 'exists').map((m) => m.monitorId)).toEqual(
      first.report.monitors.map((m) => m.monitorId),
    );
    const officeChecks = await listed(String(office.body.id));
    expect(officeChecks.map((m) => `${m.name}: ${m.kind}`)).toEqual([
      'Nightly backup: heartbeat',
      'Orders gRPC: grpc',
      'Office router: icmp',
      'Outgoing mail: smtp',
    ]);
    // What Kuma had that is not carried is said; no credential is in the report.
    expect(second.report.adjusted.map((e) => e.name)).toEqual([
      'Nightly backup',
      'Orders gRPC',
      'Office router',
    ]);
    expect(JSON.stringify(second)).not.toContain('tok-live-123');

    // Run again: every check is there already.
    const third = await run({ ...kuma, attachTo: office.body.publicId });
    expect(third.report.monitors.map((m) => m.status)).toEqual(Array(8).fill('exists'));

    // UptimeRobot's answer into the same customer: what Kuma's import made is found, the rest made.
    const robot = await run({
      format: 'uptimerobot-json',
      content: fixture('uptimerobot-checks.json'),
      customerId: shopLtd,
      attachTo: office.body.publicId,
    });
    expect(robot.report.created.map((e) => e.name)).toEqual(['Shop keyword']);
    expect(checks(robot)).toEqual([
      'Shop ping: icmp exists on Shop (host)',
      'Shop HTTPS port: port exists on Shop (host)',
      'Shop mail: smtp created on Shop (host)',
      'Shop IMAP: imap created on Shop (host)',
      'Postgres: port created on Office (attachTo)',
      'Nightly backup: heartbeat exists on Office (attachTo)',
    ]);
  }, 60_000);

  it('a check the package refuses is reported with the API’s reason (dry run and real), never a failed import', async () => {
    const pkg = await createPackage(api, token, { features: { icmpChecks: false } });
    const noPing = await createCustomer(api, token, pkg.id, 'No ping');
    const body = {
      format: 'uptimerobot-json',
      content: fixture('uptimerobot-checks.json'),
      customerId: noPing,
    };
    for (const dryRun of [true, false]) {
      const job = await run({ ...body, dryRun });
      expect(job.report.invalid).toEqual([
        expect.objectContaining({
          name: 'Shop ping',
          errors: [{ path: '', message: `The package "Package ${pkg.key}" does not include icmpChecks` }],
        }),
      ]);
      expect(job.report.monitors.map((m) => m.name)).toEqual(['Shop HTTPS port', 'Shop mail', 'Shop IMAP']);
    }
  });

  it('one import at a time; a dry run counts the package’s maxWebsites across the whole file; no credential in the report', async () => {
    const limited = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { limits: { maxWebsites: 300, minCheckIntervalSeconds: 60 } })).id,
      'Limited',
    );
    const rows = Array.from(
      { length: 600 },
      (_, i) => `Site ${i},https://admin:pw-${i}-secret@s${i}.example.com/`,
    );
    const started = await api.request<ImportJob>('POST', '/api/imports', {
      token,
      body: { format: 'csv', content: `name,url\n${rows.join('\n')}\n`, customerId: limited, dryRun: true },
    });
    expect(started.status).toBe(202);
    const second = await api.request<{ detail: string; reason: string }>('POST', '/api/imports', {
      token,
      body: { format: 'csv', content: 'name,url\nA,https://a.example/\n', customerId },
    });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(second.body).toMatchObject({ reason: 'imports-per-organization' });
    expect(second.body.detail).toContain(`Import ${started.body.id} is running`);
    const job = await finished(started.body.id);
    expect(job.report.wouldCreate).toHaveLength(300);
    expect(job.report.invalid).toHaveLength(300);
    expect(job.report.invalid[0]?.errors.map((e) => e.path)).toEqual(['customerId']);
    expect(job.report.wouldCreate[0]?.url).toBe('https://s0.example.com/');
    expect(JSON.stringify(job)).not.toMatch(/pw-\d+-secret/);
    // Over: the next import runs.
    expect(
      (await run({ format: 'csv', content: 'name,url\nA2,https://a2.example/\n', customerId })).report
        .created,
    ).toHaveLength(1);
  }, 60_000);

  it('imports started at the same moment, over the marker of a process that died running one: one runs, the others are refused', async () => {
    const other = await api.createOrganization(['admin']);
    const pkg = await createPackage(api, other.token, { limits: { minCheckIntervalSeconds: 60 } });
    const owner = await createCustomer(api, other.token, pkg.id, 'At once');
    // What a process killed between claiming its run and storing its job leaves: a marker whose job
    // is nowhere, taken over by the next import (on FerretDB a conditional replace reads, then
    // writes: without the run's lock, several could take it over at once).
    await api.db
      .collection<{ _id: string; jobId: number }>('imports')
      .insertOne({ _id: `running/${other.organizationId}`, jobId: 999_999 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.request<ImportJob>('POST', '/api/imports', {
          token: other.token,
          body: {
            format: 'csv',
            content: `name,url\nS${i},https://s${i}.example/\n`,
            customerId: owner,
            dryRun: true,
          },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(19);
  }, 60_000);

  it('refuses at once what cannot be imported: not the format, no customer, someone else’s; reads only its own organization’s', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const answer = await api.request<{ errors: Array<{ path: string; message: string }> }>(
        'POST',
        '/api/imports',
        {
          token,
          body,
        },
      );
      expect(answer.status).toBe(400);
      return answer.body.errors.map((e) => e.path);
    };
    expect(
      await refused({ format: 'uptime-kuma', content: fixture('uptimerobot-getmonitors.json'), customerId }),
    ).toEqual(['content']);
    expect(await refused({ format: 'csv', content: 'name,url\nA,https://a.example/\n' })).toEqual([
      'customerId',
    ]);
    expect(await refused({ format: 'uptime-kuma', content: '{}', customerColumn: 'x' })).toEqual([
      'customerColumn',
    ]);
    expect(await refused({ format: 'csv', content: 'name\nA\n', customerId })).toEqual(['content']);
    const other = await api.createOrganization(['admin']);
    const theirs = await createCustomer(api, other.token, (await createPackage(api, other.token)).id);
    expect(
      await refused({ format: 'csv', content: 'name,url\nA,https://a.example/\n', customerId: theirs }),
    ).toEqual(['customerId']);
    const mine = await run({ format: 'csv', content: 'name,url\nA,https://a.example/\n', customerId });
    expect((await api.request('GET', `/api/imports/${mine.id}`, { token: other.token })).status).toBe(404);
    const viewer = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
    expect((await withCookie(api, viewer, 'GET', `/api/imports/${mine.id}`)).status).toBe(200);
    expect(
      (
        await withCookie(api, viewer, 'POST', '/api/imports', {
          body: { format: 'csv', content: 'name,url\nB,https://b.example/\n', customerId },
        })
      ).status,
    ).toBe(403);
  });
});
