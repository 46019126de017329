import { type CustomerWithPackage, isMonitored } from '../customers/index.js';
import { notFound } from '../errors/index.js';
import {
  inMaintenanceAt,
  type MonitorRef,
  type MonitorStateDocument,
  type MonitorStateRepository,
  monitorKey,
  type OtherResultItem,
  type PagedSource,
  UPTIME_PERIODS,
  type UptimePeriod,
  uptimeFigures,
} from '../monitoring/index.js';
import { type Feature, includesFeature } from '../packages/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { kindTerms } from './kinds/index.js';
import type { IntervalMonitor, MonitorDocument, MonitorRepository } from './monitor.repository.js';
import type { MonitorStatus } from './monitor-common.js';
import { monitorResultSource } from './monitor-results.js';

/* What the monitors' views read: where each stands, its uptime over a period, its results. */

const terms = kindTerms;

/** A monitor's uptime reads at most this many of its newest results of the period (primary-key reads). */
export const UPTIME_RESULTS_READ = 1000;

export const refOf = (monitor: Pick<MonitorDocument, 'kind' | 'id'>): MonitorRef => ({
  kind: monitor.kind,
  id: monitor.id,
});

/** Where a monitor stands for people: paused while its website is not monitored, else its state. */
export function monitorStatusOf(
  state: MonitorStateDocument,
  website: Pick<WebsiteDocument, 'paused'>,
  owner: CustomerWithPackage | null,
  websiteState: MonitorStateDocument,
  feature: Feature,
  now: Date,
): { status: MonitorStatus; since: Date | null } {
  const paused =
    website.paused || !owner || !isMonitored(owner.customer.status) || !includesFeature(owner.pkg, feature);
  if (paused) return { status: 'paused', since: null };
  if (inMaintenanceAt(websiteState, now)) return { status: 'maintenance', since: null };
  const health = state.health === 'degraded' ? 'up' : state.health;
  return { status: health, since: state.since };
}

/**
 * The logs of the website's monitors with results (of `kind`, or the one `monitorId`), as sources
 * of its merged results page; a `monitorId` it has none of is a 404.
 */
export async function resultSourcesOf(
  repository: MonitorRepository,
  website: WebsiteDocument,
  filter: { kind?: string; monitorId?: number },
  window: { from?: Date | undefined; to?: Date | undefined },
): Promise<Array<PagedSource<OtherResultItem>>> {
  const monitors = (await repository.listByWebsite(website.organizationId, website.id)).filter(
    (monitor): monitor is IntervalMonitor =>
      monitor.kind !== 'heartbeat' &&
      (filter.kind === undefined || monitor.kind === filter.kind) &&
      (filter.monitorId === undefined || monitor.id === filter.monitorId),
  );
  if (filter.monitorId !== undefined && monitors.length === 0)
    throw notFound(
      `No monitor ${filter.monitorId}${filter.kind ? ` of kind ${filter.kind}` : ''} with results on this website (a heartbeat's pings are at /api/heartbeats/{id}/pings)`,
    );
  return monitors.map((monitor) => monitorResultSource(repository, monitor, window));
}

/**
 * A monitor's uptime over a period, as a website's: the share of time since it was added (or the
 * period's start) not inside one of its down incidents; its results (a heartbeat's pings) and
 * their response times from the newest `UPTIME_RESULTS_READ` of the period.
 */
export async function monitorUptime(
  ports: { states: MonitorStateRepository; repository: MonitorRepository },
  organizationId: number,
  monitor: MonitorDocument,
  period: UptimePeriod,
) {
  const now = new Date();
  const periodSeconds = UPTIME_PERIODS[period];
  const from = new Date(now.getTime() - periodSeconds * 1000);
  const [incidents, entries] = await Promise.all([
    ports.states.incidentsOfMonitorSince(organizationId, monitor.websiteId, refOf(monitor), from),
    ports.repository.readLog(monitor, UPTIME_RESULTS_READ, undefined, { from }),
  ]);
  const oldest = entries.at(-1);
  return uptimeFigures({
    now,
    periodSeconds,
    // Checked from its creation (its first result comes within an interval, or its first ping).
    firstResultAt: oldest ? new Date(Math.min(monitor.createdAt.getTime(), oldest.at.getTime())) : null,
    incidents: incidents.filter((incident) => (incident.resolvedAt ?? now) > from),
    responseTimesMs: entries.flatMap((entry) =>
      entry.result && entry.result.status !== 'down' ? [entry.result.durationMs] : [],
    ),
    checks: entries.length,
  });
}

/** The monitors' states and where they stand, for their views. */
export async function standingsOf(
  ports: {
    states: MonitorStateRepository;
    owner(website: WebsiteDocument): Promise<CustomerWithPackage | null>;
  },
  website: WebsiteDocument,
  monitors: readonly MonitorDocument[],
): Promise<Map<number, { state: MonitorStateDocument; status: MonitorStatus; since: Date | null }>> {
  const [states, owner, websiteState] = await Promise.all([
    ports.states.monitorStates(website.organizationId, website.id, monitors.map(refOf)),
    ports.owner(website),
    ports.states.load(website.organizationId, website.id),
  ]);
  const now = new Date();
  return new Map(
    monitors.map((monitor) => {
      const state = states.get(monitorKey(website.id, refOf(monitor))) as MonitorStateDocument;
      return [
        monitor.id,
        {
          state,
          ...monitorStatusOf(state, website, owner, websiteState, terms(monitor.kind).feature, now),
        },
      ];
    }),
  );
}
