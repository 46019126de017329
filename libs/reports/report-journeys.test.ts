import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { latencyBucket } from '../monitoring/index.js';
import { REPORT_CSV_COLUMNS, reportCsv } from './report-csv.js';
import { computeReport, type MonitorReportInput } from './report-figures.js';
import { reportHtml } from './report-html.js';
import { reportPeriod } from './report-period.js';
import { clientReportView, toClientReport } from './report-view.js';

const period = reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, 'UTC', new Date());
const now = new Date('2026-12-02T00:00:00Z');
const bucket = (ms: number) => `b${latencyBucket(ms)}`;

const journey: MonitorReportInput = {
  id: 21,
  kind: 'browser',
  name: 'Buy a teapot',
  target: null,
  createdAt: new Date('2026-10-01T00:00:00Z'),
  incidents: [],
  runs: [
    {
      date: '2026-11-10',
      runs: 288,
      passed: 286,
      steps: {
        s0: { name: 'Go to https://shop.example/sign-in', latency: { [bucket(640)]: 288 } },
        s1: { name: 'Add to basket', latency: { [bucket(180)]: 286 } },
      },
    },
  ],
};
const portCheck: MonitorReportInput = {
  id: 22,
  kind: 'port',
  name: 'Database',
  target: 'db.shop.example',
  createdAt: new Date('2026-10-01T00:00:00Z'),
  incidents: [],
};

const computed = computeReport({
  period,
  now,
  websites: [
    {
      id: 1,
      name: 'Tea Shop',
      url: 'https://shop.example/',
      createdAt: new Date('2026-10-01T00:00:00Z'),
      days: [{ date: '2026-11-10', checks: 100, responseMsMax: 90, latency: { [bucket(80)]: 100 } }],
      incidents: [],
      maintenance: [],
      certificateExpiresAt: null,
      domainExpiresAt: null,
      monitors: [journey, portCheck],
    },
  ],
});
const report = toClientReport(computed, {
  organizationName: 'Agency',
  customer: { id: 3, name: 'Tea Shop Ltd' },
  now,
});

describe('a client report’s browser journeys and API flows', () => {
  it('the JSON: a journey’s runs, success rate and steps’ medians; other kinds none; as the API documents it', () => {
    const [shown, port] = report.websites[0]?.monitors ?? [];
    expect(shown?.runs).toMatchObject({ runs: 288, passedRuns: 286, successRatePercent: 99.306 });
    expect(shown?.runs?.steps.map((step) => [step.step, step.name, step.passedRuns])).toEqual([
      [1, 'Go to https://shop.example/sign-in', 288],
      [2, 'Add to basket', 286],
    ]);
    expect(shown?.runs?.steps[1]?.medianMs).toBeGreaterThan(150);
    expect(port).not.toHaveProperty('runs');
    expect(clientReportView.safeParse(report).error).toBeUndefined();
    expect(report.formulas.journeys).toContain('success rate');
  });

  it('the page: the runs as the journey’s checks, its success rate and a step per row', () => {
    const html = reportHtml(report, { accentColor: null, footerText: null, logoDataUrl: null, intro: null });
    expect(html).toContain('Browser journey: Buy a teapot — 99.306 % of 288 runs passed');
    expect(html).toContain('<th scope="row">2. Add to basket</th>');
    expect(html).toContain('286 runs');
  });

  it('the CSV: the journey’s row with its runs and success rate, then a row per step with its median', () => {
    const rows = parse(reportCsv(report), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual([...REPORT_CSV_COLUMNS]);
    const journeyRows = rows.filter((row) => row.monitor === 'Buy a teapot');
    expect(journeyRows.map((row) => [row.period_kind, row.runs, row.success_rate_percent, row.step])).toEqual(
      [
        ['period', '288', '99.306', ''],
        ['step', '', '', '1. Go to https://shop.example/sign-in'],
        ['step', '', '', '2. Add to basket'],
      ],
    );
    expect(Number(journeyRows[2]?.step_median_ms)).toBe(
      report.websites[0]?.monitors[0]?.runs?.steps[1]?.medianMs,
    );
    // Step rows are not periods of figures: their uptime columns are empty.
    expect(journeyRows[1]?.uptime_percent).toBe('');
    expect(rows.find((row) => row.monitor === 'Database')).toMatchObject({ runs: '', step: '' });
  });
});
