import { readFileSync } from 'node:fs';

/** Linux reports CPU time in clock ticks of 1/100 s. */
const CLOCK_TICKS = 100;

/** User and system (kernel: syscalls, loopback TCP) CPU seconds a process has used so far (from /proc). */
export function cpuTimesOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
}

/** User + system CPU seconds a process has used so far. */
export function cpuSecondsOf(pid: number): number {
  const { user, system } = cpuTimesOf(pid);
  return user + system;
}

/** Resident memory of a process in MiB (from /proc). */
export function rssMiBOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '')) / 1024;
}

/** The value at percentile `p` of ascending `sorted` values (NaN when empty). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** What FerretDB's `/debug/metrics` says: requests by command, its CPU, its waits for a SQLite connection. */
export interface FerretMetrics {
  commands: Map<string, number>;
  cpuSeconds: number;
  sqlWaits: number;
  sqlWaitSeconds: number;
}

/** FerretDB's own counters (see `FerretMetrics`), or null without metrics. */
export async function ferretMetrics(metricsUrl: string | undefined): Promise<FerretMetrics | null> {
  if (!metricsUrl) return null;
  const text = await (await fetch(metricsUrl)).text();
  const commands = new Map<string, number>();
  for (const match of text.matchAll(/^ferretdb_client_requests_total\{command="([^"]+)"[^}]*\} (\d+)/gm))
    commands.set(match[1] as string, (commands.get(match[1] as string) ?? 0) + Number(match[2]));
  const sum = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'gm'))].reduce(
      (total, match) => total + Number(match[1]),
      0,
    );
  return {
    commands,
    cpuSeconds: sum('process_cpu_seconds_total'),
    sqlWaits: sum('ferretdb_sqldb_wait_count_total'),
    sqlWaitSeconds: sum('ferretdb_sqldb_wait_duration_seconds_total'),
  };
}

/** Each command's requests between two counts, per `per` (most first). */
export function commandsPer(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  per: number,
): Array<[string, number]> {
  return [...after]
    .map(([command, n]): [string, number] => [command, (n - (before.get(command) ?? 0)) / Math.max(1, per)])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
}
