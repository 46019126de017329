import type { OtherMonitorKind } from '../events/index.js';
import { availability, type Span } from '../monitoring/index.js';
import { type JourneyDay, journeyFiguresOf } from './journey-figures.js';
import { percentileOf } from './latency-percentile.js';
import type { ReportPeriod } from './report-period.js';
import { partsOf } from './report-period.js';
import { type SiteHealthInput, siteHealthFiguresOf } from './site-health-figures.js';

export { percentileOf } from './latency-percentile.js';

/** One UTC day of a website's rollups, every region summed (`date`: yyyy-MM-dd). */
export interface ReportDay {
  date: string;
  checks: number;
  responseMsMax: number;
  latency?: Record<string, number>;
  /** The latest certificate expiry seen that day (ms since the epoch). */
  sslValidTo?: number;
}

export interface ReportIncident {
  id: string;
  startedAt: Date;
  resolvedAt: Date | null;
  cause: string;
  regions: string[];
  publicNote: string | null;
}

/** A website's other monitor (a heartbeat, a DNS, port, ping … check): checked while its website is. */
export interface MonitorReportInput {
  id: number;
  kind: OtherMonitorKind;
  name: string;
  /** The host it reaches; null: none (a heartbeat, pinged by its job). */
  target: string | null;
  createdAt: Date;
  /** Its last check or ping, as its state or its document says (null: none known). */
  lastCheckedAt?: Date | null;
  /** Its own incidents (`incident.monitor` is this monitor), open or resolved in the period. */
  incidents: readonly ReportIncident[];
  /** A browser journey's or API flow's runs by UTC day (absent: a monitor of another kind). */
  runs?: readonly JourneyDay[];
}

export interface WebsiteReportInput {
  id: number;
  name: string;
  url: string;
  createdAt: Date;
  /** Its state's last check: the checks of an open period reach the day rollups only when flushed. */
  lastCheckedAt?: Date | null;
  days: readonly ReportDay[];
  incidents: readonly ReportIncident[];
  /** Maintenance occurrences that touch the period or the one before. */
  maintenance: ReadonlyArray<{ title: string; startsAt: Date; endsAt: Date }>;
  certificateExpiresAt: Date | null;
  domainExpiresAt: Date | null;
  /** Its other monitors, each with its own incidents (none: only its HTTP check). */
  monitors?: readonly MonitorReportInput[];
  /** What its site crawls and Lighthouse checks found (absent: it has none). */
  siteHealth?: SiteHealthInput;
}

/** How each figure is computed: written into every report. */
export const REPORT_FORMULAS = {
  uptime: 'uptime % = 100 × (1 − down time ÷ time monitored); down time is time inside a down incident',
  slaUptime:
    'SLA uptime % = 100 × (1 − (down time − down time in maintenance) ÷ (time monitored − maintenance time))',
  monitored: 'time monitored: the period from the website’s creation (if later) until now (if sooner)',
  mttr: 'mean time to recovery: the mean length of the incidents resolved in the period',
  responseTimes:
    'response times: p50 and p95 of the checks that got an answer, from hourly-merged histograms (within ~7 %), by UTC day',
  monitors:
    'other monitors (heartbeats, DNS, port, ping … checks): uptime and SLA uptime as above from their own incidents, monitored from their creation while their website is (its maintenance left out of their SLA uptime); not part of the website’s or the customer’s figures',
  journeys:
    'browser journeys and API flows: success rate % = 100 × runs that passed every step ÷ runs, every region, by UTC day; each step’s median time over the runs it passed in, from histograms (within ~7 %)',
  siteHealth:
    'site health: broken links its site crawls first found in the period and those they no longer found (fixed); mixed content and sitemap errors open at its end; each page and preset’s Lighthouse scores at its first and last scored run in the period, trend = last − first in points',
} as const;

const round3 = (value: number) => Math.round(value * 1000) / 1000;
/** The largest (0 for none), without spreading: a customer's days can be hundreds of thousands. */
const largest = (values: Iterable<number>) => {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
};

