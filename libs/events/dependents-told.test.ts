import { describe, expect, it } from 'vitest';
import { DEPENDENTS_LISTED, dependentsToldTo } from './dependents-told.js';
import type { EventPayload } from './event.schema.js';

const parentDown = (dependents: Array<{ websiteId: number; customerId: number }>): EventPayload => ({
  id: 'e1',
  type: 'website.down',
  createdAt: '2026-12-01T00:00:00.000Z',
  organizationId: 1,
  data: {
    website: null,
    previousStatus: 'up',
    status: 'down',
    incident: null,
    result: null,
    dependents: dependents.map((d) => ({
      ...d,
      name: `Site ${d.websiteId}`,
      url: `https://s${d.websiteId}.test/`,
    })),
    dependentCount: dependents.length,
  },
});

describe('dependentsToldTo', () => {
  const shared = parentDown([
    { websiteId: 1, customerId: 10 },
    { websiteId: 2, customerId: 20 },
    { websiteId: 3, customerId: 10 },
  ]);

  it("tells a customer's channel of that customer's dependents only", () => {
    const told = dependentsToldTo(shared, 10);
    expect(told.data.dependents?.map((d) => d.websiteId)).toEqual([1, 3]);
    expect(told.data.dependentCount).toBe(2);
    expect(JSON.stringify(told)).not.toContain('Site 2');
  });

  it('says nothing of dependents to a customer none of them belong to', () => {
    const told = dependentsToldTo(shared, 30);
    expect(told.data.dependents).toBeUndefined();
    expect(told.data.dependentCount).toBeUndefined();
  });

  it('tells the organization of all, naming the first 50 and counting every one', () => {
    const many = parentDown(
      Array.from({ length: 120 }, (_, i) => ({ websiteId: i + 1, customerId: 10 + (i % 2) })),
    );
    const all = dependentsToldTo(many, null);
    expect(all.data.dependents).toHaveLength(DEPENDENTS_LISTED);
    expect(all.data.dependentCount).toBe(120);
    const one = dependentsToldTo(many, 11);
    expect(one.data.dependents).toHaveLength(DEPENDENTS_LISTED);
    expect(one.data.dependents?.every((d) => d.customerId === 11)).toBe(true);
    expect(one.data.dependentCount).toBe(60);
    // Told again from the cut list (an escalation run carries the first 50): the count stays.
    expect(dependentsToldTo(all, null).data.dependentCount).toBe(120);
  });

  it('leaves an event without dependents as it is', () => {
    const plain = parentDown([]);
    const { dependents: _d, dependentCount: _c, ...data } = plain.data;
    const bare = { ...plain, data };
    expect(dependentsToldTo(bare, 10)).toBe(bare);
  });
});
