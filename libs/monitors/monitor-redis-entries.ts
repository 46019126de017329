import type { MonitorStateRepository } from '../monitoring/index.js';
import type { DueSet, Lane } from '../scheduler/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import type { HeartbeatTokens } from './heartbeat-pings.js';
import { checkRegionsOf, heartbeatAt, kindTerms } from './kinds/index.js';
import type { HeartbeatDocument, IntervalMonitor, MonitorDocument } from './monitor.repository.js';
import { refOf } from './monitor-readings.js';
import type { MonitorSummaries } from './monitor-summaries.js';

/* What Redis holds for a monitor: a heartbeat's ping token and deadline, an interval check's runs in each region its website is checked from, and its line in the website's summary. */

const terms = kindTerms;

/** What the entries are written through (`MonitorDependencies` extends it). */
export interface MonitorRedisPorts {
  /** The organization's website (not found: a `DomainError`). */
  website(organizationId: number, ref: string): Promise<WebsiteDocument>;
  states: MonitorStateRepository;
  tokens: HeartbeatTokens;
  /** Heartbeats' deadlines. */
  deadlines: DueSet;
  /** A region's interval checks' next runs, one due set per lane. */
  regionDue(region: string, lane: Lane): DueSet;
  summaries: MonitorSummaries;
}

/** The monitor in its website's summary (name and health), as lists of websites show it. */
async function summarize(
  ports: { states: MonitorStateRepository; summaries: MonitorSummaries },
  monitor: MonitorDocument,
): Promise<void> {
  const state = await ports.states.load(monitor.organizationId, monitor.websiteId, refOf(monitor));
  await ports.summaries.write(monitor.websiteId, {
    ...refOf(monitor),
    name: monitor.name,
    health: state.health,
  });
}

export async function registerHeartbeat(
  ports: MonitorRedisPorts,
  heartbeat: HeartbeatDocument,
): Promise<void> {
  await summarize(ports, heartbeat);
  const member = {
    kind: 'heartbeat',
    monitorId: heartbeat.id,
    organizationId: heartbeat.organizationId,
    websiteId: heartbeat.websiteId,
  };
  await ports.tokens.register(heartbeat.tokenHash, member);
  await ports.deadlines.schedule(member, heartbeatAt(heartbeat, new Date()).deadline);
}

/** An interval check runs at once in each region its website is checked from (`checkRegionsOf`), then every interval. */
export async function scheduleChecks(
  ports: Pick<MonitorRedisPorts, 'regionDue'>,
  check: IntervalMonitor,
  website: WebsiteDocument,
): Promise<void> {
  const member = {
    kind: check.kind,
    monitorId: check.id,
    organizationId: check.organizationId,
    websiteId: check.websiteId,
  };
  for (const region of checkRegionsOf(check.kind, website.scheduledRegions))
    await ports.regionDue(region, terms(check.kind).lane).schedule(member, Date.now());
}

/** What Redis holds for a monitor (its token, deadline, regions' runs). */
export async function forgetInRedis(
  ports: MonitorRedisPorts,
  monitor: MonitorDocument,
  regions: readonly string[] = [],
): Promise<void> {
  const member = {
    kind: monitor.kind,
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    websiteId: monitor.websiteId,
  };
  if (monitor.kind === 'heartbeat') {
    await ports.tokens.forget(monitor.tokenHash);
    await ports.deadlines.remove(member);
    return;
  }
  const website = await ports.website(monitor.organizationId, String(monitor.websiteId)).catch(() => null);
  for (const region of new Set([...regions, ...(website?.scheduledRegions ?? [])]))
    await ports.regionDue(region, terms(monitor.kind).lane).remove(member);
}
