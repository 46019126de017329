import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Lane } from '../scheduler/index.js';
import type { CheckResultDocument } from './result.repository.js';
import type { DroppedCheckReason } from './website-check-lane.js';

const PHASES = ['dns', 'connect', 'tls', 'ttfb', 'download', 'total'] as const;

/**
 * A worker's check metrics. Labels are the region, the status, the phase: never a website, a URL
 * or an organization (a label per website would make a series per website).
 */
export function workerMetrics(
  registry: Registry,
  options: {
    region: string;
    /** Each lane's due set in the region: members due and not taken, and members in all; read when scraped. */
    dueCounts: () => Promise<Partial<Record<Lane, { due: number; total: number }>>>;
    /** Results kept until MongoDB can take them, read when scraped. */
    resultsWaiting: () => number;
    /** Counts kept by the monitor transitions and the events outbox since the start, read when scraped. */
    refusedStateWrites: () => number;
    unannouncedEvents: () => number;
  },
) {
  const checks = new Counter({
    name: 'webmon_checks_total',
    help: 'Checks made, by region and resulting status',
    labelNames: ['region', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'webmon_check_duration_seconds',
    help: 'How long each phase of a check took',
    labelNames: ['region', 'phase'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'webmon_schedule_lag_seconds',
    help: 'From when a check was due to when it started',
    labelNames: ['region'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  new Gauge({
    name: 'webmon_due_checks',
    help: "Checks in the region's due sets, by lane and state (overdue: due and not taken yet; scheduled: every one)",
    labelNames: ['region', 'lane', 'state'] as const,
    registers: [registry],
    async collect() {
      const counts = await options.dueCounts();
      for (const [lane, { due, total }] of Object.entries(counts)) {
        this.set({ region: options.region, lane, state: 'overdue' }, due);
        this.set({ region: options.region, lane, state: 'scheduled' }, total);
      }
    },
  });
  const dropped = new Counter({
    name: 'webmon_checks_dropped_total',
    help: 'Checks dropped without probing, by region and reason (stale: started more than an interval late; overlap: the previous check of the website still ran)',
    labelNames: ['region', 'reason'] as const,
    registers: [registry],
  });
  const evidence = new Counter({
    name: 'webmon_evidence_stored_total',
    help: 'Failing results stored with their evidence, by region and whether the body was kept (once a website, region and 5 minutes)',
    labelNames: ['region', 'body'] as const,
    registers: [registry],
  });
  const evidenceBytes = new Counter({
    name: 'webmon_evidence_stored_bytes_total',
    help: 'Bytes of evidence stored (gzipped), by region',
    labelNames: ['region'] as const,
    registers: [registry],
  });
  const resultsDropped = new Counter({
    name: 'webmon_results_dropped_total',
    help: 'Check results dropped because MongoDB could not take them and the result buffer was full',
    registers: [registry],
  });
  new Gauge({
    name: 'webmon_results_waiting',
    help: 'Check results kept in the worker until MongoDB can take them',
    registers: [registry],
    collect() {
      this.set(options.resultsWaiting());
    },
  });
  countedSinceStart(registry, {
    name: 'webmon_monitor_state_writes_refused_total',
    help: 'Monitor state writes refused: the lock expired under its holder (a stalled process or store) or a later holder wrote; the decision was dropped, the result kept',
    read: options.refusedStateWrites,
  });
  countedSinceStart(registry, {
    name: 'webmon_event_announcements_failed_total',
    help: "Events stored whose announcement to the notifier's queue failed (the notifier's sweep delivers them within a minute)",
    read: options.unannouncedEvents,
  });
  for (const status of ['up', 'degraded', 'down']) checks.inc({ region: options.region, status }, 0);
  return {
    dropped(reason: DroppedCheckReason): void {
      dropped.inc({ region: options.region, reason });
    },
    resultsDropped(count: number): void {
      resultsDropped.inc(count);
    },
    evidenceStored(withBody: boolean, bytes: number): void {
      evidence.inc({ region: options.region, body: withBody ? 'kept' : 'omitted' });
      evidenceBytes.inc({ region: options.region }, bytes);
    },
    checked(result: CheckResultDocument, lagMs: number): void {
      const { region } = options;
      checks.inc({ region, status: result.status });
      for (const phase of PHASES) duration.observe({ region, phase }, result.timings[phase] / 1000);
      lag.observe({ region }, Math.max(0, lagMs) / 1000);
    },
  };
}

/** A counter that follows a count kept elsewhere (since the process started), read when scraped. */
function countedSinceStart(registry: Registry, options: { name: string; help: string; read: () => number }) {
  let reported = 0;
  new Counter({
    name: options.name,
    help: options.help,
    registers: [registry],
    collect() {
      const now = options.read();
      if (now > reported) this.inc(now - reported);
      reported = now;
    },
  });
}
