import { asBulkWork, readFanOut } from '../db/index.js';
import { notFound } from '../errors/index.js';
import type { OtherMonitorKind } from '../events/index.js';
import { type Occurrence, occurrences, type WindowSchedule } from '../maintenance/index.js';
import type { ResultRollup } from '../monitoring/index.js';
import { isTalliedKind, type TalliedKind } from '../monitors/index.js';
import { groupBy, mapInTurns } from '../runtime/index.js';
import type { JourneyDay } from './journey-figures.js';
import {
  assembleReport,
  type ComputedReport,
  type MonitorReportInput,
  type ReportDay,
  type ReportIncident,
  type ReportInput,
  reportFrame,
  websiteReport,
} from './report-figures.js';
import type { ReportBranding } from './report-html.js';
import { reportPeriod } from './report-period.js';
import { type ClientReport, toClientReport } from './report-view.js';
import type { LighthouseScoreRecord, SiteFindingRecord, SiteHealthInput } from './site-health-figures.js';

/**
 * What a report reads, each scoped to the organization: rollups, incidents, windows and the other
 * monitors, never raw results.
 */
export interface ReportSources {
  organization(organizationId: number): Promise<{
    name: string;
    timezone: string;
    branding: Omit<ReportBranding, 'intro'>;
  }>;
  customer(
    organizationId: number,
    customerId: number,
  ): Promise<{ id: number; name: string; reportIntro: string | null } | null>;
  websites(
    organizationId: number,
    customerId: number,
  ): Promise<Array<{ id: number; name: string; url: string; createdAt: Date; lastCheckedAt: Date | null }>>;
  /** Day rollups (UTC days, every region) of these websites from `from` until before `until`. */
  dayRollups(
    organizationId: number,
    websiteIds: readonly number[],
    from: Date,
    until: Date,
  ): Promise<ResultRollup[]>;
  /** Incidents open or resolved since `since`. */
  incidents(
    organizationId: number,
    websiteIds: readonly number[],
    since: Date,
  ): Promise<Array<ReportIncident & { websiteId: number }>>;
  /** The other monitors of these websites (heartbeats, DNS, port, ping … checks), in one read. */
  monitors(
    organizationId: number,
    websiteIds: readonly number[],
  ): Promise<Array<Omit<MonitorReportInput, 'incidents'> & { websiteId: number }>>;
  /** The incidents of these websites' other monitors open or resolved since `since`, in one read. */
  monitorIncidents(
    organizationId: number,
    websiteIds: readonly number[],
    since: Date,
  ): Promise<Array<ReportIncident & { websiteId: number; monitor: { kind: OtherMonitorKind; id: number } }>>;
  windows(
    organizationId: number,
    websiteIds: readonly number[],
  ): Promise<Array<WindowSchedule & { websiteId: number; title: string }>>;
  /** When each website's domain expires, as last looked up. */
  domainExpiries(websites: ReadonlyArray<{ id: number; url: string }>): Promise<Map<number, Date | null>>;
  /** A browser journey's or API flow's runs by UTC day from `from` to `to` (yyyy-MM-dd, inclusive). */
  journeyRuns(
    organizationId: number,
    monitor: { kind: TalliedKind; id: number },
    from: string,
    to: string,
  ): Promise<JourneyDay[]>;
  /**
   * A website's site-health findings opened or fixed in [from, to) or open at its end, and its
   * scored Lighthouse runs in it (this organization's, this website's only).
   */
  siteHealth(
    organizationId: number,
    websiteId: number,
    period: { from: Date; to: Date },
  ): Promise<{ findings: SiteFindingRecord[]; lighthouse: LighthouseScoreRecord[] }>;
}

/** Journeys whose runs are read at once (each a few primary-key reads). */
const JOURNEYS_AT_ONCE = 4;
/** Websites whose site health is read at once (each two indexed reads). */
const SITE_HEALTH_AT_ONCE = 4;
const SITE_HEALTH_KINDS = new Set(['crawl', 'lighthouse']);

type ReportedMonitor = Awaited<ReturnType<ReportSources['monitors']>>[number];

