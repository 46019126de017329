import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsCheckDocument, MonitorRepository } from '../libs/monitors/index.js';
import { TestApi } from './support/harness.js';

/**
 * A DNS check's memory is written outside the monitor lock (the decision under it is pure), so it
 * is a compare-and-set: a worker that judged from a memory another region's check (or an
 * acknowledgement) has replaced since writes nothing, and judges again.
 */
describe('a DNS check’s memory is written only over the memory it was judged from (real FerretDB)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.stop());

  it('a stale judgement is refused, a current one written', async () => {
    const repository = new MonitorRepository(api.db);
    const check = await repository.create<DnsCheckDocument>({
      kind: 'dns',
      organizationId: 1,
      websiteId: 990_001,
      name: 'A record',
      recordType: 'A',
      host: 'example.test',
      expected: 'unchanged',
      intervalSeconds: 60,
      timeoutSeconds: 5,
      relearnAfterSeconds: 86_400,
      learned: null,
      pendingChange: null,
    } as Omit<DnsCheckDocument, 'id' | 'createdAt' | 'updatedAt'>);
    const first = { values: ['192.0.2.1'], at: new Date('2026-11-01T00:00:00Z') };
    // Region A learns the first answer.
    expect(await repository.setDnsMemory(check, { learned: first, pendingChange: null })).toBe(true);
    // Region B judged from the check before A wrote (nothing learned): refused.
    const late = { values: ['192.0.2.9'], at: new Date('2026-11-01T00:00:01Z') };
    expect(await repository.setDnsMemory(check, { learned: late, pendingChange: null })).toBe(false);
    const stored = (await repository.findById(1, check.id)) as DnsCheckDocument;
    expect(stored.learned).toEqual(first);
    // Judged again from what is stored now: a change seen is written over it.
    const change = {
      previous: first.values,
      current: ['192.0.2.2'],
      since: new Date('2026-11-02T00:00:00Z'),
    };
    expect(await repository.setDnsMemory(stored, { learned: first, pendingChange: change })).toBe(true);
    // The memory it was judged from is gone: an older judgement refused again.
    expect(await repository.setDnsMemory(stored, { learned: first, pendingChange: null })).toBe(false);
    expect(((await repository.findById(1, check.id)) as DnsCheckDocument).pendingChange).toEqual(change);
  });
});
