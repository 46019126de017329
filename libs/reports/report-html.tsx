/** @jsxRuntime automatic @jsxImportSource preact */
import { DateTime } from 'luxon';
import type { ComponentChildren } from 'preact';
import { MONITOR_KIND_NOUNS, type OtherMonitorKind } from '../events/index.js';
import { cssColor, renderHtmlDocument } from '../status-pages/index.js';
import { JourneyRuns } from './report-journeys.js';
import { SiteHealth } from './report-site-health.js';
import { type PaperSize, reportStylesheet } from './report-style.js';
import type { ClientReport } from './report-view.js';

/** How the agency's reports look: its accent colour, footer and logo (a data: URL), and the paper. */
export interface ReportBranding {
  accentColor: string | null;
  footerText: string | null;
  logoDataUrl: string | null;
  /** The cover line of this customer's reports (`reportIntro`). */
  intro: string | null;
}

const DEFAULT_ACCENT = '#1570ef';
/** Incidents listed per website on the page (a flapping site can have thousands; the page stays printable). */
const MAX_LISTED_INCIDENTS = 100;

/** "Port check", "Heartbeat" (a name such as gRPC keeps its own case). */
export function monitorKindText(kind: OtherMonitorKind): string {
  const noun = MONITOR_KIND_NOUNS[kind];
  return /^[a-z][a-z]/.test(noun) ? `${noun.charAt(0).toUpperCase()}${noun.slice(1)}` : noun;
}

const percent = (value: number | null) => (value === null ? '–' : `${value.toFixed(3)} %`);
const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** 5400 → "1 h 30 min"; under a minute in seconds. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days ? `${days} d` : '', hours ? `${hours} h` : '', minutes ? `${minutes} min` : '']
    .filter(Boolean)
    .join(' ');
}

function changeText(value: number | null, unit: string, better: 'up' | 'down'): string {
  if (value === null || value === 0) return 'no change';
  const improved = better === 'up' ? value > 0 : value < 0;
  const arrow = value > 0 ? '▲' : '▼';
  return `${arrow} ${value > 0 ? '+' : ''}${value}${unit} (${improved ? 'better' : 'worse'})`;
}

/** Uptime per website as a vector bar chart: the bars start at the lowest value shown (at most 99 %). */
function UptimeChart({ report, accent }: { report: ClientReport; accent: string }) {
  const rows = report.websites.filter((w) => w.figures.uptimePercent !== null);
  if (rows.length === 0) return null;
  const floor = Math.min(99, ...rows.map((w) => Math.floor((w.figures.uptimePercent as number) * 10) / 10));
  const rowHeight = 22;
  const width = 640;
  const label = 220;
  const height = rows.length * rowHeight + 24;
  const x = (value: number) => label + ((value - floor) / (100 - floor)) * (width - label - 80);
  return (
    <figure>
      <svg
        role="img"
        aria-label={`Uptime per website, from ${floor} % to 100 %`}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        font-size="12"
        font-family="inherit"
      >
        {rows.map((w, i) => {
          const value = w.figures.uptimePercent as number;
          const y = i * rowHeight + 4;
          return (
            <>
              <text x={label - 8} y={y + 14} text-anchor="end">
                {w.name.slice(0, 32)}
              </text>
              <rect
                x={label}
                y={y}
                width={Math.max(1, x(value) - label).toFixed(1)}
                height="16"
                fill={accent}
              />
              <text x={(x(value) + 6).toFixed(1)} y={y + 14}>
                {percent(value)}
              </text>
            </>
          );
        })}
        <text x={label} y={height - 4} fill="#555">{`${floor} %`}</text>
        <text x={width - 80} y={height - 4} fill="#555" text-anchor="end">
          100 %
        </text>
      </svg>
      <figcaption>{`Uptime per website, the axis from ${floor} % to 100 %`}</figcaption>
    </figure>
  );
}

/** Dates and times in the report's time zone. */
function timeTexts(zone: string) {
  return {
    day: (date: string) => DateTime.fromISO(date, { zone }).toFormat('d LLLL yyyy'),
    at: (iso: string | null) => (iso ? DateTime.fromISO(iso, { zone }).toFormat('d LLL yyyy, HH:mm') : '–'),
    dateOnly: (iso: string | null) => (iso ? DateTime.fromISO(iso, { zone }).toFormat('d LLL yyyy') : '–'),
  };
}
type TimeTexts = ReturnType<typeof timeTexts>;

