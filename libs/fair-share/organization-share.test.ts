import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index.js';
import { ConcurrencyLimitFullError } from '../runtime/index.js';
import { OrganizationShare } from './organization-share.js';

/** A task that runs until `finish` is called, recording when it started. */
function held(started: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      started.push(name);
      await done;
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('OrganizationShare', () => {
  it('refuses an organization past its share with 429 naming it, and serves another meanwhile', async () => {
    const share = new OrganizationShare({ name: 'exports', perOrganization: 2, typicalMs: 4_200 });
    const started: string[] = [];
    const a = [held(started, 'A1'), held(started, 'A2')];
    const running = a.map((t) => share.run(1, t.task));
    await expect(share.run(1, async () => 'A3')).rejects.toMatchObject({
      kind: 'too-many',
      budget: 'exports-per-organization',
      retryAfterSeconds: 5,
    });
    await expect(share.run(2, async () => 'B1')).resolves.toBe('B1');
    for (const t of a) t.finish();
    await Promise.all(running);
    await expect(share.run(1, async () => 'A4')).resolves.toBe('A4');
  });

  it('serves the waiting in turn across organizations: one filling the queue holds another back one turn at most', async () => {
    const share = new OrganizationShare({
      name: 'PDFs',
      perOrganization: 10,
      capacity: 2,
      typicalMs: 1_000,
    });
    const started: string[] = [];
    const tasks = new Map<string, ReturnType<typeof held>>();
    const ask = (organizationId: number, name: string) => {
      const t = held(started, name);
      tasks.set(name, t);
      return share.run(organizationId, t.task);
    };
    const all = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'].map((name) => ask(1, name));
    all.push(ask(2, 'B1'));
    await tick();
    expect(started).toEqual(['A1', 'A2']);
    // Each print that ends lets the next in turn start: A3, then B's, then A's again.
    for (const name of ['A1', 'A2', 'A3', 'B1', 'A4', 'A5', 'A6']) {
      tasks.get(name)?.finish();
      await tick();
    }
    await Promise.all(all);
    expect(started).toEqual(['A1', 'A2', 'A3', 'B1', 'A4', 'A5', 'A6']);
  });

  it('answers 503 (the queue is full) past maxWaiting, whoever asks, and frees a slot once', async () => {
    const share = new OrganizationShare({
      name: 'PDFs',
      perOrganization: 5,
      capacity: 1,
      maxWaiting: 1,
      resource: 'the report printer',
      typicalMs: 1_000,
    });
    const slot = await share.enter(1);
    const waiting = share.enter(1);
    await expect(share.enter(2)).rejects.toBeInstanceOf(ConcurrencyLimitFullError);
    expect(() => share.assertRoom(3)).toThrow(ConcurrencyLimitFullError);
    slot.release();
    slot.release();
    expect(share.heldBy(1)).toBe(1);
    (await waiting).release();
    expect(share.heldBy(1)).toBe(0);
    await expect(share.run(2, async () => 'ran')).resolves.toBe('ran');
  });

  it('estimates Retry-After from how long slots were held', async () => {
    const share = new OrganizationShare({ name: 'reports', perOrganization: 1, typicalMs: 60_000 });
    for (let i = 0; i < 30; i++) await share.run(1, async () => undefined);
    const refused = await share
      .run(1, () => share.run(1, async () => undefined))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).retryAfterSeconds).toBeLessThan(5);
  });
});
