/** What membership needs to know of a node. */
export interface NodeLiveness {
  region: string;
  lastHeartbeatAt: Date;
  /** Set when the node shut down cleanly. */
  stoppedAt: Date | null;
  disabled: boolean;
}

/** A node is active while its last heartbeat is at most this old. */
export const ACTIVE_WITHIN_MS = 30_000;

/** Active: heartbeat within 30 s, not stopped, not disabled by an operator. */
export function isActive(node: NodeLiveness, now: Date): boolean {
  return (
    !node.disabled &&
    node.stoppedAt === null &&
    now.getTime() - node.lastHeartbeatAt.getTime() <= ACTIVE_WITHIN_MS
  );
}

/** The regions with at least one active node, sorted: the only ones checks are scheduled in. */
export function servingRegions(nodes: readonly NodeLiveness[], now: Date): string[] {
  return [...new Set(nodes.filter((node) => isActive(node, now)).map((node) => node.region))].sort();
}

/** Where a website is checked from, or why it cannot be checked anywhere. */
export type Placement =
  | { regions: string[]; unmonitoredReason: null }
  | { regions: []; unmonitoredReason: string };

/**
 * The regions a monitored website is checked from, given the serving regions: the regions it
 * names that serve; else every serving region when its package allows several; else one region:
 * the one it is checked from while that serves (a region joining moves nothing), else the preferred
 * one while it serves, else the first serving one (deterministic, so every process places it
 * alike). No region: the website is unmonitored, and the reason says why.
 */
export function placeWebsite(input: {
  requested: readonly string[];
  multiRegion: boolean;
  serving: readonly string[];
  preferredRegion?: string | undefined;
  /** The regions it is checked from now. */
  current?: readonly string[];
}): Placement {
  const { requested, serving } = input;
  if (requested.length > 0) {
    const regions = [...new Set(requested)].filter((region) => serving.includes(region)).sort();
    if (regions.length > 0) return { regions, unmonitoredReason: null };
    return {
      regions: [],
      unmonitoredReason: `no active monitoring node in its region${requested.length > 1 ? 's' : ''} ${requested.join(', ')}`,
    };
  }
  if (serving.length === 0)
    return { regions: [], unmonitoredReason: 'no active monitoring node in any region' };
  if (input.multiRegion) return { regions: [...serving].sort(), unmonitoredReason: null };
  const kept = input.current?.find((region) => serving.includes(region));
  const preferred =
    input.preferredRegion && serving.includes(input.preferredRegion) ? input.preferredRegion : undefined;
  const [first] = [...serving].sort() as [string];
  return { regions: [kept ?? preferred ?? first], unmonitoredReason: null };
}
