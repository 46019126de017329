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

  it.each([
    {
      case: 'capacity 2: one organization prints one at once, so another’s starts at once',
      capacity: 2,
      asked: ['A1', 'A2', 'A3', 'A4', 'B1'],
      atOnce: ['A1', 'B1'],
      // B's slot stays free of A's while B has nothing waiting: an organization alone prints one at once.
      finished: ['A1', 'B1', 'A2', 'A3', 'A4'],
      started: ['A1', 'B1', 'A2', 'A3', 'A4'],
    },
    {
      case: 'capacity 3: two at once each, the waiting served in turn',
      capacity: 3,
      asked: ['A1', 'A2', 'A3', 'A4', 'A5', 'B1', 'B2'],
      atOnce: ['A1', 'A2', 'B1'],
      finished: ['A1', 'B1', 'A2', 'A3', 'B2', 'A4', 'A5'],
      started: ['A1', 'A2', 'B1', 'A3', 'B2', 'A4', 'A5'],
    },
    {
      case: 'capacity 1: the one slot, served in turn (one print of A before B’s at most)',
      capacity: 1,
      asked: ['A1', 'A2', 'A3', 'B1'],
      atOnce: ['A1'],
      finished: ['A1', 'A2', 'B1', 'A3'],
      started: ['A1', 'A2', 'B1', 'A3'],
    },
  ])('$case', async ({ capacity, asked, atOnce, finished, started: expected }) => {
    const share = new OrganizationShare({ name: 'PDFs', perOrganization: 10, capacity, typicalMs: 1_000 });
    const started: string[] = [];
    const tasks = new Map<string, ReturnType<typeof held>>();
    const all = asked.map((name) => {
      const t = held(started, name);
      tasks.set(name, t);
      return share.run(name.startsWith('A') ? 1 : 2, t.task);
    });
    await tick();
    expect(started).toEqual(atOnce);
    for (const name of finished) {
      tasks.get(name)?.finish();
      await tick();
    }
    await Promise.all(all);
    expect(started).toEqual(expected);
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