/**
 * The site health of the websites with a site crawl or Lighthouse check, by website id. A check
 * ran in the period when it was added before its end and last checked after its start (a crawl
 * that found nothing still says so); their findings and runs are the period's.
 */
async function readSiteHealth(
  sources: ReportSources,
  organizationId: number,
  websiteIds: readonly number[],
  monitors: readonly ReportedMonitor[],
  period: { from: Date; to: Date },
): Promise<Map<number, SiteHealthInput>> {
  // The report's websites only: another customer's findings never reach its report.
  const reported = new Set(websiteIds);
  const checks = new Map<number, { crawled: boolean; lighthouseChecked: boolean }>();
  for (const monitor of monitors) {
    if (!SITE_HEALTH_KINDS.has(monitor.kind) || !reported.has(monitor.websiteId)) continue;
    const ran =
      monitor.createdAt < period.to && monitor.lastCheckedAt != null && monitor.lastCheckedAt >= period.from;
    const kept = checks.get(monitor.websiteId) ?? { crawled: false, lighthouseChecked: false };
    if (monitor.kind === 'crawl') kept.crawled ||= ran;
    else kept.lighthouseChecked ||= ran;
    checks.set(monitor.websiteId, kept);
  }
  const limit = readFanOut(SITE_HEALTH_AT_ONCE);
  return new Map(
    await Promise.all(
      [...checks].map(([websiteId, ran]) =>
        limit.run(async () => {
          const read = await sources.siteHealth(organizationId, websiteId, period);
          return [websiteId, { ...ran, ...read }] as const;
        }),
      ),
    ),
  );
}

/** A UTC day's rollups of a website from every region, summed. */
function daysOf(rows: readonly ResultRollup[]): ReportDay[] {
  const byDate = new Map<string, ReportDay>();
  for (const row of rows) {
    const date = row.start.toISOString().slice(0, 10);
    const day = byDate.get(date) ?? { date, checks: 0, responseMsMax: 0, latency: {} };
    day.checks += row.checks;
    day.responseMsMax = Math.max(day.responseMsMax, row.responseMsMax);
    if (row.sslValidTo !== undefined) day.sslValidTo = Math.max(day.sslValidTo ?? 0, row.sslValidTo);
    for (const [bucket, count] of Object.entries(row.latency ?? {}))
      (day.latency as Record<string, number>)[bucket] = (day.latency?.[bucket] ?? 0) + count;
    byDate.set(date, day);
  }
  return [...byDate.values()];
}

/** A window's occurrences touching [from, to). */
function occurrencesBetween(window: WindowSchedule, from: Date, to: Date): Occurrence[] {
  const found: Occurrence[] = [];
  for (const occurrence of occurrences(window, from)) {
    if (occurrence.startsAt >= to) break;
    if (occurrence.endsAt > from) found.push(occurrence);
  }
  return found;
}

/**
 * `computeReport` with a turn of the event loop between websites whenever a slice of work went by
 * (the process's background slice, shared with exports and imports): 200 websites' figures in one
 * go held a serving API's thread ~200 ms.
 */
async function computeReportInTurns(input: ReportInput): Promise<ComputedReport> {
  const frame = reportFrame(input);
  const websites = await mapInTurns(input.websites, (site) => websiteReport(frame, site));
  return assembleReport(frame, input.websites, websites);
}

/**
 * A customer's report for a period (query `from`/`to`, days in the organization's timezone): the
 * period and the one before it read from day rollups, incidents and maintenance windows, as bulk
 * work (its thousands of reads take turns with people's requests at MongoDB).
 */
export function buildReport(
  sources: ReportSources,
  organizationId: number,
  customerId: number,
  query: { from?: string; to?: string },
  now: Date,
): Promise<{ report: ClientReport; branding: ReportBranding }> {
  return asBulkWork(`organization:${organizationId}`, () =>
    readReport(sources, organizationId, customerId, query, now),
  );
}

