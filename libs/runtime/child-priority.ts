import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Each process's parent, from /proc (Linux); empty elsewhere or when /proc cannot be read. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return parentOf;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  return parentOf;
}

/** The processes descended from `root` now. */
export function descendantsOf(root: number): Set<number> {
  const parentOf = parents();
  const found = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parentOf)
      if (!found.has(pid) && (ppid === root || found.has(ppid))) {
        found.add(pid);
        grew = true;
      }
  }
  return found;
}

/**
 * The scheduler's autogroup of `pid` ("/autogroup-44"): Linux shares the CPU fairly between
 * sessions' groups first, so a niceness counts only against processes of the same session. Null
 * where the kernel has none.
 */
function autogroupOf(pid: number | 'self'): string | null {
  try {
    return readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * Lowers the CPU priority of the processes this one started since `before` (a child that forks
 * others later, as Chromium's zygote forks its renderers, passes its priority on): CPU-heavy
 * helpers then yield the cores to the service's own requests. A child in a session of its own
 * (Chromium as playwright launches it) is in another autogroup, which the kernel weighs as much as
 * ours whatever the niceness of its processes: that group's niceness is lowered too. Best effort:
 * a process gone meanwhile, or a system without /proc, is left as it is. Returns how many were lowered.
 */
export function lowerPriorityOfNewChildren(before: ReadonlySet<number>, niceness: number): number {
  const ownGroup = autogroupOf('self');
  let lowered = 0;
  for (const pid of descendantsOf(process.pid)) {
    if (before.has(pid)) continue;
    try {
      setPriority(pid, niceness);
      lowered++;
      const group = autogroupOf(pid);
      // Never our own group: that would lower the service with its helper.
      if (group !== null && group !== ownGroup) writeFileSync(`/proc/${pid}/autogroup`, String(niceness));
    } catch {
      // Gone meanwhile, or not ours to change.
    }
  }
  return lowered;
}
