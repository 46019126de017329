import type { OtherMonitorKind } from '../events/index.js';
/**
 * What a status page shows, decided from rollups, incidents and maintenance occurrences (pure: the
 * caller reads them). Only what a customer's client may see: names, states, times; no URLs,
 * headers, causes, ids of other customers or node addresses.
 */

import { availability, coveredMs } from '../monitoring/index.js';
import { groupBy } from '../runtime/index.js';
import { type PageLanguage, translator } from './i18n/catalog.js';
import { groupIntoSections, type PageSection } from './page-sections.js';
import { MONITOR_KIND_KEY, overallText, type ShownStatus, statusText } from './page-words.js';
import { type Overall, orderedPosts, overallWithPosts, shownPost } from './post-model.js';
import type { PostInput, PublicPost } from './post-view.js';

export { groupIntoSections, overallText, type PageSection, type ShownStatus, statusText };

export interface PageWebsiteInput {
  id: number;
  name: string;
  status: ShownStatus;
  lastCheckedAt: Date | null;
  /** When the website was added: days before it have no bar. */
  createdAt: Date;
  /** Its heartbeats, DNS and port checks, with their confirmed health (none: it has none). */
  monitors?: ReadonlyArray<{
    kind: OtherMonitorKind;
    name: string;
    health: 'unknown' | 'up' | 'degraded' | 'down';
    /** Since when it is checked, and its incidents of the bars' days (none known: no bars). */
    history?: { createdAt: Date; incidents: ReadonlyArray<Omit<IncidentInput, 'websiteId'>> };
  }>;
}

/**
 * What a website's other monitor shows: its health while the website is checked, else the website's
 * own state (paused, in maintenance, not monitored), which holds for its monitors too.
 */
function monitorShown(websiteStatus: ShownStatus, health: ShownStatus): ShownStatus {
  return ['up', 'degraded', 'down', 'unknown'].includes(websiteStatus) ? health : websiteStatus;
}

export interface RollupInput {
  websiteId: number;
  /** The hour's or day's start. */
  start: Date;
  checks: number;
  responseMsSum: number;
  responseMsCount: number;
}

export interface IncidentInput {
  websiteId: number;
  startedAt: Date;
  resolvedAt: Date | null;
  /** The root cause the agency made public (a note on the incident). */
  publicNote?: { text: string } | null;
}

export interface MaintenanceInput {
  websiteId: number;
  title: string;
  startsAt: Date;
  endsAt: Date;
}

export interface DayBar {
  date: string;
  /** null: no data that day (not yet added, or not checked). */
  uptimePercent: number | null;
  downtimeSeconds: number;
}

