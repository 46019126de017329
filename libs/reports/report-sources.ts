import type { Db } from 'mongodb';
import type { OrganizationRepository } from '../auth/index.js';
import type { CustomerRepository } from '../customers/index.js';
import { readFanOut } from '../db/index.js';
import { knownDomainExpiries } from '../domains/index.js';
import type { MaintenanceWindowRepository } from '../maintenance/index.js';
import {
  type IncidentDocument,
  type MonitorStateRepository,
  monitorKey,
  monitorStateSchema,
  type RollupRepository,
} from '../monitoring/index.js';
import {
  type MonitorDocument,
  type MonitorRepository,
  monitorHistories,
  PROBE_KINDS,
  RunTallies,
} from '../monitors/index.js';
import type { LogoStore } from '../organizations/index.js';
import { getMany, type Redis } from '../redis/index.js';
import { LighthouseHistory, SiteFindings } from '../site-health/index.js';
import type { WebsiteRepository } from '../websites/index.js';
import type { ReportSources } from './report-builder.js';

/** Websites whose monitors are listed at once (each list one primary-key read). */
const WEBSITES_AT_ONCE = 8;

/** The host a monitor reaches, and nothing else of its settings (they may hold credentials). */
function targetOf(monitor: MonitorDocument): string | null {
  switch (monitor.kind) {
    case 'heartbeat':
      return null;
    case 'dns':
    case 'port':
      return monitor.host;
    default:
      try {
        return PROBE_KINDS[monitor.kind].hostOf(monitor.settings);
      } catch {
        // Settings its kind's schema no longer reads: the check itself says so; the report names no host.
        return null;
      }
  }
}

/** When a heartbeat's job was last heard from (its document keeps it). */
function lastHeard(monitor: MonitorDocument): Date | null {
  if (monitor.kind !== 'heartbeat') return null;
  const times = [monitor.lastSuccessAt, monitor.lastStartAt, monitor.lastFailureAt]
    .filter((at): at is Date => at instanceof Date)
    .map((at) => at.getTime());
  return times.length === 0 ? null : new Date(Math.max(...times));
}

/** The later of two moments (null: none). */
const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/** A state's hot copy's last result (null: none, or not a state this version reads). */
function lastChecked(hotCopy: string | null): Date | null {
  if (hotCopy === null) return null;
  try {
    return monitorStateSchema.parse(JSON.parse(hotCopy)).lastResultAt;
  } catch {
    return null;
  }
}

/** An incident as a client reads it: no first failures, no acknowledgement, the public note's text. */
const reportIncident = (incident: IncidentDocument) => ({
  id: incident.id,
  websiteId: incident.websiteId,
  startedAt: incident.startedAt,
  resolvedAt: incident.resolvedAt,
  cause: incident.cause,
  regions: incident.regions,
  publicNote: incident.publicNote?.text ?? null,
});

