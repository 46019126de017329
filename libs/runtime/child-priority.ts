import { readdirSync, readFileSync } from 'node:fs';
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
 * Lowers the CPU priority of the processes this one started since `before` (a child that forks
 * others later, as Chromium's zygote forks its renderers, passes its priority on): CPU-heavy
 * helpers then yield the cores to the service's own requests. Best effort: a process gone
 * meanwhile, or a system without /proc, is left as it is. Returns how many were lowered.
 */
export function lowerPriorityOfNewChildren(before: ReadonlySet<number>, niceness: number): number {
  let lowered = 0;
  for (const pid of descendantsOf(process.pid)) {
    if (before.has(pid)) continue;
    try {
      setPriority(pid, niceness);
      lowered++;
    } catch {
      // Gone meanwhile, or not ours to change.
    }
  }
  return lowered;
}
