import { describe, expect, it } from 'vitest';
import { cycleThrough, holdingParents } from './dependency-graph.js';

const graph = (edges: Record<number, number[]>) => async (id: number) => edges[id] ?? [];

describe('dependency graph', () => {
  it('no cycle in a tree of parents', async () => {
    expect(
      await cycleThrough(1, [{ ref: { websiteId: 2 }, websiteId: 2 }], graph({ 2: [3], 3: [] })),
    ).toBeNull();
  });

  it('finds a cycle through a chain, and names it', async () => {
    // 1 would depend on 2; 2 depends on 3; 3 depends on 1.
    expect(
      await cycleThrough(1, [{ ref: { websiteId: 2 }, websiteId: 2 }], graph({ 2: [3], 3: [1] })),
    ).toEqual([1, 2, 3, 1]);
  });

  it('a website cannot depend on itself, but may on its own monitor', async () => {
    expect(await cycleThrough(1, [{ ref: { websiteId: 1 }, websiteId: 1 }], graph({}))).not.toBeNull();
    expect(await cycleThrough(1, [{ ref: { monitorId: 9 }, websiteId: 1 }], graph({}))).toBeNull();
  });

  it('a monitor of another website counts as that website', async () => {
    expect(
      await cycleThrough(1, [{ ref: { monitorId: 9 }, websiteId: 2 }], graph({ 2: [1] })),
    ).not.toBeNull();
  });

  it('holds for parents down, never for the alert’s own subject', () => {
    const parents = [
      { ref: { websiteId: 2 }, down: true },
      { ref: { monitorId: 9 }, down: true },
      { ref: { websiteId: 3 }, down: false },
    ];
    expect(holdingParents(parents, { websiteId: 1, monitorId: null })).toHaveLength(2);
    // The website's own DNS check (monitor 9) going down is not held by itself.
    expect(holdingParents(parents, { websiteId: 1, monitorId: 9 }).map((p) => p.ref)).toEqual([
      { websiteId: 2 },
    ]);
    expect(holdingParents(parents.slice(2), { websiteId: 1, monitorId: null })).toEqual([]);
  });
});