const Card = ({ title, value, note }: { title: string; value: string; note: string }) => (
  <div class="card">
    <div class="label">{title}</div>
    <div class="value">{value}</div>
    <div class="note">{note}</div>
  </div>
);

const HeaderRow = ({ names }: { names: readonly string[] }) => (
  <thead>
    <tr>
      {names.map((name) => (
        <th scope="col">{name}</th>
      ))}
    </tr>
  </thead>
);

/** Cells of figures, each its own `<td>`. */
const Cells = ({ values }: { values: readonly ComponentChildren[] }) => (
  <>
    {values.map((value) => (
      <td>{value}</td>
    ))}
  </>
);

type ReportWebsite = ClientReport['websites'][number];

/** A website's row and, under it, its other monitors' rows: their own uptime, no checks or response times. */
function WebsiteRows({ website: w }: { website: ReportWebsite }) {
  return (
    <>
      <tr>
        <th scope="row">
          {w.name}
          <div class="url">{w.url}</div>
        </th>
        <Cells
          values={[
            percent(w.figures.uptimePercent),
            percent(w.figures.slaUptimePercent),
            w.figures.incidents,
            duration(w.figures.downtimeSeconds),
            duration(w.figures.longestIncidentSeconds),
            duration(w.figures.mttrSeconds),
            w.figures.checks.toLocaleString('en'),
            ms(w.figures.responseTimeMs.p50),
            ms(w.figures.responseTimeMs.p95),
          ]}
        />
      </tr>
      {w.monitors.map((m) => (
        <tr class="monitor">
          <th scope="row">
            <span class="kind">{monitorKindText(m.kind)}</span> {m.name}
            {m.target && <div class="url">{m.target}</div>}
          </th>
          <Cells
            values={[
              percent(m.figures.uptimePercent),
              percent(m.figures.slaUptimePercent),
              m.figures.incidents,
              duration(m.figures.downtimeSeconds),
              duration(m.figures.longestIncidentSeconds),
              duration(m.figures.mttrSeconds),
              // A journey's checks are its runs.
              m.runs ? m.runs.runs.toLocaleString('en') : '–',
              '–',
              '–',
            ]}
          />
        </tr>
      ))}
    </>
  );
}

