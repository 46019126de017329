import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CheckFeedMessage, type FeedMessage, feedMessage } from '../monitoring/index.js';
import { eventOf, OverviewStreams, reaches, type StreamAudience } from './overview-streams.js';

const check = (over: Partial<CheckFeedMessage> = {}): CheckFeedMessage => ({
  organizationId: 1,
  customerId: 10,
  websiteId: 100,
  at: Date.UTC(2026, 10, 29, 9, 0, 0),
  check: 'up',
  responseMs: 120,
  status: 'up',
  ...over,
});

/** Everything written to a stream so far, as text. */
function written(body: Readable): string {
  const chunks: string[] = [];
  for (let chunk = body.read(); chunk !== null; chunk = body.read()) chunks.push(String(chunk));
  return chunks.join('');
}

function streams(options: { maxStreams?: number; replayable?: number; recheckMs?: number } = {}) {
  let closed = 0;
  const hub = new OverviewStreams({
    ...options,
    source: async () => ({
      close: async () => {
        closed++;
      },
    }),
  });
  return { hub, closedSources: () => closed };
}

describe('which streams a change reaches', () => {
  it.each<[string, StreamAudience, Partial<CheckFeedMessage>, boolean]>([
    ['the organization', { organizationId: 1 }, {}, true],
    ['another organization', { organizationId: 2 }, {}, false],
    ['the website’s customer', { organizationId: 1, customerId: 10 }, {}, true],
    ['another customer', { organizationId: 1, customerId: 11 }, {}, false],
    ['a customer of the same id in another organization', { organizationId: 2, customerId: 10 }, {}, false],
  ])('%s: %s', (_name, audience, over, expected) => {
    expect(reaches(audience, check(over))).toBe(expected);
  });
});

describe('what the feed tells besides checks', () => {
  const website: FeedMessage = {
    kind: 'website',
    organizationId: 1,
    customerId: 10,
    websiteId: 100,
    deleted: true,
  };
  const customer: FeedMessage = { kind: 'customer', organizationId: 1, customerId: 10 };

  it('reads each kind of message from its JSON, and leaves out one of another shape', () => {
    for (const message of [check(), website, customer])
      expect(feedMessage.parse(JSON.parse(JSON.stringify(message)))).toEqual(message);
    expect(feedMessage.safeParse({ kind: 'website', organizationId: 1, websiteId: 100 }).success).toBe(false);
    expect(feedMessage.safeParse({ kind: 'monitor', organizationId: 1, customerId: 10 }).success).toBe(false);
  });

  it('tells a website or a customer by its id only, to its tenant’s streams', async () => {
    expect(eventOf(website)).toEqual({ type: 'website', data: { id: 100, deleted: true } });
    expect(eventOf(customer)).toEqual({ type: 'customer', data: { id: 10 } });
    expect(reaches({ organizationId: 1, customerId: 11 }, website)).toBe(false);
    expect(reaches({ organizationId: 1, customerId: 10 }, customer)).toBe(true);
    const { hub } = streams();
    const client = (await hub.start({ organizationId: 1, customerId: 10 })) as Readable;
    const otherClient = (await hub.start({ organizationId: 1, customerId: 11 })) as Readable;
    written(client);
    written(otherClient);
    hub.deliver(website);
    hub.deliver(customer);
    expect(written(client)).toMatch(
      /^id: [0-9a-f]{8}\.1\nevent: website\ndata: \{"id":100,"deleted":true\}\n\nid: [0-9a-f]{8}\.2\nevent: customer\ndata: \{"id":10\}\n\n$/,
    );
    expect(written(otherClient)).toBe('');
    await hub.close();
  });
});

