import { notACursor, type OtherResultItem, type PagedSource } from '../monitoring/index.js';
import type { IntervalMonitor, MonitorLogEntry, MonitorRepository } from './monitor.repository.js';

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
 * A monitor's log as a source of a merged page of results: read by primary key below a position
 * (its entries are numbered), within the page's time window.
 */
export function monitorResultSource(
  repository: MonitorRepository,
  monitor: IntervalMonitor,
  window: { from?: Date | undefined; to?: Date | undefined },
): PagedSource<OtherResultItem> {
  return {
    key: String(monitor.id),
    read: async (position, limit) => {
      if (position !== undefined && !/^\d{1,15}$/.test(position)) throw notACursor();
      const entries = await repository.readLog(
        monitor,
        limit,
        position ? Number(position) : undefined,
        window,
      );
      return entries.flatMap((entry) => {
        const item = otherResultItem(entry);
        return item ? [{ at: entry.at, item, below: String(entry.n), from: String(entry.n + 1) }] : [];
      });
    },
  };
}
