import { invalidInput } from '../errors/index.js';
import type { OtherResultItem } from '../monitoring/index.js';
import type { IntervalMonitor, MonitorLogEntry, MonitorRepository } from './monitor.repository.js';

/** Where each monitor's part of a page ended: the next page reads each below its number; 0: it has nothing more. */
type Positions = Record<string, number>;

function decodePositions(cursor: string): Positions {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (
      parsed &&
      typeof parsed === 'object' &&
      !Array.isArray(parsed) &&
      Object.entries(parsed).every(([id, n]) => /^\d+$/.test(id) && Number.isInteger(n) && (n as number) >= 0)
    )
      return parsed as Positions;
  } catch {
    // Answered below.
  }
  throw invalidInput('Not a cursor of these results', [
    { path: 'cursor', message: 'use the nextCursor of the page before, as it was given' },
  ]);
}

/** A log entry as the website's results list it beside HTTP results. */
export function otherResultItem(entry: MonitorLogEntry): OtherResultItem | null {
  const { result } = entry;
  if (!result || entry.kind === 'heartbeat') return null;
  return {
    kind: entry.kind,
    monitorId: entry.monitorId,
    region: result.region,
    startedAt: entry.at.toISOString(),
    status: result.status,
    cause: result.cause,
    durationMs: result.durationMs,
    address: result.address ?? null,
    timings: result.timings ?? {
      ...(result.connectMs != null ? { connectMs: result.connectMs } : {}),
      ...(result.tlsMs != null ? { tlsMs: result.tlsMs } : {}),
      totalMs: result.durationMs,
    },
    evidence: result.evidence ?? {
      ...(result.values ? { values: result.values } : {}),
      ...(result.banner != null ? { banner: result.banner } : {}),
      ...(result.certificate
        ? { certificate: { ...result.certificate, validTo: result.certificate.validTo.toISOString() } }
        : {}),
    },
  };
}

/**
 * The results of some of a website's monitors, newest first, merged across their logs, in pages:
 * each log is read by primary key below where the page before ended with it (no scan, whatever
 * the depth), at most `limit` of each, then the newest `limit` of them all are the page.
 */
export async function monitorResultsPage(
  repository: MonitorRepository,
  monitors: readonly IntervalMonitor[],
  options: { limit: number; cursor?: string; from?: Date; to?: Date },
): Promise<{ items: OtherResultItem[]; nextCursor: string | null }> {
  const positions = options.cursor ? decodePositions(options.cursor) : null;
  const queues = await Promise.all(
    monitors.map(async (monitor) => {
      // The first page reads each log from its newest entry.
      const below = positions ? (positions[String(monitor.id)] ?? 0) : undefined;
      if (below === 0) return [];
      const window = { from: options.from, to: options.to };
      const entries = await repository.readLog(monitor, options.limit + 1, below, window);
      return entries.map((entry) => ({ monitorId: monitor.id, entry }));
    }),
  );
  // A k-way merge by time of each log's head: each log is taken in its own order (a prefix of
  // it), so where it stops is one number, and nothing above it is skipped.
  const page: Array<{ monitorId: number; entry: MonitorLogEntry & { n: number } }> = [];
  while (page.length < options.limit) {
    let newest: (typeof queues)[number] | undefined;
    for (const queue of queues)
      if (queue[0] && (!newest?.[0] || queue[0].entry.at > newest[0].entry.at)) newest = queue;
    const head = newest?.shift();
    if (!head) break;
    page.push(head);
  }
  const more = queues.some((queue) => queue.length > 0);
  const next: Positions = {};
  for (const [i, monitor] of monitors.entries()) {
    const taken = page.filter((p) => p.monitorId === monitor.id);
    const last = taken.at(-1);
    const waiting = queues[i]?.[0];
    // Below its last entry on this page; none on it but more to come: from its first entry not
    // listed yet (pinned, so what it logs after this page is not slipped into the next); else done.
    next[String(monitor.id)] = last ? last.entry.n : waiting ? waiting.entry.n + 1 : 0;
  }
  return {
    items: page.flatMap(({ entry }) => otherResultItem(entry) ?? []),
    nextCursor: more ? Buffer.from(JSON.stringify(next)).toString('base64url') : null,
  };
}