describe('OverviewStreams', () => {
  it('writes a change once per stream of its tenant, as an SSE event with an id', async () => {
    const { hub } = streams();
    const mine = (await hub.start({ organizationId: 1 })) as Readable;
    const theirs = (await hub.start({ organizationId: 2 })) as Readable;
    written(mine);
    written(theirs);
    hub.deliver(check());
    const text = written(mine);
    expect(text).toMatch(/^id: [0-9a-f]{8}\.1\nevent: change\ndata: \{.*\}\n\n$/);
    expect(JSON.parse(text.split('data: ')[1] ?? '')).toEqual({
      id: 100,
      status: 'up',
      check: { at: '2026-11-29T09:00:00.000Z', status: 'up', responseMs: 120 },
    });
    expect(written(theirs)).toBe('');
    await hub.close();
  });

  it('refuses a stream past its bound, and takes one again once another closed', async () => {
    const { hub } = streams({ maxStreams: 2 });
    const first = (await hub.start({ organizationId: 1 })) as Readable;
    expect(await hub.start({ organizationId: 1 })).not.toBeNull();
    expect(await hub.start({ organizationId: 1 })).toBeNull();
    first.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(hub.open).toBe(1);
    expect(await hub.start({ organizationId: 1 })).not.toBeNull();
    await hub.close();
  });

  it.each<[string, (ids: string[]) => string, (text: string) => boolean]>([
    [
      'the id of a change it keeps: what came after, its tenant’s only',
      (ids) => ids[0] ?? '',
      (t) => t.includes('"id":102') && !t.includes('"id":101') && !t.includes('resync'),
    ],
    ['the newest id: nothing', (ids) => ids.at(-1) ?? '', (t) => !t.includes('event:')],
    ['an id of another process: resync', () => 'other.1', (t) => t.includes('event: resync')],
    [
      'an id older than what it keeps: resync',
      (ids) => `${ids[0]?.split('.')[0]}.0`,
      (t) => t.includes('event: resync'),
    ],
  ])('a stream reconnecting with %s', async (_name, lastId, expected) => {
    const { hub } = streams({ replayable: 3 });
    const watcher = (await hub.start({ organizationId: 1, customerId: 10 })) as Readable;
    written(watcher);
    hub.deliver(check({ websiteId: 99 }));
    hub.deliver(check({ websiteId: 101, customerId: 11 }));
    hub.deliver(check({ websiteId: 102 }));
    hub.deliver(check({ websiteId: 103 }));
    const ids = [...written(watcher).matchAll(/^id: (\S+)$/gm)].map((match) => match[1] ?? '');
    expect(ids).toHaveLength(3);
    const again = (await hub.start({ organizationId: 1, customerId: 10 }, lastId(ids))) as Readable;
    expect(expected(written(again))).toBe(true);
    await hub.close();
  });

  it('ends every stream and stops listening when closed; a stream asked for afterwards is refused', async () => {
    const { hub, closedSources } = streams();
    const body = (await hub.start({ organizationId: 1 })) as Readable;
    let ended = false;
    body.on('end', () => {
      ended = true;
    });
    body.resume();
    await hub.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(true);
    expect(closedSources()).toBe(1);
    expect(await hub.start({ organizationId: 1 })).toBeNull();
  });

  it('ends the streams of callers no longer signed in with an event signed-out, keeps the others and those it cannot ask', async () => {
    const { hub } = streams({ recheckMs: 20 });
    const answers = { out: false, still: true };
    const out = (await hub.start({ organizationId: 1 }, undefined, async () => answers.out)) as Readable;
    const still = (await hub.start({ organizationId: 1 }, undefined, async () => answers.still)) as Readable;
    const unknown = (await hub.start({ organizationId: 1 }, undefined, () =>
      Promise.reject(new Error('Redis is away')),
    )) as Readable;
    const unasked = (await hub.start({ organizationId: 1 })) as Readable;
    for (const body of [out, still, unknown, unasked]) written(body);
    await new Promise((resolve) => out.once('end', resolve).resume());
    expect(hub.open).toBe(3);
    for (const body of [still, unknown, unasked]) expect(body.readableEnded).toBe(false);
    hub.deliver(check());
    expect(written(still)).toContain('event: change');
    await hub.close();
  });

  it('the event says so before the stream ends', async () => {
    const { hub } = streams({ recheckMs: 20 });
    const body = (await hub.start({ organizationId: 1 }, undefined, async () => false)) as Readable;
    written(body);
    const chunks: string[] = [];
    body.on('data', (chunk) => chunks.push(String(chunk)));
    await new Promise((resolve) => body.once('end', resolve));
    expect(chunks.join('')).toBe('event: signed-out\ndata: {}\n\n');
    await hub.close();
  });
});
