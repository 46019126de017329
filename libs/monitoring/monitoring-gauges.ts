import { Gauge, type Registry } from 'prom-client';
import type { MonitorStateRepository } from './monitor-state.repository.js';

const STATUSES = ['up', 'degraded', 'down', 'maintenance', 'paused', 'cancelled', 'unmonitored', 'unknown'];

/**
 * `webmon_websites{status}` and `webmon_incidents_open`, read from MongoDB at most once per
 * `refreshMs` however often Prometheus scrapes (a scan of the monitor states on FerretDB).
 */
export function monitoringGauges(
  registry: Registry,
  deps: { states: MonitorStateRepository; websitesTotal: () => Promise<number>; refreshMs?: number },
): void {
  let read: { at: number; figures: Promise<{ byStatus: Map<string, number>; open: number }> } | null = null;
  const figures = () => {
    if (read && Date.now() - read.at < (deps.refreshMs ?? 15_000)) return read.figures;
    const next = (async () => {
      const [byStatus, total, open] = await Promise.all([
        deps.states.countByReportedStatus(),
        deps.websitesTotal(),
        deps.states.countOpenIncidents(),
      ]);
      // Websites never checked have no state yet.
      const known = [...byStatus.values()].reduce((sum, n) => sum + n, 0);
      byStatus.set('unknown', (byStatus.get('unknown') ?? 0) + Math.max(0, total - known));
      return { byStatus, open };
    })();
    read = { at: Date.now(), figures: next };
    next.catch(() => {
      read = null;
    });
    return next;
  };
  new Gauge({
    name: 'webmon_websites',
    help: 'Websites by the status reported now',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const { byStatus } = await figures();
      for (const status of new Set([...STATUSES, ...byStatus.keys()]))
        this.set({ status }, byStatus.get(status) ?? 0);
    },
  });
  new Gauge({
    name: 'webmon_incidents_open',
    help: 'Incidents open now',
    registers: [registry],
    async collect() {
      this.set((await figures()).open);
    },
  });
}
