import { describe, expect, it } from 'vitest';
import { latencyBounds, latencyBucket } from '../monitoring/index.js';
import {
  computeReport,
  type MonitorReportInput,
  percentileOf,
  type WebsiteReportInput,
} from './report-figures.js';
import { reportPeriod } from './report-period.js';
import { dueReport } from './report-schedule.js';

const BERLIN = 'Europe/Berlin';
const day = (date: string, checks: number, ms: number) => ({
  date,
  checks,
  responseMsMax: ms,
  latency: { [`b${latencyBucket(ms)}`]: checks },
});
const incident = (id: string, start: string, end: string | null) => ({
  id,
  startedAt: new Date(start),
  resolvedAt: end === null ? null : new Date(end),
  cause: 'HTTP 503',
  regions: ['eu'],
  publicNote: null,
});
const site = (over: Partial<WebsiteReportInput>): WebsiteReportInput => ({
  id: 1,
  name: 'Site',
  url: 'https://site.example/',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  days: [],
  incidents: [],
  maintenance: [],
  certificateExpiresAt: null,
  domainExpiresAt: null,
  ...over,
});

describe('reportPeriod', () => {
  it('is the last full month in the organization’s timezone by default, days inclusive', () => {
    const period = reportPeriod({}, BERLIN, new Date('2026-12-01T05:30:00Z'));
    expect(period).toMatchObject({ fromDate: '2026-11-01', toDate: '2026-11-30', days: 30 });
    expect(period.from.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(period.to.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(period.previous).toMatchObject({ fromDate: '2026-10-02', toDate: '2026-10-31' });
  });

  it('counts a daylight-saving day as it is, and refuses what is not a period', () => {
    const october = reportPeriod({ from: '2026-10-25', to: '2026-10-25' }, BERLIN, new Date());
    expect(october.to.getTime() - october.from.getTime()).toBe(25 * 3_600_000);
    expect(reportPeriod({ to: '2026-06-30' }, BERLIN, new Date())).toMatchObject({
      fromDate: '2026-05-31',
      toDate: '2026-06-30',
    });
    expect(reportPeriod({ from: '2026-06-01' }, BERLIN, new Date())).toMatchObject({ toDate: '2026-06-30' });
    expect(() => reportPeriod({ from: '2026-11-31' }, BERLIN, new Date())).toThrow('must be a date');
    expect(() => reportPeriod({ from: '2026-11-02', to: '2026-11-01' }, BERLIN, new Date())).toThrow(
      'must not be before from',
    );
    expect(() => reportPeriod({ from: '2025-01-01', to: '2026-02-05' }, BERLIN, new Date())).toThrow(
      'at most 400 days',
    );
  });
});

describe('computeReport: a customer’s month from rollups, incidents and maintenance', () => {
  const period = reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, BERLIN, new Date());
  const now = new Date('2026-12-05T00:00:00Z');
  const report = computeReport({
    period,
    now,
    websites: [
      site({
        id: 1,
        name: 'Shop',
        days: [day('2026-11-02', 1440, 120), day('2026-11-03', 1440, 300), day('2026-10-15', 1440, 90)],
        incidents: [
          incident('a1', '2026-11-10T08:00:00Z', '2026-11-10T09:00:00Z'),
          // Wholly inside the maintenance window: down, but not against the SLA.
          incident('a2', '2026-11-20T01:00:00Z', '2026-11-20T01:30:00Z'),
          incident('a0', '2026-10-10T00:00:00Z', '2026-10-10T00:10:00Z'),
        ],
        maintenance: [
          {
            title: 'Upgrade',
            startsAt: new Date('2026-11-20T00:00:00Z'),
            endsAt: new Date('2026-11-20T02:00:00Z'),
          },
        ],
      }),
      site({
        id: 2,
        name: 'Blog',
        // Added half-way: counted from then.
        createdAt: new Date('2026-11-15T23:00:00Z'),
        incidents: [incident('b1', '2026-11-30T22:00:00Z', null)],
      }),
      site({ id: 3, name: 'API' }),
    ],
  });
  const [shop, blog, api] = report.websites;

  it('matches hand-computed uptime and SLA uptime per website (to 0.001 %)', () => {
    // 30 days = 2,592,000 s; down 3,600 + 1,800; maintenance 7,200 of which 1,800 down.
    expect(shop?.figures).toMatchObject({
      monitoredSeconds: 2_592_000,
      downtimeSeconds: 5400,
      maintenanceSeconds: 7200,
      slaDowntimeSeconds: 3600,
      uptimePercent: 99.792, // 1 − 5,400 / 2,592,000
      slaUptimePercent: 99.861, // 1 − 3,600 / 2,584,800
      incidents: 2,
      longestIncidentSeconds: 3600,
      mttrSeconds: 2700,
      checks: 2880,
    });
    // From its creation to the period's end (15 days); the open incident counts until then.
    expect(blog?.figures).toMatchObject({
      monitoredSeconds: 1_296_000,
      downtimeSeconds: 3600,
      uptimePercent: 99.722,
      slaUptimePercent: 99.722,
      incidents: 1,
      mttrSeconds: null,
    });
    expect(api?.figures).toMatchObject({
      // Never checked and never down: no figure (as GET …/uptime), no weight in the customer's.
      uptimePercent: null,
      monitoredSeconds: 0,
      incidents: 0,
      responseTimeMs: { p50: null, p95: null },
    });
  });

  it('a website 5 minutes old, its checks not in the day rollups yet: ~100 %, not "no figure"', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    const period = reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, 'UTC', now);
    const young = computeReport({
      period,
      now,
      websites: [
        site({
          createdAt: new Date(now.getTime() - 5 * 60_000),
          lastCheckedAt: new Date(now.getTime() - 20_000),
        }),
      ],
    });
    expect(young.websites[0]?.figures).toMatchObject({ uptimePercent: 100, monitoredSeconds: 300 });
  });

  it('gives the customer time-weighted figures and the change from the period before', () => {
    expect(report.customer).toMatchObject({
      monitoredSeconds: 3_888_000,
      downtimeSeconds: 9000,
      uptimePercent: Math.round((1 - 9000 / 3_888_000) * 100_000) / 1000,
      slaUptimePercent: Math.round((1 - 7200 / (3_888_000 - 7200)) * 100_000) / 1000,
      incidents: 3,
      longestIncidentSeconds: 3600,
      mttrSeconds: 2700,
      checks: 2880,
    });
    // October 2 – 31 (30 days): Shop down 10 minutes, Blog not yet there.
    expect(report.customer.previous).toMatchObject({ downtimeSeconds: 600, incidents: 1 });
    expect(report.customer.change).toMatchObject({ incidents: 2, downtimeSeconds: 8400 });
    expect(report.previousPeriod).toEqual({ from: '2026-10-02', to: '2026-10-31' });
  });

  it('splits the period into months and ISO weeks, and lists incidents and maintenance held', () => {
    expect(shop?.parts.map((part) => part.label)).toEqual([
      '2026-11',
      '2026-W44',
      '2026-W45',
      '2026-W46',
      '2026-W47',
      '2026-W48',
      '2026-W49',
    ]);
    const week46 = shop?.parts.find((part) => part.label === '2026-W46');
    expect(week46?.figures).toMatchObject({ downtimeSeconds: 3600, incidents: 1 });
    expect(shop?.incidents.map((i) => i.id)).toEqual(['a1', 'a2']);
    expect(shop?.maintenance.map((m) => m.title)).toEqual(['Upgrade']);
  });

  it('reads p50 and p95 from the merged histograms, each inside the bucket of the true value', () => {
    const p50 = shop?.figures.responseTimeMs.p50 as number;
    const p95 = shop?.figures.responseTimeMs.p95 as number;
    const bucketOf120 = latencyBounds(latencyBucket(120));
    const bucketOf300 = latencyBounds(latencyBucket(300));
    expect(p50).toBeGreaterThanOrEqual(Math.floor(bucketOf120.lower));
    expect(p50).toBeLessThanOrEqual(Math.ceil(bucketOf120.upper));
    expect(p95).toBeGreaterThanOrEqual(Math.floor(bucketOf300.lower));
    expect(p95).toBeLessThanOrEqual(300);
    expect(percentileOf({}, 50, 0)).toBeNull();
  });
});