async function readReport(
  sources: ReportSources,
  organizationId: number,
  customerId: number,
  query: { from?: string; to?: string },
  now: Date,
): Promise<{ report: ClientReport; branding: ReportBranding }> {
  const customer = await sources.customer(organizationId, customerId);
  if (!customer) throw notFound(`No customer ${customerId}`);
  const organization = await sources.organization(organizationId);
  const period = reportPeriod(query, organization.timezone, now);
  const websites = await sources.websites(organizationId, customerId);
  const ids = websites.map((w) => w.id);
  const [rollups, incidents, windows, expiries, monitors, monitorIncidents] = await Promise.all([
    // Day cells are UTC days: from the first day's UTC midnight (west of UTC, before its local one).
    sources.dayRollups(
      organizationId,
      ids,
      new Date(`${period.previous.fromDate}T00:00:00Z`),
      new Date(`${period.toDate}T23:59:59.999Z`),
    ),
    sources.incidents(organizationId, ids, period.previous.from),
    sources.windows(organizationId, ids),
    sources.domainExpiries(websites),
    sources.monitors(organizationId, ids),
    // The monitors' figures are the period's alone.
    sources.monitorIncidents(organizationId, ids, period.from),
  ]);
  // Each journey's runs of the period's days (its figures are the period's alone, as its uptime is),
  // and the site health of the websites with site crawls or Lighthouse checks.
  const journeys = readFanOut(JOURNEYS_AT_ONCE);
  const [journeyRuns, siteHealthOf] = await Promise.all([
    Promise.all(
      monitors.flatMap((monitor) => {
        const { kind, id } = monitor;
        return isTalliedKind(kind)
          ? [
              journeys.run(
                async () =>
                  [
                    id,
                    await sources.journeyRuns(organizationId, { kind, id }, period.fromDate, period.toDate),
                  ] as const,
              ),
            ]
          : [];
      }),
    ),
    readSiteHealth(sources, organizationId, ids, monitors, period),
  ]);
  const runsOf = new Map(journeyRuns);
  const rollupsOf = groupBy(rollups, (r) => r.websiteId);
  const incidentsOf = groupBy(incidents, (i) => i.websiteId);
  const windowsOf = groupBy(windows, (w) => w.websiteId);
  // Monitor ids are one sequence for every kind; a deleted monitor's incidents are left out.
  const monitorIncidentsOf = groupBy(monitorIncidents, (i) => i.monitor.id);
  const monitorsOf = groupBy(monitors, (m) => m.websiteId);
  const computed = await computeReportInTurns({
    period,
    now,
    websites: await mapInTurns(websites, (website) => {
      const days = daysOf(rollupsOf.get(website.id) ?? []);
      const siteHealth = siteHealthOf.get(website.id);
      // The certificate as the latest day with one saw it (the rollups keep it: no raw result read).
      const certificate = days
        .filter((d) => d.sslValidTo !== undefined)
        .sort((a, b) => b.date.localeCompare(a.date))[0];
      return {
        ...website,
        days,
        incidents: incidentsOf.get(website.id) ?? [],
        maintenance: (windowsOf.get(website.id) ?? []).flatMap((window) =>
          occurrencesBetween(window, period.previous.from, period.to).map((o) => ({
            title: window.title,
            ...o,
          })),
        ),
        certificateExpiresAt: certificate?.sslValidTo === undefined ? null : new Date(certificate.sslValidTo),
        domainExpiresAt: expiries.get(website.id) ?? null,
        monitors: (monitorsOf.get(website.id) ?? []).map(({ websiteId: _websiteId, ...monitor }) => {
          const runs = runsOf.get(monitor.id);
          return {
            ...monitor,
            incidents: (monitorIncidentsOf.get(monitor.id) ?? []).filter(
              (i) => i.websiteId === website.id && i.monitor.kind === monitor.kind,
            ),
            ...(runs ? { runs } : {}),
          };
        }),
        ...(siteHealth ? { siteHealth } : {}),
      };
    }),
  });
  return {
    report: toClientReport(computed, {
      organizationName: organization.name,
      customer: { id: customer.id, name: customer.name },
      now,
    }),
    branding: { ...organization.branding, intro: customer.reportIntro },
  };
}
