import type { ParentRef } from './dependency.schema.js';

/* Dependencies between websites, without I/O. */

/** A parent as resolved: whose website it is (a monitor's is the website it belongs to). */
export interface ResolvedParent {
  ref: ParentRef;
  websiteId: number;
}

/**
 * The cycle `child` depending on `parents` makes, in depends-on order (`[1, 2, 3, 1]`: 1 on 2, 2 on
 * 3, 3 on 1), or null: some parent's website depends (through any chain) on the child. A website's own monitors are no cycle: its HTTP check may wait on its DNS
 * check. `parentsOf` answers the websites a website depends on.
 */
export async function cycleThrough(
  child: number,
  parents: readonly ResolvedParent[],
  parentsOf: (websiteId: number) => Promise<number[]>,
  maxDepth = 100,
): Promise<number[] | null> {
  for (const start of parents) {
    if (start.websiteId === child) {
      if ('websiteId' in start.ref) return [child, child];
      continue;
    }
    const seen = new Set<number>();
    const path = new Map<number, number>();
    let frontier = [start.websiteId];
    for (let depth = 0; depth < maxDepth && frontier.length > 0; depth++) {
      const next: number[] = [];
      for (const node of frontier) {
        if (seen.has(node)) continue;
        seen.add(node);
        for (const up of await parentsOf(node)) {
          if (!path.has(up)) path.set(up, node);
          if (up === child) {
            // Back from where the chain reached the child to where it started, then in depends-on order.
            const back: number[] = [];
            for (let at: number | undefined = node; at !== undefined; at = path.get(at)) {
              back.push(at);
              if (at === start.websiteId) break;
            }
            return [child, ...back.reverse(), child];
          }
          next.push(up);
        }
      }
      frontier = next;
    }
  }
  return null;
}

/**
 * Which parents hold an alert of the child: those down now, except the alert's own subject (a
 * website that depends on its own DNS check still hears of that check going down).
 */
export function holdingParents<P extends { ref: ParentRef; down: boolean }>(
  parents: readonly P[],
  subject: { websiteId: number; monitorId: number | null },
): P[] {
  return parents.filter((parent) => {
    if (!parent.down) return false;
    if ('monitorId' in parent.ref) return parent.ref.monitorId !== subject.monitorId;
    return !(parent.ref.websiteId === subject.websiteId && subject.monitorId === null);
  });
}