function WebsiteIncidents({ website: w, times }: { website: ReportWebsite; times: TimeTexts }) {
  if (w.incidents.length === 0) return <p class="note">No incidents.</p>;
  const listed = w.incidents.slice(-MAX_LISTED_INCIDENTS);
  return (
    <>
      {w.incidents.length > listed.length && (
        <p class="note">{`The ${MAX_LISTED_INCIDENTS} latest of ${w.incidents.length} incidents (all are in the JSON and CSV reports’ counts).`}</p>
      )}
      <table>
        <caption>Incidents</caption>
        <HeaderRow
          names={['Started', 'Resolved', 'Lasted', 'Monitor', 'Cause', 'Regions', 'What happened']}
        />
        <tbody>
          {listed.map((i) => (
            <tr>
              <Cells
                values={[
                  times.at(i.startedAt),
                  i.resolvedAt ? times.at(i.resolvedAt) : 'ongoing',
                  duration(i.durationSeconds),
                  i.monitor ? `${monitorKindText(i.monitor.kind)}: ${i.monitor.name}` : 'HTTP check',
                  i.cause,
                  i.regions.join(', '),
                  i.publicNote ?? '',
                ]}
              />
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function WebsiteDetails({ website: w, times }: { website: ReportWebsite; times: TimeTexts }) {
  const parts = [
    ...w.months.map((m) => ({ label: m.month, f: m.figures })),
    ...w.weeks.map((k) => ({ label: k.week, f: k.figures })),
  ];
  return (
    <section class="website">
      <h3>{w.name}</h3>
      <table>
        <caption>By month and week</caption>
        <HeaderRow names={['Period', 'Uptime', 'SLA uptime', 'Incidents', 'p50', 'p95', 'Checks']} />
        <tbody>
          {parts.map((p) => (
            <tr>
              <th scope="row">{p.label}</th>
              <Cells
                values={[
                  percent(p.f.uptimePercent),
                  percent(p.f.slaUptimePercent),
                  p.f.incidents,
                  ms(p.f.responseTimeMs.p50),
                  ms(p.f.responseTimeMs.p95),
                  p.f.checks.toLocaleString('en'),
                ]}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <JourneyRuns monitors={w.monitors} />
      <SiteHealth health={w.siteHealth} at={times.dateOnly} />
      <WebsiteIncidents website={w} times={times} />
      {w.maintenance.length > 0 && (
        <p>{`Maintenance held: ${w.maintenance.map((m) => `${m.title} (${times.at(m.startsAt)} – ${times.at(m.endsAt)})`).join('; ')}`}</p>
      )}
    </section>
  );
}

function Summary({ report, times }: { report: ClientReport; times: TimeTexts }) {
  const { totals } = report;
  return (
    <>
      <h2>Summary</h2>
      <div class="cards">
        <Card
          title="Uptime"
          value={percent(totals.uptimePercent)}
          note={changeText(totals.change.uptimePercent, ' pt', 'up')}
        />
        <Card
          title="SLA uptime"
          value={percent(totals.slaUptimePercent)}
          note={`maintenance left out; ${changeText(totals.change.slaUptimePercent, ' pt', 'up')}`}
        />
        <Card
          title="Incidents"
          value={String(totals.incidents)}
          note={changeText(totals.change.incidents, '', 'down')}
        />
        <Card
          title="Down time"
          value={duration(totals.downtimeSeconds)}
          note={`longest ${duration(totals.longestIncidentSeconds)}`}
        />
        <Card
          title="Mean time to recovery"
          value={duration(totals.mttrSeconds)}
          note={`${totals.checks.toLocaleString('en')} checks`}
        />
        <Card
          title="Response time"
          value={ms(totals.responseTimeMs.p95)}
          note={`p95; p50 ${ms(totals.responseTimeMs.p50)}`}
        />
      </div>
      <p class="note">{`Compared with ${times.day(report.previousPeriod.from)} – ${times.day(report.previousPeriod.to)}: uptime then ${percent(totals.previous.uptimePercent)}, SLA uptime ${percent(totals.previous.slaUptimePercent)}, ${totals.previous.incidents} incident${totals.previous.incidents === 1 ? '' : 's'}.`}</p>
    </>
  );
}

/**
 * The report as one self-contained HTML page (inline styles, vector charts, the logo inline): what
 * the app shows, what is e-mailed and what the PDF is printed from. Every text is escaped by the
 * renderer.
 */
export function reportHtml(report: ClientReport, branding: ReportBranding, paper: PaperSize = 'A4'): string {
  const accent = cssColor(branding.accentColor) ?? DEFAULT_ACCENT;
  const { period } = report;
  const zone = period.timezone;
  const times = timeTexts(zone);
  return renderHtmlDocument(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${report.customer.name}: monitoring report ${period.from} – ${period.to}`}</title>
        {/* Raw: the renderer would escape CSS; it holds no text a tenant wrote (see reportStylesheet). */}
        <style dangerouslySetInnerHTML={{ __html: reportStylesheet(paper, accent) }} />
      </head>
      <body>
        <header>
          {branding.logoDataUrl && <img src={branding.logoDataUrl} alt={report.organization.name} />}
          <div>
            <div class="note">{report.organization.name}</div>
            <h1>{`Monitoring report: ${report.customer.name}`}</h1>
            <div>{`${times.day(period.from)} – ${times.day(period.to)} (${zone})`}</div>
          </div>
        </header>
        {branding.intro && <p class="intro">{branding.intro}</p>}
        <Summary report={report} times={times} />
        <UptimeChart report={report} accent={accent} />
        <h2>Websites</h2>
        <table class="nums">
          <HeaderRow
            names={[
              'Website',
              'Uptime',
              'SLA uptime',
              'Incidents',
              'Down time',
              'Longest',
              'MTTR',
              'Checks',
              'p50',
              'p95',
            ]}
          />
          <tbody>
            {report.websites.map((w) => (
              <WebsiteRows website={w} />
            ))}
          </tbody>
        </table>
        <table>
          <caption>Certificates and domains</caption>
          <HeaderRow names={['Website', 'Certificate expires', 'Domain expires']} />
          <tbody>
            {report.websites.map((w) => (
              <tr>
                <th scope="row">{w.name}</th>
                <td>{times.dateOnly(w.certificateExpiresAt)}</td>
                <td>{times.dateOnly(w.domainExpiresAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Each website</h2>
        {report.websites.map((w) => (
          <WebsiteDetails website={w} times={times} />
        ))}
        <h2>How the figures are computed</h2>
        <ul>
          {Object.values(report.formulas).map((text) => (
            <li>{text}</li>
          ))}
        </ul>
        <footer>{`${branding.footerText ? `${branding.footerText} · ` : ''}Generated ${times.at(report.generatedAt)} (${zone})`}</footer>
      </body>
    </html>,
  );
}
