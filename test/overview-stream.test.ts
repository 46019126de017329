import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, type TestApi, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn } from './support/people.js';

interface SseEvent {
  type: string;
  id: string | undefined;
  data: string;
}

/** An open overview stream: the events read so far, and whether the server ended it. */
interface OpenStream {
  status: number;
  events: SseEvent[];
  ended: Promise<void>;
  close(): void;
}

async function openStream(api: TestApi, headers: Record<string, string>): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`${api.api.url}/api/dashboard/websites/stream`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const block = buffered.slice(0, end).split('\n');
          buffered = buffered.slice(end + 2);
          const field = (name: string) =>
            block.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          const data = field('data');
          if (data !== undefined) events.push({ type: field('event') ?? 'message', id: field('id'), data });
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return { status: response.status, events, ended, close: () => abort.abort() };
}

const changesOf = (stream: OpenStream, websiteId: number) =>
  stream.events
    .filter((event) => event.type === 'change')
    .map((event) => JSON.parse(event.data) as { id: number; status: string; check: { status: string } })
    .filter((change) => change.id === websiteId);

/** A local site whose answer the test sets. */
async function startSite(): Promise<{ url: string; status: number; close(): Promise<void> }> {
  const site = {
    url: '',
    status: 200,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((_req, res) => {
    res.statusCode = site.status;
    res.end('hello');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return site;
}

describe('the overview’s live stream (server-sent events from the worker’s checks)', {
  timeout: 120_000,
}, () => {
  let stack: MonitoringStack;
  let site: Awaited<ReturnType<typeof startSite>>;
  let websiteId: number;
  let otherCustomer: number;
  let ownClient: string;
  let otherClient: string;
  let otherOrgToken: string;

  beforeAll(async () => {
    stack = await startMonitoringStack('overview-stream-node');
    site = await startSite();
    const { api, token, organizationId, customerId } = stack;
    const pkg = await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } });
    otherCustomer = await createCustomer(api, token, pkg.id, 'Another customer');
    ownClient = await signIn(api, (await createUser(api, organizationId, 'client', customerId)).email);
    otherClient = await signIn(api, (await createUser(api, organizationId, 'client', otherCustomer)).email);
    otherOrgToken = (await api.createOrganization(['read'])).token;
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    await stack?.stop().catch(() => undefined);
  });

  it('tells each check to its tenant’s streams only, a status change among them, and the overview then shows it', async () => {
    const { api, token } = stack;
    const organization = await openStream(api, { authorization: `Bearer ${token}` });
    const ownCustomer = await openStream(api, { cookie: ownClient });
    const anotherCustomer = await openStream(api, { cookie: otherClient });
    const anotherOrganization = await openStream(api, { authorization: `Bearer ${otherOrgToken}` });
    expect([organization, ownCustomer, anotherCustomer, anotherOrganization].map((s) => s.status)).toEqual([
      200, 200, 200, 200,
    ]);
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: stack.customerId, name: 'Streamed', url: site.url, checkInterval: 10 },
    });
    expect(created.status).toBe(201);
    websiteId = created.body.id;

    await until(async () => changesOf(organization, websiteId).some((c) => c.status === 'up'), 30_000);
    expect(changesOf(organization, websiteId)[0]?.check.status).toBe('up');
    // A status change decided by the worker (down after two failed checks) reaches the open stream.
    site.status = 500;
    await until(async () => changesOf(organization, websiteId).some((c) => c.status === 'down'), 40_000);
    // The client of the website's customer got them too (the positive control of the next two).
    await until(async () => changesOf(ownCustomer, websiteId).some((c) => c.status === 'down'), 5_000);
    const told = changesOf(organization, websiteId).length;
    expect(changesOf(ownCustomer, websiteId).length).toBe(told);
    expect(anotherCustomer.events.filter((event) => event.type === 'change')).toEqual([]);
    expect(anotherOrganization.events.filter((event) => event.type === 'change')).toEqual([]);

    const overview = await api.request<{
      items: Array<{
        id: number;
        status: string;
        recentChecks: Array<{ status: string }>;
        lastResponseMs: number | null;
      }>;
    }>('GET', `/api/dashboard/websites?ids=${websiteId}`, { token });
    expect(overview.status).toBe(200);
    const item = overview.body.items[0];
    expect(item?.status).toBe('down');
    expect(item?.recentChecks.map((check) => check.status)).toEqual(
      changesOf(organization, websiteId).map((change) => change.check.status),
    );
    // The other customer's client asking by id gets nothing of it; its own customer's client does.
    const foreign = await api.request<{ items: unknown[] }>(
      'GET',
      `/api/dashboard/websites?ids=${websiteId}`,
      {
        headers: { cookie: otherClient },
      },
    );
    expect(foreign.body.items).toEqual([]);
    const own = await api.request<{ items: unknown[] }>('GET', `/api/dashboard/websites?ids=${websiteId}`, {
      headers: { cookie: ownClient },
    });
    expect(own.body.items).toHaveLength(1);
    for (const stream of [organization, ownCustomer, anotherCustomer, anotherOrganization]) stream.close();
  });

  it('replays what a reconnecting stream missed from the id it saw last, and asks an unknown id to resync', async () => {
    const { api, token } = stack;
    const first = await openStream(api, { authorization: `Bearer ${token}` });
    await until(async () => changesOf(first, websiteId).length >= 2, 40_000);
    first.close();
    const seen = first.events.filter((event) => event.type === 'change')[0]?.id ?? '';
    const again = await openStream(api, { authorization: `Bearer ${token}`, 'last-event-id': seen });
    await until(async () => again.events.length >= 1, 5_000);
    // What came after the id seen, in order, before anything new.
    const replayed = first.events.filter((event) => event.type === 'change').slice(1);
    expect(again.events.slice(0, replayed.length).map((event) => event.id)).toEqual(
      replayed.map((e) => e.id),
    );
    const unknown = await openStream(api, {
      authorization: `Bearer ${token}`,
      'last-event-id': 'elsewhere.7',
    });
    await until(async () => unknown.events.length >= 1, 5_000);
    expect(unknown.events[0]?.type).toBe('resync');
    again.close();
    unknown.close();
  });

  it('tells a website’s other changes to its tenant’s streams: written, in maintenance, a monitor down, deleted', async () => {
    const { api, token } = stack;
    const organization = await openStream(api, { authorization: `Bearer ${token}` });
    const anotherCustomer = await openStream(api, { cookie: otherClient });
    const touched = (id: number) =>
      organization.events
        .filter((event) => event.type === 'website')
        .map((event) => JSON.parse(event.data) as { id: number; deleted: boolean })
        .filter((event) => event.id === id);
    const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId: stack.customerId, name: 'Touched', url: site.url, checkInterval: 10 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, publicId } = created.body;
    await until(async () => touched(id).length >= 1, 5_000);
    expect(touched(id)[0]).toEqual({ id, deleted: false });

    // Each of these is told on its own: the count before it grows by one at least.
    const toldAfter = async (what: string, cause: () => Promise<void>, waitMs: number) => {
      const before = touched(id).length;
      await cause();
      await until(async () => touched(id).length > before, waitMs).catch(() => {
        throw new Error(`${what} was not told on the stream within ${waitMs} ms`);
      });
    };
    await toldAfter(
      'a rename',
      async () => {
        const renamed = await api.request('PATCH', `/api/websites/${publicId}`, {
          token,
          body: { name: 'Touched again' },
        });
        expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      },
      5_000,
    );
    // A maintenance window running now: the worker's boundary job starts it.
    await toldAfter(
      'maintenance starting',
      async () => {
        const window = await api.request('POST', '/api/maintenance-windows', {
          token,
          body: {
            websiteId: id,
            title: 'Upgrade',
            startsAt: new Date(Date.now() - 60_000).toISOString(),
            endsAt: new Date(Date.now() + 3_600_000).toISOString(),
            timezone: 'UTC',
          },
        });
        expect(window.status, JSON.stringify(window.body)).toBe(201);
      },
      20_000,
    );
    // A port check of a port nobody listens on: the worker decides it down.
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await toldAfter(
      'a port check going down',
      async () => {
        const made = await api.request('POST', `/api/websites/${publicId}/port-checks`, {
          token,
          body: { host: '127.0.0.1', port, intervalSeconds: 10, timeoutSeconds: 2 },
        });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
      },
      60_000,
    );
    const overview = await api.request<{ items: Array<{ status: string; monitors: { down: number } }> }>(
      'GET',
      `/api/dashboard/websites?ids=${id}`,
      { token },
    );
    expect(overview.body.items[0]).toMatchObject({ status: 'maintenance', monitors: { down: 1 } });
    await toldAfter(
      'a deletion',
      async () => {
        expect((await api.request('DELETE', `/api/websites/${publicId}`, { token })).status).toBe(204);
      },
      5_000,
    );
    expect(touched(id).at(-1)).toEqual({ id, deleted: true });
    // The other customer's client heard none of it.
    expect(anotherCustomer.events.filter((event) => event.type === 'website')).toEqual([]);
    organization.close();
    anotherCustomer.close();
  });

  it('ends open streams when the API shuts down, and shutting down does not wait for them', async () => {
    const open = await openStream(stack.api, { authorization: `Bearer ${stack.token}` });
    expect(open.status).toBe(200);
    let ended = false;
    void open.ended.then(() => {
      ended = true;
    });
    const started = performance.now();
    await stack.stop();
    expect(performance.now() - started).toBeLessThan(15_000);
    await open.ended;
    expect(ended).toBe(true);
  });
});