export interface Figures {
  uptimePercent: number | null;
  slaUptimePercent: number | null;
  monitoredSeconds: number;
  downtimeSeconds: number;
  maintenanceSeconds: number;
  slaDowntimeSeconds: number;
  incidents: number;
  longestIncidentSeconds: number;
  mttrSeconds: number | null;
  checks: number;
  responseTimeMs: { p50: number | null; p95: number | null };
}

/** A monitor's figures: those of a website without checks and response times (no rollups of its own). */
export type MonitorFigures = Omit<Figures, 'checks' | 'responseTimeMs'>;

/**
 * Down time, incidents and recovery over a window, and whether it was monitored (`checked`: seen
 * checked inside it; down time counts as checked too): a website's or one of its other monitors'.
 */
function outagesOf(
  incidents: readonly ReportIncident[],
  maintenance: readonly Span[],
  window: Span,
  now: number,
  checked: boolean,
): MonitorFigures {
  const shares = availability({ window, incidents, maintenance, now });
  const touching = incidents.filter(
    (i) => i.startedAt.getTime() < window.end && (i.resolvedAt?.getTime() ?? now) > window.start,
  );
  const clipped = touching.map(
    (i) =>
      Math.min(window.end, i.resolvedAt?.getTime() ?? now) - Math.max(window.start, i.startedAt.getTime()),
  );
  const resolved = touching.filter(
    (i): i is ReportIncident & { resolvedAt: Date } =>
      i.resolvedAt !== null && i.resolvedAt.getTime() >= window.start && i.resolvedAt.getTime() < window.end,
  );
  // Not checked in the window (paused, or added too late) and never down: no figure, and no weight
  // in the customer's (as GET …/uptime says nothing before the first check).
  const monitored = window.end > window.start && (checked || shares.downtimeSeconds > 0);
  return {
    uptimePercent: monitored ? shares.uptimePercent : null,
    slaUptimePercent: monitored ? shares.slaUptimePercent : null,
    monitoredSeconds: monitored ? shares.windowSeconds : 0,
    downtimeSeconds: shares.downtimeSeconds,
    maintenanceSeconds: monitored ? shares.maintenanceSeconds : 0,
    slaDowntimeSeconds: shares.slaDowntimeSeconds,
    incidents: touching.length,
    longestIncidentSeconds: Math.round(largest(clipped) / 1000),
    mttrSeconds:
      resolved.length === 0
        ? null
        : Math.round(
            resolved.reduce((sum, i) => sum + i.resolvedAt.getTime() - i.startedAt.getTime(), 0) /
              resolved.length /
              1000,
          ),
  };
}

/** Whether `at` falls inside the window. */
const within = (at: Date | null | undefined, window: Span) =>
  at != null && at.getTime() >= window.start && at.getTime() < window.end;

const maintenanceSpans = (site: WebsiteReportInput): Span[] =>
  site.maintenance.map((m) => ({ start: m.startsAt.getTime(), end: m.endsAt.getTime() }));

/** A website's figures over [from, to) (and its days from fromDate to toDate). */
function figuresOf(
  site: WebsiteReportInput,
  span: Span,
  dates: { from: string; to: string },
  now: number,
): Figures {
  const window = { start: Math.max(span.start, site.createdAt.getTime()), end: Math.min(span.end, now) };
  const days = site.days.filter((d) => d.date >= dates.from && d.date <= dates.to);
  const histogram = mergedLatency(days);
  const maxMs = largest(days.map((d) => d.responseMsMax));
  const checks = days.reduce((sum, d) => sum + d.checks, 0);
  // The checks of an open period reach the day rollups when flushed: its last check says it was checked.
  const checked = checks > 0 || within(site.lastCheckedAt, window);
  return {
    ...outagesOf(site.incidents, maintenanceSpans(site), window, now, checked),
    checks,
    responseTimeMs: { p50: percentileOf(histogram, 50, maxMs), p95: percentileOf(histogram, 95, maxMs) },
  };
}