export interface StatusPageData {
  title: string;
  /** The language its words are in, and the time zone its moments are shown in. */
  language: PageLanguage;
  timezone: string;
  /**
   * The websites grouped as the page's sections are, in order (indexes into `websites`); the
   * websites in none last, under a null name. Empty: the page has no sections.
   */
  sections: Array<{ name: string | null; websites: number[] }>;
  branding: { logoUrl: string | null; accentColor: string | null; footerText: string | null };
  generatedAt: string;
  overall: Overall;
  websites: Array<{
    name: string;
    status: ShownStatus;
    statusText: string;
    lastCheckedAt: string | null;
    uptime90dPercent: number | null;
    days: DayBar[];
    /** 24 hourly averages, oldest first, when the page shows response times. */
    responseTimes: Array<{ hour: string; averageMs: number | null }> | null;
    /** Its scheduled jobs, DNS records, service ports …, each in words ("Scheduled job: Backup"), with their bars. */
    monitors: Array<{
      kind: string;
      name: string;
      status: ShownStatus;
      statusText: string;
      uptime90dPercent: number | null;
      days: DayBar[];
    }>;
  }>;
  incidents: Array<{
    website: string;
    startedAt: string;
    resolvedAt: string | null;
    durationSeconds: number;
    open: boolean;
    /** The root cause, as the agency wrote it for the public. */
    note: string | null;
  }>;
  maintenance: Array<{ website: string; title: string; startsAt: string; endsAt: string }>;
  /** The agency's incident posts: the open ones first, then those resolved lately, newest first. */
  posts: PublicPost[];
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const BAR_DAYS = 90;
/** Resolved incidents older than this are not listed. */
export const RECENT_INCIDENT_DAYS = 14;

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Milliseconds of `[from, to)` inside the incidents (down time), as `availability` counts it. */
function downMs(incidents: readonly IncidentInput[], from: number, to: number, now: number): number {
  const spans = incidents.map((i) => ({ start: i.startedAt.getTime(), end: i.resolvedAt?.getTime() ?? now }));
  return coveredMs(spans, { start: from, end: to });
}

/** Uptime percent of `[from, now)` given the incidents in it (the one computation); null for an empty window. */
export function uptimeBetween(incidents: readonly IncidentInput[], from: number, now: number): number | null {
  return availability({ window: { start: from, end: now }, incidents, now }).uptimePercent;
}

/** The last 24 hours' average response times, oldest first, from one website's hourly rollups. */
export function hourlyAverages(
  hours: readonly RollupInput[],
  now: Date,
): Array<{ hour: string; averageMs: number | null }> {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  // Every region's rollup of an hour, summed: one pass, not one per hour.
  const byHour = new Map<number, { count: number; total: number }>();
  for (const rollup of hours) {
    const sums = byHour.get(rollup.start.getTime()) ?? { count: 0, total: 0 };
    sums.count += rollup.responseMsCount;
    sums.total += rollup.responseMsSum;
    byHour.set(rollup.start.getTime(), sums);
  }
  return Array.from({ length: 24 }, (_, index) => {
    const hour = currentHour - (23 - index) * HOUR_MS;
    const sums = byHour.get(hour);
    return {
      hour: new Date(hour).toISOString(),
      averageMs: !sums || sums.count === 0 ? null : Math.round(sums.total / sums.count),
    };
  });
}

/** One bar per UTC day, the oldest first, the last one today (up to now). */
export function dayBars(input: {
  now: Date;
  createdAt: Date;
  checkedDays: ReadonlySet<string>;
  incidents: readonly IncidentInput[];
}): DayBar[] {
  const now = input.now.getTime();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const bars: DayBar[] = [];
  for (let index = BAR_DAYS - 1; index >= 0; index--) {
    const dayStart = today - index * DAY_MS;
    const date = new Date(dayStart).toISOString().slice(0, 10);
    const from = Math.max(dayStart, input.createdAt.getTime());
    const to = Math.min(dayStart + DAY_MS, now);
    const down = to > from ? downMs(input.incidents, from, to, now) : 0;
    const hasData = to > from && (input.checkedDays.has(date) || down > 0);
    bars.push({
      date,
      uptimePercent: hasData ? round3((1 - down / (to - from)) * 100) : null,
      downtimeSeconds: Math.round(down / 1000),
    });
  }
  return bars;
}

/** A thing's 90 day bars and its uptime over them (null before it has data). */
function barsOf(
  of: { createdAt: Date; incidents: readonly IncidentInput[] },
  checkedDays: ReadonlySet<string>,
  now: Date,
): { days: DayBar[]; uptime90dPercent: number | null } {
  const days = dayBars({ now, createdAt: of.createdAt, checkedDays, incidents: of.incidents });
  const windowStart = Math.max(now.getTime() - BAR_DAYS * DAY_MS, of.createdAt.getTime());
  return {
    days,
    uptime90dPercent: days.some((d) => d.uptimePercent !== null)
      ? uptimeBetween(of.incidents, windowStart, now.getTime())
      : null,
  };
}

function overallState(statuses: readonly ShownStatus[]): Overall['state'] {
  const checked = statuses.filter((s) => s === 'up' || s === 'degraded' || s === 'down');
  const down = checked.filter((s) => s === 'down').length;
  if (down > 0 && down === checked.length) return 'major-outage';
  if (down > 0) return 'partial-outage';
  if (checked.includes('degraded')) return 'degraded';
  if (statuses.includes('maintenance')) return 'maintenance';
  if (checked.length === 0) return 'unknown';
  return 'operational';
}

export function buildStatusPage(input: {
  now: Date;
  page: {
    title: string;
    branding: StatusPageData['branding'];
    showResponseTimes: boolean;
    slug?: string;
    /** Absent on pages stored before: English, UTC, no sections. */
    language?: PageLanguage;
    timezone?: string;
    sections?: readonly PageSection[];
  };
  websites: readonly PageWebsiteInput[];
  /** Daily rollups of the last 90 days and hourly ones of the last 24 hours. */
  days: readonly RollupInput[];
  hours: readonly RollupInput[];
  incidents: readonly IncidentInput[];
  maintenance: readonly MaintenanceInput[];
  /** The page's open posts and those resolved lately. */
  posts?: readonly PostInput[];
}): StatusPageData {
  const now = input.now.getTime();
  const t = translator({ language: input.page.language, timezone: input.page.timezone });
  // In the sections' order: the JSON lists them as the HTML shows them.
  const groups = groupIntoSections(
    input.websites.map((w) => w.id),
    input.page.sections ?? [],
  );
  const byId = new Map(input.websites.map((w) => [w.id, w]));
  const ordered =
    groups.length === 0
      ? input.websites
      : groups.flatMap((group) => group.websiteIds.flatMap((id) => byId.get(id) ?? []));
  const nameOf = new Map(input.websites.map((w) => [w.id, w.name]));
  // Each input grouped by website once (a page of 50 has ~4,500 day rollups).
  const hoursOf = groupBy(input.hours, (r) => r.websiteId);
  const incidentsOf = groupBy(input.incidents, (i) => i.websiteId);
  const checkedDaysOf = new Map<number, Set<string>>();
  for (const rollup of input.days) {
    if (rollup.checks === 0) continue;
    const days = checkedDaysOf.get(rollup.websiteId) ?? new Set<string>();
    days.add(new Date(Math.floor(rollup.start.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10));
    checkedDaysOf.set(rollup.websiteId, days);
  }
  const websites = ordered.map((website) => {
    const hours = hoursOf.get(website.id) ?? [];
    const incidents = incidentsOf.get(website.id) ?? [];
    const checkedDays = new Set(checkedDaysOf.get(website.id));
    // Today's checks reach the rollups when the workers flush them (every 10 minutes): the state's
    // last check says the day was checked before then, so a website minutes old has its bar.
    if (website.lastCheckedAt) checkedDays.add(website.lastCheckedAt.toISOString().slice(0, 10));
    const { days, uptime90dPercent } = barsOf(
      { createdAt: website.createdAt, incidents },
      checkedDays,
      input.now,
    );
    const responseTimes = input.page.showResponseTimes ? hourlyAverages(hours, input.now) : null;
    return {
      name: website.name,
      status: website.status,
      statusText: statusText(website.status, t),
      lastCheckedAt: website.lastCheckedAt?.toISOString() ?? null,
      uptime90dPercent,
      days,
      responseTimes,
      monitors: (website.monitors ?? []).map((monitor) => {
        const status = monitorShown(website.status, monitor.health);
        // Checked while its website is (the same days), from when it was added.
        const bars = monitor.history
          ? barsOf(
              {
                createdAt: monitor.history.createdAt,
                incidents: monitor.history.incidents.map((i) => ({ ...i, websiteId: website.id })),
              },
              checkedDays,
              input.now,
            )
          : { days: [], uptime90dPercent: null };
        return {
          kind: t.text(MONITOR_KIND_KEY[monitor.kind]),
          name: monitor.name,
          status,
          statusText: statusText(status, t),
          ...bars,
        };
      }),
    };
  });
  const recentFrom = now - RECENT_INCIDENT_DAYS * DAY_MS;
  // A monitor's incidents beside its website's, named by both ("Shop · Outgoing mail: MX").
  const monitorIncidents = input.websites.flatMap((website) =>
    (website.monitors ?? []).flatMap((monitor) =>
      (monitor.history?.incidents ?? []).map((incident) => ({
        ...incident,
        websiteId: website.id,
        label: `${website.name} · ${t.text(MONITOR_KIND_KEY[monitor.kind])}: ${monitor.name}`,
      })),
    ),
  );
  const incidents = [
    ...input.incidents.map((i) => ({ ...i, label: null as string | null })),
    ...monitorIncidents,
  ]
    .filter((i) => nameOf.has(i.websiteId) && (i.resolvedAt === null || i.resolvedAt.getTime() >= recentFrom))
    .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())
    .map((i) => ({
      website: i.label ?? nameOf.get(i.websiteId) ?? '',
      startedAt: i.startedAt.toISOString(),
      resolvedAt: i.resolvedAt?.toISOString() ?? null,
      durationSeconds: Math.round(((i.resolvedAt?.getTime() ?? now) - i.startedAt.getTime()) / 1000),
      open: i.resolvedAt === null,
      note: i.publicNote?.text ?? null,
    }));
  const maintenance = input.maintenance
    .filter((m) => nameOf.has(m.websiteId) && m.endsAt.getTime() > now)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
    .map((m) => ({
      website: nameOf.get(m.websiteId) ?? '',
      title: m.title,
      startsAt: m.startsAt.toISOString(),
      endsAt: m.endsAt.toISOString(),
    }));
  const posts = orderedPosts((input.posts ?? []).map((p) => shownPost(p, nameOf, input.page.slug ?? '', t)));
  const state = overallState(websites.flatMap((w) => [w.status, ...w.monitors.map((m) => m.status)]));
  const checked = { state, text: overallText(state, t) };
  let index = 0;
  return {
    title: input.page.title,
    language: t.language,
    timezone: t.timezone,
    sections: groups.map((group) => ({
      name: group.name,
      websites: group.websiteIds.map(() => index++),
    })),
    branding: input.page.branding,
    generatedAt: input.now.toISOString(),
    overall: overallWithPosts(checked, posts, t),
    websites,
    incidents,
    maintenance,
    posts,
  };
}
