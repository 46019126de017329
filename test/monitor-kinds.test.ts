import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, type TestApi, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { issue } from './support/pki-forge.js';
import {
  type Running,
  startGrpcHealthServer,
  startMailServer,
  startUdpServer,
  startWebSocketServer,
} from './support/service-servers.js';

interface Problem {
  status: number;
  errors?: Array<{ path: string; message: string }>;
}
interface MonitorView {
  id: number;
  kind: string;
  name: string;
  status: string;
  lastCause: string | null;
  headers?: Record<string, string>;
}
interface ResultView {
  kind: string;
  monitorId: number;
  status: string;
  cause: string | null;
  timings?: Record<string, number | null>;
  evidence?: Record<string, unknown>;
}

describe('checks of every probe kind through one registry, end to end (API → worker → results)', {
  timeout: 120_000,
}, () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let websiteId: number;
  const servers: Running[] = [];
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    const ca = issue({ commonName: 'Kinds Test CA', isCa: true, validToDays: 365 });
    const caFile = join(mkdtempSync(join(tmpdir(), 'webmon-kinds-')), 'ca.pem');
    writeFileSync(caFile, ca.cert);
    const leaf = issue({ commonName: '127.0.0.1', names: ['127.0.0.1'], issuer: ca, validToDays: 90 });
    const run = async (server: Promise<Running>) => {
      const running = await server;
      servers.push(running);
      return running.port;
    };
    ports.smtp = await run(startMailServer('smtp', leaf));
    ports.imaps = await run(startMailServer('imap', leaf, { implicitTls: true }));
    ports.udp = await run(startUdpServer((datagram) => Buffer.concat([Buffer.from('PONG '), datagram])));
    ports.ws = await run(
      startWebSocketServer({
        protocols: ['v1'],
        requireHeader: { name: 'Authorization', value: 'Bearer s3cret-token' },
      }),
    );
    ports.wsQuery = await run(startWebSocketServer({ requireQuery: { name: 'token', value: 'q-s3cret-9' } }));
    ports.grpc = await run(startGrpcHealthServer({ '': 'SERVING', 'shop.Cart': 'NOT_SERVING' }));
    stack = await startMonitoringStack('kinds-node', {}, { PROBE_EXTRA_CA_FILE: caFile });
    ({ api, token } = stack);
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: stack.customerId, name: 'Shop', url: stack.target.url, checkInterval: 60 },
    });
    expect(website.status).toBe(201);
    websiteId = website.body.id;
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all(servers.map((server) => server.close()));
  });

  const create = (body: Record<string, unknown>) =>
    api.request<MonitorView & Problem>('POST', `/api/websites/${websiteId}/monitors`, { token, body });
  const monitor = async (id: number) =>
    (await api.request<MonitorView>('GET', `/api/monitors/${id}`, { token })).body;
  const results = async (id: number) =>
    (await api.request<{ items: ResultView[] }>('GET', `/api/monitors/${id}/results`, { token })).body.items;

  it('each kind against its local server: up where it answers as expected, down with why where not', async () => {
    const made = {
      smtp: await create({
        kind: 'smtp',
        host: '127.0.0.1',
        port: ports.smtp,
        security: 'starttls',
        intervalSeconds: 10,
      }),
      imap: await create({
        kind: 'imap',
        host: '127.0.0.1',
        port: ports.imaps,
        security: 'tls',
        intervalSeconds: 10,
      }),
      udp: await create({
        kind: 'udp',
        host: '127.0.0.1',
        port: ports.udp,
        payload: 'PING',
        expect: { matches: '^PONG' },
        intervalSeconds: 10,
      }),
      websocket: await create({
        kind: 'websocket',
        url: `ws://127.0.0.1:${ports.ws}/live`,
        subprotocol: 'v1',
        headers: { Authorization: 'Bearer s3cret-token' },
        send: 'hello',
        expect: { contains: 'hello' },
        intervalSeconds: 10,
      }),
      wsLogin: await create({
        kind: 'websocket',
        url: `ws://127.0.0.1:${ports.wsQuery}/live?room=ops`,
        query: { token: 'q-s3cret-9' },
        secrets: { PASSWORD: 'p4ss-word-9' },
        send: 'login {{secret.PASSWORD}}',
        expect: { contains: 'login {{secret.PASSWORD}}' },
        intervalSeconds: 10,
      }),
      grpc: await create({ kind: 'grpc', host: '127.0.0.1', port: ports.grpc, intervalSeconds: 10 }),
      cart: await create({
        kind: 'grpc',
        host: '127.0.0.1',
        port: ports.grpc,
        service: 'shop.Cart',
        intervalSeconds: 10,
      }),
      icmp: await create({ kind: 'icmp', host: '127.0.0.1', count: 2, intervalSeconds: 10 }),
    };
    for (const [name, answer] of Object.entries(made))
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(201);
    expect(made.smtp.body).toMatchObject({ kind: 'smtp', name: `SMTP 127.0.0.1:${ports.smtp}` });
    // A credential header is write-only: never shown back, never in a result.
    expect(made.websocket.body.headers).toEqual({ Authorization: '(set)' });
    const up = ['smtp', 'imap', 'udp', 'websocket', 'grpc', 'icmp'] as const;
    for (const name of up)
      await until(async () => (await monitor(made[name].body.id)).status === 'up', 30_000).catch(async () => {
        throw new Error(
          `${name} not up: ${JSON.stringify(await monitor(made[name].body.id))} ${JSON.stringify(await results(made[name].body.id))}`,
        );
      });
    await until(async () => (await monitor(made.cart.body.id)).status === 'down', 40_000);
    expect((await monitor(made.cart.body.id)).lastCause).toBe(
      'the health service says NOT_SERVING for shop.Cart',
    );

    const [smtpResult] = await results(made.smtp.body.id);
    expect(smtpResult).toMatchObject({
      kind: 'smtp',
      status: 'up',
      evidence: { greeting: expect.stringContaining('220') },
    });
    expect(smtpResult?.timings?.starttlsMs).toBeGreaterThan(0);
    const [udpResult] = await results(made.udp.body.id);
    expect(udpResult?.evidence).toMatchObject({ reply: 'PONG PING' });
    // Up above means the header was opened and sent; at rest it is sealed, in results it is absent.
    const wsResults = await results(made.websocket.body.id);
    expect(JSON.stringify(wsResults)).not.toContain('s3cret-token');
    const stored = await api.db.collection('website_monitors').findOne({ id: made.websocket.body.id });
    expect(JSON.stringify(stored)).not.toContain('s3cret-token');
    // A token in the query and a secret the message names: up means both reached the server, yet
    // neither is in the view, the stored document or the results (the server's echo is blanked).
    expect(made.wsLogin.body).toMatchObject({ query: { token: '(set)' }, secrets: { PASSWORD: '(set)' } });
    const loginResults = await results(made.wsLogin.body.id);
    expect(loginResults[0]?.evidence).toMatchObject({ reply: 'login [redacted]' });
    const loginStored = await api.db.collection('website_monitors').findOne({ id: made.wsLogin.body.id });
    expect(JSON.stringify([loginResults, loginStored])).not.toMatch(/q-s3cret-9|p4ss-word-9/);
    const unknownSecret = await api.request<Problem>('PATCH', `/api/monitors/${made.wsLogin.body.id}`, {
      token,
      body: { send: 'login {{secret.PASWORD}}' },
    });
    expect(unknownSecret.status).toBe(400);
    expect(unknownSecret.body.errors?.[0]).toMatchObject({ path: 'send' });
    const inUrl = await create({ kind: 'websocket', url: 'ws://127.0.0.1:1/?access_token=abc' });
    expect(inUrl.status).toBe(400);
    expect(inUrl.body.errors?.[0]?.path).toBe('url');
    // "(set)" keeps it through a PATCH of the headers; the check stays up with it.
    const patched = await api.request<MonitorView>('PATCH', `/api/monitors/${made.websocket.body.id}`, {
      token,
      body: { headers: { Authorization: '(set)', 'X-Client': 'webmon' } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.headers).toEqual({ 'X-Client': 'webmon', Authorization: '(set)' });
    const rerun = await api.request<{ status: string }>(
      'POST',
      `/api/monitors/${made.websocket.body.id}/run`,
      { token },
    );
    expect(rerun.body.status).toBe('up');
  });

  it('refuses what cannot run when written: unknown fields, a bad pattern, a blocked address, a kind the package leaves out', async () => {
    const misspelt = await create({ kind: 'udp', host: '127.0.0.1', port: 53, paylod: 'x' });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.errors?.map((e) => e.path)).toContain('paylod');
    const pattern = await create({ kind: 'udp', host: '127.0.0.1', port: 53, expect: { matches: '(a)\\1' } });
    expect(pattern.status).toBe(400);
    expect(pattern.body.errors?.[0]?.path).toMatch(/^expect/);
    const unknownKind = await create({ kind: 'telnet', host: '127.0.0.1' });
    expect(unknownKind.status).toBe(400);
    // Ten echo requests half a second apart cannot finish within 3 s: every check would read down.
    const tooShort = await create({ kind: 'icmp', host: '127.0.0.1', count: 10, timeoutSeconds: 3 });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors?.[0]?.path).toBe('timeoutSeconds');
    // PATCH /api/monitors/{id} of a built-in kind is validated as its own route validates it.
    const job = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/heartbeats`, {
      token,
      body: { name: 'Nightly', schedule: { periodSeconds: 3600 } },
    });
    for (const body of [{ schedule: 42 }, { kind: 'icmp' }, { id: 1, websiteId: 999 }]) {
      const patched = await api.request<Problem>('PATCH', `/api/monitors/${job.body.id}`, { token, body });
      expect(patched.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await api.request<{ kind: string }>('GET', `/api/monitors/${job.body.id}`, { token })).body.kind,
    ).toBe('heartbeat');

    const guarded = await startMonitoringStack(
      'kinds-guarded',
      {},
      { ALLOW_PRIVATE_TARGETS: 'false', PROBE_EXEMPT_ADDRESSES: '10.0.0.5:8443' },
    );
    try {
      const site = await guarded.api.request<{ id: number }>('POST', '/api/websites', {
        token: guarded.token,
        body: { customerId: guarded.customerId, name: 'Public', url: 'https://public.example/' },
      });
      const blocked = await guarded.api.request<Problem>('POST', `/api/websites/${site.body.id}/monitors`, {
        token: guarded.token,
        body: { kind: 'icmp', host: '10.0.0.1' },
      });
      expect(blocked.status).toBe(400);
      expect(blocked.body.errors?.[0]?.path).toBe('host');
      // An exemption that names a port admits that port only, when written as at each check.
      const onPort = (port: number, kind = 'udp') =>
        guarded.api.request<Problem>('POST', `/api/websites/${site.body.id}/monitors`, {
          token: guarded.token,
          body:
            kind === 'port'
              ? { kind, host: '10.0.0.5', port }
              : { kind, host: '10.0.0.5', port, payload: 'x' },
        });
      expect((await onPort(8443)).status).toBe(201);
      expect((await onPort(8443, 'port')).status).toBe(201);
      const otherPort = await onPort(6379, 'port');
      expect(otherPort.status).toBe(400);
      expect(otherPort.body.errors?.[0]).toMatchObject({
        path: 'host',
        message: expect.stringContaining('not on port 6379'),
      });
    } finally {
      await guarded.stop();
    }

    const plain = await createPackage(api, token, { features: { mailServerChecks: false } });
    const other = await createCustomer(api, token, plain.id, 'No mail');
    const site = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: other, name: 'Other', url: 'https://other.example/' },
    });
    const refused = await api.request<Problem>('POST', `/api/websites/${site.body.id}/monitors`, {
      token,
      body: { kind: 'pop3', host: '127.0.0.1' },
    });
    expect(refused.status).toBe(403);
  });

  it('POST …/monitors makes every kind, heartbeat, DNS and port checks too, as their own routes make them', async () => {
    const heartbeat = await create({
      kind: 'heartbeat',
      name: 'Nightly backup',
      schedule: { periodSeconds: 86_400 },
    });
    expect(heartbeat.status, JSON.stringify(heartbeat.body)).toBe(201);
    expect(heartbeat.body).toMatchObject({ kind: 'heartbeat', name: 'Nightly backup' });
    const dns = await create({ kind: 'dns', recordType: 'A', host: 'localhost', expected: ['127.0.0.1'] });
    expect(dns.status, JSON.stringify(dns.body)).toBe(201);
    expect(dns.body).toMatchObject({ kind: 'dns', name: 'A localhost' });
    const port = await create({ kind: 'port', host: '127.0.0.1', port: ports.smtp, intervalSeconds: 60 });
    expect(port.status, JSON.stringify(port.body)).toBe(201);
    expect(port.body).toMatchObject({ kind: 'port', name: `127.0.0.1:${ports.smtp}` });
    // Each kind's own schema: a DNS value its record type cannot hold, a field a port check does not know.
    const badValue = await create({ kind: 'dns', recordType: 'A', expected: ['not-an-address'] });
    expect(badValue.status).toBe(400);
    expect(badValue.body.errors?.map((e) => e.path)).toContain('expected.0');
    const misspelt = await create({ kind: 'port', port: 25, bannner: '220' });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.errors?.map((e) => e.path).join()).toMatch(/bannner/);
    const listed = await api.request<{ items: Array<{ id: number; kind: string }> }>(
      'GET',
      `/api/websites/${websiteId}/monitors`,
      { token },
    );
    for (const made of [heartbeat, dns, port])
      expect(listed.body.items).toContainEqual(
        expect.objectContaining({ id: made.body.id, kind: made.body.kind }),
      );
    for (const made of [heartbeat, dns, port])
      expect((await api.request('DELETE', `/api/monitors/${made.body.id}`, { token })).status).toBe(204);
  });

  it('POST …/run answers what the check finds now, without storing it; a heartbeat is not run', async () => {
    const created = await create({
      kind: 'udp',
      host: '127.0.0.1',
      port: ports.udp,
      payload: 'NOW',
      intervalSeconds: 3600,
    });
    const id = created.body.id;
    const run = await api.request<{
      status: string;
      evidence: { reply: string };
      timings: Record<string, number>;
    }>('POST', `/api/monitors/${id}/run`, { token });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toMatchObject({ status: 'up', evidence: { reply: 'PONG NOW' } });
    expect(run.body.timings.replyMs).toBeGreaterThan(0);
    // Not stored: the worker's own first check may be there, the run is not (its moment is its own).
    const stored = (await results(id)) as Array<ResultView & { at: string }>;
    expect(stored.map((r) => r.at)).not.toContain((run.body as { startedAt?: string }).startedAt);
    const heartbeat = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/heartbeats`, {
      token,
      body: { name: 'Job', schedule: { periodSeconds: 3600 }, graceSeconds: 60 },
    });
    expect((await api.request('POST', `/api/monitors/${heartbeat.body.id}/run`, { token })).status).toBe(409);
    expect((await api.request('POST', '/api/monitors/999999/run', { token })).status).toBe(404);
  });

  it('the website’s results list every kind: ?kind= merges that kind’s monitors newest first, ?monitorId= one, pages by cursor', async () => {
    const base = `/api/websites/${websiteId}/results`;
    type Page = {
      items: Array<{ kind: string; monitorId: number; startedAt: string; status: string }>;
      nextCursor: string | null;
    };
    const http = await api.request<Page>('GET', `${base}?kind=http`, { token });
    expect(http.status).toBe(200);
    expect(http.body.items.length).toBeGreaterThan(0);
    expect(http.body.items.every((item) => item.kind === 'http')).toBe(true);
    // Without a filter: every kind, the HTTP check's beside the others', newest first, paged without
    // a result twice or left out. Results are stored as checks finish, so one started before a page was
    // read may be stored after it: every result stored before paging began must be among the pages,
    // and every paged one is still listed after.
    const key = (item: Page['items'][number]) => `${item.kind}:${item.monitorId}@${item.startedAt}`;
    const before = await api.request<Page>('GET', `${base}?limit=1000`, { token });
    const everything: string[] = [];
    const kinds = new Set<string>();
    let at: string | null = null;
    do {
      const page: { status: number; body: Page } = await api.request<Page>(
        'GET',
        `${base}?limit=7${at ? `&cursor=${at}` : ''}`,
        { token },
      );
      expect(page.status).toBe(200);
      for (const item of page.body.items) {
        kinds.add(item.kind);
        everything.push(key(item));
      }
      at = page.body.nextCursor;
    } while (at && everything.length < 2000);
    expect(kinds).toEqual(new Set(['http', 'grpc', 'udp', 'websocket', 'smtp', 'imap', 'icmp']));
    expect(new Set(everything).size).toBe(everything.length);
    const moments = everything.map((entry) => Date.parse(entry.slice(entry.indexOf('@') + 1)));
    expect(moments).toEqual([...moments].sort((a, b) => b - a));
    const paged = new Set(everything);
    expect(before.body.items.map(key).filter((item) => !paged.has(item))).toEqual([]);
    const later = new Set(
      (await api.request<Page>('GET', `${base}?limit=1000`, { token })).body.items.map(key),
    );
    expect(everything.filter((item) => !later.has(item))).toEqual([]);
    const grpc = await api.request<Page>('GET', `${base}?kind=grpc`, { token });
    expect(grpc.status).toBe(200);
    expect(grpc.body.items.length).toBeGreaterThan(0);
    expect(new Set(grpc.body.items.map((item) => item.kind))).toEqual(new Set(['grpc']));
    // Two gRPC checks (SERVING and NOT_SERVING): both in the merged list, newest first.
    expect(new Set(grpc.body.items.map((item) => item.status))).toEqual(new Set(['up', 'down']));
    const times = grpc.body.items.map((item) => Date.parse(item.startedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Pages of one: every result once, newest first, until the cursor runs out; those stored before
    // paging began all among them.
    const grpcBefore = await api.request<Page>('GET', `${base}?kind=grpc&limit=1000`, { token });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Page } = await api.request<Page>(
        'GET',
        `${base}?kind=grpc&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      seen.push(...page.body.items.map((item) => `${item.monitorId}@${item.startedAt}`));
      cursor = page.body.nextCursor;
    } while (cursor && seen.length < 200);
    expect(new Set(seen).size).toBe(seen.length);
    const seenMoments = seen.map((item) => Date.parse(item.slice(item.indexOf('@') + 1)));
    expect(seenMoments).toEqual([...seenMoments].sort((a, b) => b - a));
    const seenSet = new Set(seen);
    expect(
      grpcBefore.body.items
        .map((item) => `${item.monitorId}@${item.startedAt}`)
        .filter((item) => !seenSet.has(item)),
    ).toEqual([]);
    const one = grpcBefore.body.items[0]?.monitorId as number;
    const only = await api.request<Page>('GET', `${base}?monitorId=${one}`, { token });
    expect(new Set(only.body.items.map((item) => item.monitorId))).toEqual(new Set([one]));
    expect((await api.request<Problem>('GET', `${base}?monitorId=999999`, { token })).status).toBe(404);
    expect(
      (await api.request<Problem>('GET', `${base}?kind=grpc&cursor=bm90IGEgY3Vyc29y`, { token })).status,
    ).toBe(400);
  });

  it('a monitor’s uptime from its incidents and results: the SERVING check 100 %, the NOT_SERVING one down since its start', async () => {
    type Uptime = {
      uptimePercent: number | null;
      checks: number;
      downtimeSeconds: number;
      responseTimeMs: { p50: number | null };
    };
    const listed = await api.request<{ items: MonitorView[] }>('GET', `/api/websites/${websiteId}/monitors`, {
      token,
    });
    const grpcChecks = listed.body.items.filter((m) => m.kind === 'grpc');
    const serving = grpcChecks.find((m) => m.status === 'up');
    const cart = grpcChecks.find((m) => m.status === 'down');
    expect(serving && cart).toBeTruthy();
    const up = await api.request<Uptime>('GET', `/api/monitors/${serving?.id}/uptime?period=24h`, { token });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ uptimePercent: 100, downtimeSeconds: 0 });
    expect(up.body.checks).toBeGreaterThan(0);
    expect(up.body.responseTimeMs.p50).toBeGreaterThan(0);
    const down = await api.request<Uptime>('GET', `/api/monitors/${cart?.id}/uptime?period=7d`, { token });
    expect(down.body.uptimePercent).toBeLessThan(100);
    expect(down.body.downtimeSeconds).toBeGreaterThanOrEqual(0);
    expect(
      (await api.request<Problem>('GET', `/api/monitors/${serving?.id}/uptime?period=1y`, { token })).status,
    ).toBe(400);
  });

  it('PATCH re-validates the kind’s fields over what is stored; DELETE removes it', async () => {
    const created = await create({
      kind: 'udp',
      host: '127.0.0.1',
      port: ports.udp,
      payload: 'PING',
      intervalSeconds: 10,
    });
    const id = created.body.id;
    const changed = await api.request<MonitorView & { payload: string }>('PATCH', `/api/monitors/${id}`, {
      token,
      body: { payload: 'cafe', payloadEncoding: 'hex', name: 'Binary ping' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Binary ping', payload: 'cafe' });
    const bad = await api.request<Problem>('PATCH', `/api/monitors/${id}`, {
      token,
      body: { payload: 'zz', payloadEncoding: 'hex' },
    });
    expect(bad.status).toBe(400);
    expect((await api.request('DELETE', `/api/monitors/${id}`, { token })).status).toBe(204);
    expect((await api.request('GET', `/api/monitors/${id}`, { token })).status).toBe(404);
  });
});