describe('computeReport: a website’s other monitors, from their own incidents', () => {
  const period = reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, BERLIN, new Date());
  const now = new Date('2026-12-05T00:00:00Z');
  const monitor = (over: Partial<MonitorReportInput>): MonitorReportInput => ({
    id: 10,
    kind: 'port',
    name: 'Database',
    target: 'db.site.example',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    incidents: [],
    ...over,
  });
  const checkedDays = Array.from({ length: 30 }, (_, i) =>
    day(`2026-11-${String(i + 1).padStart(2, '0')}`, 1440, 120),
  );
  const shop = site({
    days: checkedDays,
    incidents: [incident('h1', '2026-11-03T10:00:00Z', '2026-11-03T10:10:00Z')],
    maintenance: [
      {
        title: 'Upgrade',
        startsAt: new Date('2026-11-20T00:00:00Z'),
        endsAt: new Date('2026-11-20T02:00:00Z'),
      },
    ],
    monitors: [
      monitor({
        id: 10,
        incidents: [
          incident('p1', '2026-11-10T08:00:00Z', '2026-11-10T09:00:00Z'),
          // Wholly in its website's maintenance: down, not against the SLA.
          incident('p2', '2026-11-20T01:00:00Z', '2026-11-20T01:30:00Z'),
          // Before the period: not counted, not listed.
          incident('p0', '2026-10-10T00:00:00Z', '2026-10-10T00:10:00Z'),
        ],
      }),
      // Added half-way (Berlin midnight of the 16th): counted from then.
      monitor({
        id: 11,
        kind: 'heartbeat',
        name: 'Backup',
        target: null,
        createdAt: new Date('2026-11-15T23:00:00Z'),
      }),
      // Added after the period: nothing to say.
      monitor({ id: 12, kind: 'dns', name: 'MX', createdAt: new Date('2026-12-02T00:00:00Z') }),
    ],
  });
  const report = computeReport({ period, now, websites: [shop] });
  const [website] = report.websites;
  const figuresOf = (id: number) => website?.monitors.find((m) => m.monitor.id === id)?.figures;

  it.each([
    {
      what: 'a port check down 1 h, and 30 min inside maintenance',
      id: 10,
      expected: {
        monitoredSeconds: 2_592_000,
        downtimeSeconds: 5400,
        maintenanceSeconds: 7200,
        slaDowntimeSeconds: 3600,
        uptimePercent: 99.792, // 1 − 5,400 / 2,592,000
        slaUptimePercent: 99.861, // 1 − 3,600 / 2,584,800
        incidents: 2,
        longestIncidentSeconds: 3600,
        mttrSeconds: 2700,
      },
    },
    {
      what: 'a heartbeat added half-way, never down',
      id: 11,
      expected: { monitoredSeconds: 1_296_000, downtimeSeconds: 0, uptimePercent: 100, incidents: 0 },
    },
    {
      what: 'a DNS check added after the period',
      id: 12,
      expected: { monitoredSeconds: 0, uptimePercent: null, slaUptimePercent: null, incidents: 0 },
    },
  ])('$what', ({ id, expected }) => {
    expect(figuresOf(id)).toMatchObject(expected);
  });

  it('lists its incidents beside the website’s, each marked with its monitor, in start order', () => {
    expect(website?.incidents.map((i) => [i.id, i.monitor?.name ?? null])).toEqual([
      ['h1', null],
      ['p1', 'Database'],
      ['p2', 'Database'],
    ]);
    expect(website?.incidents[1]?.monitor).toEqual({ id: 10, kind: 'port', name: 'Database' });
  });

  it('leaves the website’s and the customer’s figures as its HTTP check’s alone', () => {
    const without = computeReport({ period, now, websites: [{ ...shop, monitors: [] }] });
    expect(website?.figures).toEqual(without.websites[0]?.figures);
    expect(report.customer).toEqual(without.customer);
  });

  // Seconds before `at` of each last check, or whether the website's day has checks (null: none).
  it.each([
    {
      what: 'its website’s day rollups',
      rollups: true,
      websiteLast: null,
      monitorLast: null,
      monitored: true,
    },
    { what: 'its website’s last check', rollups: false, websiteLast: 20, monitorLast: null, monitored: true },
    { what: 'its own last check', rollups: false, websiteLast: null, monitorLast: 20, monitored: true },
    { what: 'nothing (not checked)', rollups: false, websiteLast: null, monitorLast: null, monitored: false },
  ])('a monitor 5 minutes old, its website’s checks not flushed: monitored by $what', (row) => {
    const at = new Date('2026-11-28T12:00:00Z');
    const open = reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, 'UTC', at);
    const addedAt = new Date(at.getTime() - 5 * 60_000);
    const ago = (seconds: number | null) =>
      seconds === null ? null : new Date(at.getTime() - seconds * 1000);
    const young = computeReport({
      period: open,
      now: at,
      websites: [
        site({
          createdAt: addedAt,
          days: row.rollups ? [day('2026-11-28', 5, 100)] : [],
          lastCheckedAt: ago(row.websiteLast),
          monitors: [monitor({ createdAt: addedAt, lastCheckedAt: ago(row.monitorLast) })],
        }),
      ],
    });
    expect(young.websites[0]?.monitors[0]?.figures).toMatchObject(
      row.monitored
        ? { uptimePercent: 100, monitoredSeconds: 300 }
        : { uptimePercent: null, monitoredSeconds: 0 },
    );
  });

  it('a monitor down counts as monitored even on days its website has no checks', () => {
    const quiet = computeReport({
      period,
      now,
      websites: [
        site({
          monitors: [
            monitor({ incidents: [incident('q1', '2026-11-10T00:00:00Z', '2026-11-10T01:00:00Z')] }),
          ],
        }),
      ],
    });
    expect(quiet.websites[0]?.monitors[0]?.figures).toMatchObject({
      downtimeSeconds: 3600,
      uptimePercent: 99.861,
    });
  });
});

