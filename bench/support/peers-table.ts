// The peers benchmark's measurements and the table they print as (CPU s per 1,000 checks, ratios).

export type Scheme = 'http' | 'https';

export interface Measurement {
  system: string;
  scheme: Scheme;
  checks: number;
  checksPerSecond: number;
  /** CPU seconds per process over the window. */
  cpuSeconds: Record<string, number>;
  /** Redis commands per check (ours only), most first. */
  redisCommandsPerCheck?: Record<string, number>;
  /** Results MongoDB holds for the window (ours only): every check stored. */
  storedResults?: number;
  /** Start minus planned slot of those results (ours only). */
  lagMs?: { p50: number; p99: number };
}

/** The run's options the table names. */
export interface TableOptions {
  websites: number;
  intervalSeconds: number;
  /** Checks a second the websites need. */
  perSecond: number;
  schemes: readonly Scheme[];
}

/** CPU seconds of every process measured, together. */
export const totalCpuSeconds = (m: Measurement) => Object.values(m.cpuSeconds).reduce((a, b) => a + b, 0);
/** CPU seconds per 1,000 checks. */
export const perThousandChecks = (cpu: number, checks: number) => (cpu / Math.max(1, checks)) * 1000;

/** The table's rows: a system's CPU seconds per 1,000 checks and checks a second, by scheme. */
export function rowsOf(
  measurements: Measurement[],
): Array<{ label: string; cost: Partial<Record<Scheme, number>>; rate: Partial<Record<Scheme, number>> }> {
  const rows = new Map<
    string,
    { cost: Partial<Record<Scheme, number>>; rate: Partial<Record<Scheme, number>> }
  >();
  const put = (label: string, scheme: Scheme, cost: number, rate: number) => {
    const row = rows.get(label) ?? { cost: {}, rate: {} };
    row.cost[scheme] = cost;
    row.rate[scheme] = rate;
    rows.set(label, row);
  };
  for (const m of measurements) {
    if (m.system === 'webmon') {
      put(
        'webmon worker alone',
        m.scheme,
        perThousandChecks(m.cpuSeconds.worker ?? 0, m.checks),
        m.checksPerSecond,
      );
      put(
        'webmon whole system (worker + Redis + FerretDB)',
        m.scheme,
        perThousandChecks(totalCpuSeconds(m), m.checks),
        m.checksPerSecond,
      );
    } else if (m.system === 'node-floor-stored')
      put(
        'node-floor-stored (Node.js process alone)',
        m.scheme,
        perThousandChecks(m.cpuSeconds.node ?? 0, m.checks),
        m.checksPerSecond,
      );
    else put(m.system, m.scheme, perThousandChecks(totalCpuSeconds(m), m.checks), m.checksPerSecond);
  }
  return [...rows].map(([label, row]) => ({ label, ...row }));
}

/**
 * Prints the table of CPU seconds per 1,000 checks (`schemes` its columns, in their order), the
 * peers/ours ratios and each run of ours' Redis commands per check.
 */
export function printTable(
  measurements: Measurement[],
  { websites, intervalSeconds, perSecond, schemes }: TableOptions,
): void {
  const rows = rowsOf(measurements);
  const cell = (row: (typeof rows)[number], scheme: Scheme) =>
    row.cost[scheme] === undefined
      ? '—'
      : `${row.cost[scheme]!.toFixed(2)} (${row.rate[scheme]!.toFixed(1)}/s)`;
  console.log('');
  console.log(
    `CPU seconds per 1,000 checks (checks/s at the farm); ${websites} websites every ${intervalSeconds} s, needs ${perSecond.toFixed(1)}/s`,
  );
  console.log(`| system | ${schemes.map((s) => s.toUpperCase()).join(' | ')} |`);
  console.log(`|---|${schemes.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.label} | ${schemes.map((s) => cell(row, s)).join(' | ')} |`);
  const ratio = (peer: string, ours: string) => {
    const p = rows.find((r) => r.label === peer);
    const o = rows.find((r) => r.label.startsWith(ours));
    if (!p || !o) return;
    const parts = schemes
      .filter((s) => p.cost[s] !== undefined && o.cost[s] !== undefined)
      .map((s) => `${s.toUpperCase()} ${(p.cost[s]! / o.cost[s]!).toFixed(2)}`);
    console.log(`${peer} / ${ours}: ${parts.join(', ')}  (≥ 1: ours costs no more)`);
  };
  console.log('');
  ratio('gatus-sqlite', 'webmon whole system');
  ratio('gatus-memory', 'webmon worker alone');
  ratio('gatus-memory', 'webmon whole system');
  ratio('node-floor', 'webmon worker alone');
  ratio('gatus-memory', 'node-floor');
  ratio('gatus-memory', 'node-floor-stored');
  ratio('node-floor-stored', 'webmon worker alone');
  for (const m of measurements.filter((x) => x.redisCommandsPerCheck)) {
    const commands = Object.entries(m.redisCommandsPerCheck!);
    const sum = commands.reduce((a, [, n]) => a + n, 0);
    console.log('');
    console.log(
      `webmon ${m.scheme.toUpperCase()}: ${sum.toFixed(1)} Redis commands per check (Lua-internal included), ${m.storedResults} results stored for ${m.checks} checks at the farm, schedule lag p50 ${m.lagMs?.p50.toFixed(0)} ms, p99 ${m.lagMs?.p99.toFixed(0)} ms`,
    );
    console.log(
      `  ${commands
        .slice(0, 16)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ')}`,
    );
  }
}
