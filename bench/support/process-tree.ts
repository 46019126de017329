// A process and what it started (a worker and its Chromium), read from /proc: CPU and memory.
import { readFileSync } from 'node:fs';
import { processTreeMemory } from '../../libs/journeys/journey-browser.js';
import { descendantsOf } from '../../libs/runtime/index.js';

/** Linux reports CPU time in clock ticks of 1/100 s. */
const CLOCK_TICKS = 100;

/** utime, stime, cutime, cstime of a process in seconds (0s when it is gone). */
function times(pid: number): [number, number, number, number] {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return [11, 12, 13, 14].map((i) => Number(fields[i]) / CLOCK_TICKS) as [number, number, number, number];
  } catch {
    return [0, 0, 0, 0];
  }
}

/**
 * CPU seconds (user + system) of every process `root` started, counting the ones that exited too:
 * each live descendant's own time plus what its children that it waited for used (cutime, cstime),
 * as Chromium's zygote waits for the renderers of closed contexts. `root`'s own time is not in it.
 */
export function descendantsCpuSeconds(root: number): number {
  let total = 0;
  for (const pid of descendantsOf(root)) {
    const [user, system, childrenUser, childrenSystem] = times(pid);
    total += user + system + childrenUser + childrenSystem;
  }
  return total;
}

/** Resident set of a process in bytes (0 when it is gone). */
export function rssBytesOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.replace(/\D+/g, '') ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export interface TreeMemory {
  /** Proportional set size of `root` and its descendants: the tree's share of memory, shared pages split. */
  pss: number;
  /** `root`'s own resident set. */
  rootRss: number;
  /** Resident sets of the descendants summed (pages they share counted in each: more than they hold). */
  descendantsRss: number;
  /** How many descendants there are. */
  descendants: number;
}

/** The tree's memory now, in bytes. */
export function treeMemory(root: number): TreeMemory {
  const descendants = [...descendantsOf(root)];
  return {
    pss: processTreeMemory(root),
    rootRss: rssBytesOf(root),
    descendantsRss: descendants.reduce((sum, pid) => sum + rssBytesOf(pid), 0),
    descendants: descendants.length,
  };
}

/** Samples `treeMemory(root)` every `everyMs` until stopped; answers the peaks seen. */
export function sampleTreeMemory(root: number, everyMs = 1000) {
  const peak: TreeMemory = { pss: 0, rootRss: 0, descendantsRss: 0, descendants: 0 };
  const take = () => {
    const now = treeMemory(root);
    for (const key of Object.keys(peak) as Array<keyof TreeMemory>) peak[key] = Math.max(peak[key], now[key]);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    peak,
    stop(): TreeMemory {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

export const MiB = 1024 * 1024;