describe('dueReport: when a schedule’s report is due, in the organization’s timezone', () => {
  const monthly = {
    frequency: 'monthly' as const,
    recipients: [],
    format: 'pdf' as const,
    dayOfMonth: 1,
    weekday: 'MO' as const,
    hour: 6,
  };

  it('a monthly one at 06:00 Berlin: the month before, once the hour has come', () => {
    // 05:59 on 1 December in Berlin is 04:59 UTC: November's is not due yet, October's still is.
    expect(dueReport(monthly, BERLIN, new Date('2026-12-01T04:59:00Z'))).toMatchObject({ key: '2026-10' });
    expect(dueReport(monthly, BERLIN, new Date('2026-12-01T05:00:00Z'))).toEqual({
      key: '2026-11',
      from: '2026-11-01',
      to: '2026-11-30',
      dueAt: new Date('2026-12-01T05:00:00Z'),
    });
  });

  it('a weekly one: the ISO week before, on its weekday; off: never', () => {
    const weekly = { ...monthly, frequency: 'weekly' as const, weekday: 'TU' as const, hour: 9 };
    // Tuesday 1 December 2026, 09:00 Berlin.
    expect(dueReport(weekly, BERLIN, new Date('2026-12-01T08:00:00Z'))).toMatchObject({
      key: '2026-W48',
      from: '2026-11-23',
      to: '2026-11-29',
    });
    expect(dueReport({ ...monthly, frequency: 'off' }, BERLIN, new Date())).toBeNull();
  });
});