/** A report's sources over the control plane's repositories. */
export function repositoryReportSources(deps: {
  db: Db;
  organizations: OrganizationRepository;
  customers: CustomerRepository;
  websites: WebsiteRepository;
  rollups: RollupRepository;
  states: MonitorStateRepository;
  monitors: Pick<MonitorRepository, 'listByWebsite'>;
  /** Where the monitors' states' hot copies are (their last check, one MGET). */
  redis: Redis;
  windows: MaintenanceWindowRepository;
  logos: LogoStore;
}): ReportSources {
  const tallies = new RunTallies(deps.db);
  // Over the same database as the rest: nothing for the processes that compose reports to wire.
  const findings = new SiteFindings(deps.db);
  const lighthouse = new LighthouseHistory(deps.db);
  return {
    organization: async (organizationId) => {
      const [organization, logo] = await Promise.all([
        deps.organizations.findById(organizationId),
        deps.logos.get(organizationId),
      ]);
      return {
        name: organization?.name ?? '',
        timezone: organization?.timezone ?? 'UTC',
        branding: {
          accentColor: organization?.branding?.accentColor ?? null,
          footerText: organization?.branding?.footerText ?? null,
          // Inline: the page, its e-mail and its PDF need nothing fetched.
          logoDataUrl: logo && `data:${logo.contentType};base64,${logo.data.toString('base64')}`,
        },
      };
    },
    customer: async (organizationId, customerId) => {
      const customer = await deps.customers.findById(organizationId, customerId);
      return customer && { id: customer.id, name: customer.name, reportIntro: customer.reportIntro ?? null };
    },
    websites: async (organizationId, customerId) => {
      const websites = await deps.websites.listByCustomer(organizationId, customerId);
      const states = await deps.states.statesOf(
        organizationId,
        websites.map((w) => w.id),
      );
      return websites.map((w) => ({
        id: w.id,
        name: w.name,
        url: w.url,
        createdAt: w.createdAt,
        lastCheckedAt: states.get(w.id)?.lastResultAt ?? null,
      }));
    },
    dayRollups: (organizationId, websiteIds, from, until) =>
      deps.rollups.since(organizationId, websiteIds, 'day', from, until),
    incidents: async (organizationId, websiteIds, since) =>
      (await deps.states.incidentsOfWebsites(organizationId, websiteIds, since))
        .filter((incident) => !incident.monitor)
        .map(reportIncident),
    monitors: async (organizationId, websiteIds) => {
      // Each website's list of monitors by primary key, a few websites at once.
      const limit = readFanOut(WEBSITES_AT_ONCE);
      const monitors = (
        await Promise.all(
          [...new Set(websiteIds)].map((id) =>
            limit.run(() => deps.monitors.listByWebsite(organizationId, id)),
          ),
        )
      ).flat();
      // Their last checks from their states' hot copies (one round trip; MongoDB's copy lags them).
      const hot = await getMany(
        deps.redis,
        monitors.map((m) => deps.states.cache.key(monitorKey(m.websiteId, { kind: m.kind, id: m.id }))),
      );
      return monitors.map((monitor, i) => ({
        id: monitor.id,
        websiteId: monitor.websiteId,
        kind: monitor.kind,
        name: monitor.name,
        target: targetOf(monitor),
        createdAt: monitor.createdAt,
        lastCheckedAt: later(lastChecked(hot[i] ?? null), lastHeard(monitor)),
      }));
    },
    monitorIncidents: async (organizationId, websiteIds, since) => {
      // Each monitor's incidents from its own list, by primary key (a filter on the collection
      // would read all of it on FerretDB 1.24, and it only grows).
      const histories = await monitorHistories(
        { repository: deps.monitors, states: deps.states },
        organizationId,
        websiteIds,
        since,
      );
      return [...histories.values()].flatMap(({ incidents }) =>
        incidents.flatMap((incident) =>
          incident.monitor && (incident.resolvedAt === null || incident.resolvedAt >= since)
            ? [{ ...reportIncident(incident), monitor: incident.monitor }]
            : [],
        ),
      );
    },
    windows: (organizationId, websiteIds) => deps.windows.listByWebsites(organizationId, websiteIds),
    journeyRuns: (organizationId, monitor, from, to) =>
      tallies.days({ organizationId, ...monitor }, from, to),
    siteHealth: async (organizationId, websiteId, period) => {
      const [changed, runs] = await Promise.all([
        findings.changedWithin(organizationId, websiteId, period),
        lighthouse.forWebsite(organizationId, websiteId, period),
      ]);
      return {
        findings: changed.map(({ finding, state, fixedAt, firstSeenAt }) => ({
          finding,
          firstSeenAt,
          fixedAt: state === 'fixed' ? fixedAt : null,
        })),
        // Scores only: a run's metrics, audits and report stay out of the client's report.
        lighthouse: runs.flatMap((run) =>
          run.figures ? [{ url: run.url, preset: run.preset, at: run.at, scores: run.figures.scores }] : [],
        ),
      };
    },
    domainExpiries: async (websites) => {
      const hosts = websites.map((w) => new URL(w.url).hostname);
      const domains = await knownDomainExpiries(deps.db, hosts);
      return new Map(websites.map((w, i) => [w.id, domains.get(hosts[i] as string) ?? null]));
    },
  };
}
