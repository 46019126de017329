import { stringify } from 'csv-stringify/sync';
import { spreadsheetSafe } from '../exports/index.js';
import type { ClientReport } from './report-view.js';
import { SITE_HEALTH_CSV_COLUMNS, siteHealthCells, siteHealthRows } from './site-health-csv.js';

export const REPORT_CSV_COLUMNS = [
  'customer',
  'website',
  'url',
  'monitor_kind',
  'monitor',
  'monitor_target',
  'period_kind',
  'period',
  'from',
  'to',
  'uptime_percent',
  'sla_uptime_percent',
  'downtime_seconds',
  'maintenance_seconds',
  'incidents',
  'longest_incident_seconds',
  'mttr_seconds',
  'checks',
  'p50_ms',
  'p95_ms',
  'runs',
  'success_rate_percent',
  'step',
  'step_median_ms',
  ...SITE_HEALTH_CSV_COLUMNS,
] as const;

type Figures = ClientReport['totals'];
type Monitor = ClientReport['websites'][number]['monitors'][number];
type JourneyStep = NonNullable<Monitor['runs']>['steps'][number];
const number = (value: number | null) => (value === null ? '' : String(value));

/** A browser journey's or API flow's runs and success rate (empty for other rows), and no step. */
const journeyCells = (monitor: Pick<Monitor, 'runs'> | 'http' | null) => {
  const runs = monitor === null || monitor === 'http' ? null : monitor.runs;
  return [runs ? String(runs.runs) : '', number(runs?.successRatePercent ?? null), '', ''];
};

/**
 * The report as CSV (RFC 4180, UTF-8, a header row): one row per website and period (the whole
 * period, each month, each ISO week; `monitor_kind` http, its own check), each of its other
 * monitors' for the whole period (no checks or response times of theirs; a browser journey's or API
 * flow's runs and success rate, then a `step` row per step with its median time), its site health
 * (see siteHealthRows), then the customer's. Text a spreadsheet would run as a formula starts with
 * an apostrophe.
 */
export function reportCsv(report: ClientReport): string {
  const row = (
    website: string,
    url: string,
    monitor: Pick<Monitor, 'kind' | 'name' | 'target' | 'runs'> | 'http' | null,
    kind: string,
    label: string,
    from: string,
    to: string,
    f: Monitor['figures'] & Partial<Pick<Figures, 'checks' | 'responseTimeMs'>>,
  ) => [
    spreadsheetSafe(report.customer.name),
    spreadsheetSafe(website),
    spreadsheetSafe(url),
    monitor === null ? '' : monitor === 'http' ? 'http' : monitor.kind,
    monitor === null || monitor === 'http' ? '' : spreadsheetSafe(monitor.name),
    monitor === null || monitor === 'http' ? '' : spreadsheetSafe(monitor.target ?? ''),
    kind,
    label,
    from,
    to,
    number(f.uptimePercent),
    number(f.slaUptimePercent),
    String(f.downtimeSeconds),
    String(f.maintenanceSeconds),
    String(f.incidents),
    String(f.longestIncidentSeconds),
    number(f.mttrSeconds),
    f.checks === undefined ? '' : String(f.checks),
    number(f.responseTimeMs?.p50 ?? null),
    number(f.responseTimeMs?.p95 ?? null),
    ...journeyCells(monitor),
    ...siteHealthCells.none,
  ];
  /** A journey's row: its runs and success rate; a step's row: only its name and median. */
  const stepRow = (website: string, url: string, monitor: Monitor, step: JourneyStep) => [
    spreadsheetSafe(report.customer.name),
    spreadsheetSafe(website),
    spreadsheetSafe(url),
    monitor.kind,
    spreadsheetSafe(monitor.name),
    spreadsheetSafe(monitor.target ?? ''),
    'step',
    `${from}..${to}`,
    from,
    to,
    ...Array.from({ length: 10 }, () => ''),
    '',
    '',
    spreadsheetSafe(`${step.step}. ${step.name}`),
    number(step.medianMs),
    ...siteHealthCells.none,
  ];
  const { from, to } = report.period;
  const whole = `${from}..${to}`;
  const rows = report.websites.flatMap((w) => [
    row(w.name, w.url, 'http', 'period', whole, from, to, w.figures),
    ...w.months.map((m) => row(w.name, w.url, 'http', 'month', m.month, m.from, m.to, m.figures)),
    ...w.weeks.map((k) => row(w.name, w.url, 'http', 'week', k.week, k.from, k.to, k.figures)),
    ...w.monitors.flatMap((m) => [
      row(w.name, w.url, m, 'period', whole, from, to, m.figures),
      ...(m.runs?.steps ?? []).map((step) => stepRow(w.name, w.url, m, step)),
    ]),
    ...siteHealthRows(w.siteHealth).map((cells) => [
      spreadsheetSafe(report.customer.name),
      spreadsheetSafe(w.name),
      spreadsheetSafe(w.url),
      cells.monitorKind,
      '',
      '',
      cells.kind,
      whole,
      from,
      to,
      ...Array.from({ length: 14 }, () => ''),
      ...cells.values,
    ]),
  ]);
  rows.push(row('(all websites)', '', null, 'period', whole, from, to, report.totals));
  return stringify([[...REPORT_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