/**
 * A website's other monitor's figures over [from, to): from its own incidents, from its creation
 * (if later), checked while its website is (a day of the website's checks since the monitor was
 * added, the website's last check or its own inside the window: a website's monitors are paused,
 * suspended and in maintenance with it), its website's maintenance left out of its SLA uptime.
 */
function monitorFiguresOf(
  site: WebsiteReportInput,
  monitor: MonitorReportInput,
  span: Span,
  dates: { from: string; to: string },
  now: number,
): MonitorFigures {
  const window = {
    start: Math.max(span.start, monitor.createdAt.getTime()),
    end: Math.min(span.end, now),
  };
  // Day cells are UTC days: the monitor's from the UTC day it was added.
  const addedOn = monitor.createdAt.toISOString().slice(0, 10);
  const checked =
    site.days.some((d) => d.checks > 0 && d.date >= dates.from && d.date <= dates.to && d.date >= addedOn) ||
    within(site.lastCheckedAt, window) ||
    within(monitor.lastCheckedAt, window);
  return outagesOf(monitor.incidents, maintenanceSpans(site), window, now, checked);
}

function mergedLatency(days: readonly ReportDay[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const day of days)
    for (const [bucket, count] of Object.entries(day.latency ?? {}))
      merged[bucket] = (merged[bucket] ?? 0) + count;
  return merged;
}

/** Several websites' figures as one: time-weighted uptime, sums, the longest, merged percentiles. */
function combined(
  all: readonly Figures[],
  histogram: Record<string, number>,
  maxMs: number,
  mttr: number | null,
): Figures {
  const sum = (pick: (f: Figures) => number) => all.reduce((total, f) => total + pick(f), 0);
  const monitored = sum((f) => f.monitoredSeconds);
  const maintenance = sum((f) => f.maintenanceSeconds);
  const down = sum((f) => f.downtimeSeconds);
  const slaDown = sum((f) => f.slaDowntimeSeconds);
  return {
    uptimePercent: monitored > 0 ? round3((1 - down / monitored) * 100) : null,
    slaUptimePercent:
      monitored - maintenance > 0 ? round3((1 - slaDown / (monitored - maintenance)) * 100) : null,
    monitoredSeconds: monitored,
    downtimeSeconds: down,
    maintenanceSeconds: maintenance,
    slaDowntimeSeconds: slaDown,
    incidents: sum((f) => f.incidents),
    longestIncidentSeconds: largest(all.map((f) => f.longestIncidentSeconds)),
    mttrSeconds: mttr,
    checks: sum((f) => f.checks),
    responseTimeMs: { p50: percentileOf(histogram, 50, maxMs), p95: percentileOf(histogram, 95, maxMs) },
  };
}

const change = (now: number | null, before: number | null) =>
  now === null || before === null ? null : round3(now - before);

/** What every website's figures of a report share: its period's spans, dates and parts. */
export function reportFrame(input: { period: ReportPeriod; now: Date }) {
  const { period } = input;
  return {
    period,
    now: input.now.getTime(),
    span: { start: period.from.getTime(), end: period.to.getTime() },
    previousSpan: { start: period.previous.from.getTime(), end: period.previous.to.getTime() },
    dates: { from: period.fromDate, to: period.toDate },
    previousDates: { from: period.previous.fromDate, to: period.previous.toDate },
    parts: partsOf(period),
  };
}

export type ReportFrame = ReturnType<typeof reportFrame>;

/** A website's figures of the period, the previous one and each part, its incidents and maintenance. */
export function websiteReport(frame: ReportFrame, site: WebsiteReportInput) {
  const { span, now } = frame;
  const inPeriod = (start: Date, end: Date | null) =>
    start.getTime() < span.end && (end?.getTime() ?? now) > span.start;
  const monitors = site.monitors ?? [];
  return {
    site,
    figures: figuresOf(site, span, frame.dates, now),
    previous: figuresOf(site, frame.previousSpan, frame.previousDates, now),
    parts: frame.parts.map((part) => ({ ...part, figures: figuresOf(site, part.span, part, now) })),
    monitors: monitors.map((monitor) => ({
      monitor,
      figures: monitorFiguresOf(site, monitor, span, frame.dates, now),
      journey: monitor.runs ? journeyFiguresOf(monitor.runs, frame.dates) : null,
    })),
    siteHealth: site.siteHealth ? siteHealthFiguresOf(site.siteHealth, span) : null,
    // The HTTP check's incidents and its other monitors' in one list, each marked with its monitor.
    incidents: [
      ...site.incidents.map((incident) => ({ ...incident, monitor: null })),
      ...monitors.flatMap((monitor) =>
        monitor.incidents.map((incident) => ({
          ...incident,
          monitor: { id: monitor.id, kind: monitor.kind, name: monitor.name },
        })),
      ),
    ]
      .filter((i) => inPeriod(i.startedAt, i.resolvedAt))
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()),
    maintenance: site.maintenance
      .filter((m) => inPeriod(m.startsAt, m.endsAt))
      .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()),
  };
}

type WebsiteReport = ReturnType<typeof websiteReport>;

/** The customer's figures over its websites' reports, and the report as a whole. */
export function assembleReport(
  frame: ReportFrame,
  inputs: readonly WebsiteReportInput[],
  websites: WebsiteReport[],
) {
  const { period, now } = frame;
  const total = (pick: (w: WebsiteReport) => Figures, range: { from: string; to: string }, within: Span) => {
    const days = inputs.flatMap((site) =>
      site.days.filter((d) => d.date >= range.from && d.date <= range.to),
    );
    const resolved = inputs.flatMap((site) =>
      site.incidents.filter(
        (i) =>
          i.resolvedAt !== null &&
          i.resolvedAt.getTime() >= within.start &&
          i.resolvedAt.getTime() < Math.min(within.end, now),
      ),
    );
    const mttr =
      resolved.length === 0
        ? null
        : Math.round(
            resolved.reduce((sum, i) => sum + ((i.resolvedAt as Date).getTime() - i.startedAt.getTime()), 0) /
              resolved.length /
              1000,
          );
    return combined(websites.map(pick), mergedLatency(days), largest(days.map((d) => d.responseMsMax)), mttr);
  };
  const customer = total((w) => w.figures, frame.dates, frame.span);
  const customerBefore = total((w) => w.previous, frame.previousDates, frame.previousSpan);
  return {
    period: { from: period.fromDate, to: period.toDate, timezone: period.timezone, days: period.days },
    previousPeriod: { from: period.previous.fromDate, to: period.previous.toDate },
    formulas: REPORT_FORMULAS,
    customer: {
      ...customer,
      previous: customerBefore,
      change: {
        uptimePercent: change(customer.uptimePercent, customerBefore.uptimePercent),
        slaUptimePercent: change(customer.slaUptimePercent, customerBefore.slaUptimePercent),
        incidents: customer.incidents - customerBefore.incidents,
        downtimeSeconds: customer.downtimeSeconds - customerBefore.downtimeSeconds,
      },
    },
    websites,
  };
}

export interface ReportInput {
  period: ReportPeriod;
  now: Date;
  websites: readonly WebsiteReportInput[];
}

/**
 * A customer's report for a period, from rollups, incidents and maintenance only (pure): per
 * website and for the customer, the period's figures, the previous period's and the change, each
 * month's and week's, the incidents and the maintenance held.
 */
export function computeReport(input: ReportInput) {
  const frame = reportFrame(input);
  return assembleReport(
    frame,
    input.websites,
    input.websites.map((site) => websiteReport(frame, site)),
  );
}

export type ComputedReport = ReturnType<typeof computeReport>;
