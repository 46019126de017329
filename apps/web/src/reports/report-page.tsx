import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { Schemas } from '../api/client.js';
import { useReport } from '../api/customers.js';
import { canEdit, useSession } from '../session.js';
import { Loading } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { KIND_NAME } from '../websites/monitor-forms.js';
import { JourneyRunsRow } from './report-journey-runs.js';
import { ReportMailing } from './report-schedule.js';

type Report = Schemas['ClientReport'];
type Figures = Schemas['ReportFigures'];
type ReportMonitor = Schemas['ReportMonitor'];

const percent = (value: number | null) => (value === null ? '–' : `${value.toFixed(3)} %`);
const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** 5400 → "1 h 30 min". */
function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  const parts = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'min'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** A change said in words and an arrow, never by colour alone. */
function change(value: number | null, unit: string, better: 'up' | 'down') {
  if (value === null || value === 0) return 'no change';
  const improved = better === 'up' ? value > 0 : value < 0;
  return `${value > 0 ? '▲ +' : '▼ '}${value}${unit} (${improved ? 'better' : 'worse'})`;
}

/** The last full calendar month, as the API defaults to (in the browser's idea of dates). */
function lastMonth(): { from: string; to: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getFullYear(), now.getMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getFullYear(), now.getMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/**
 * A customer's report for a period: the figures, each website's, the incidents, and the report to
 * download as PDF (A4 or Letter), HTML or CSV. Client users see their own customer's.
 */
export function ReportPage() {
  const { params } = useRoute();
  const id = Number(params.id);
  const form = useForm(lastMonth, { body: (period) => period });
  const [asked, setAsked] = useState(form.values);
  const report = useReport(id, asked);
  const { caller } = useSession();
  const query = `from=${asked.from}&to=${asked.to}`;
  const download = (format: string, paper = 'A4') =>
    `/api/customers/${id}/reports?${query}&format=${format}&paper=${paper}`;
  return (
    <section>
      <p>
        <a href={`/customers/${id}`}>Customer</a> / Report
      </p>
      <h1>Report{report.data ? `: ${report.data.customer.name}` : ''}</h1>
      <form
        class="card inline"
        aria-label="Period"
        onSubmit={(event) => {
          event.preventDefault();
          const period = form.check();
          if (period) setAsked(period);
        }}
      >
        <label>
          From <input type="date" required {...form.bind('from')} />
        </label>{' '}
        <label>
          To <input type="date" required {...form.bind('to')} />
        </label>{' '}
        <button type="submit" class="primary">
          Show
        </button>
      </form>
      {!report.data ? (
        <Loading error={report.error} />
      ) : (
        <ReportView
          report={report.data}
          downloads={{
            pdf: download('pdf'),
            letter: download('pdf', 'Letter'),
            html: download('html'),
            csv: download('csv'),
          }}
        />
      )}
      {canEdit(caller) && <ReportMailing customerId={id} period={asked} />}
    </section>
  );
}

function ReportView({
  report,
  downloads,
}: {
  report: Report;
  downloads: Record<'pdf' | 'letter' | 'html' | 'csv', string>;
}) {
  const { totals } = report;
  return (
    <>
      <p>
        {report.period.from} – {report.period.to} ({report.period.timezone}), compared with{' '}
        {report.previousPeriod.from} – {report.previousPeriod.to}.
      </p>
      <p class="actions">
        <a class="button" href={downloads.pdf} download>
          Download PDF (A4)
        </a>{' '}
        <a href={downloads.letter} download>
          PDF (Letter)
        </a>{' '}
        · <a href={downloads.html}>HTML</a> ·{' '}
        <a href={downloads.csv} download>
          CSV
        </a>
      </p>
      <ul class="cards" aria-label="Summary">
        <Card
          title="Uptime"
          value={percent(totals.uptimePercent)}
          note={change(totals.change.uptimePercent, ' pt', 'up')}
        />
        <Card
          title="SLA uptime"
          value={percent(totals.slaUptimePercent)}
          note={`maintenance left out; ${change(totals.change.slaUptimePercent, ' pt', 'up')}`}
        />
        <Card
          title="Incidents"
          value={String(totals.incidents)}
          note={change(totals.change.incidents, '', 'down')}
        />
        <Card
          title="Down time"
          value={duration(totals.downtimeSeconds)}
          note={`longest ${duration(totals.longestIncidentSeconds)}`}
        />
        <Card
          title="Mean time to recovery"
          value={duration(totals.mttrSeconds)}
          note={`${totals.checks.toLocaleString()} checks`}
        />
        <Card
          title="Response time (p95)"
          value={ms(totals.responseTimeMs.p95)}
          note={`p50 ${ms(totals.responseTimeMs.p50)}`}
        />
      </ul>
      <h2>Websites</h2>
      {report.websites.length === 0 ? (
        <p>No websites in this period: add one on the customer’s page.</p>
      ) : (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Website</th>
                <th scope="col">Uptime</th>
                <th scope="col">SLA uptime</th>
                <th scope="col">Incidents</th>
                <th scope="col">Down time</th>
                <th scope="col">MTTR</th>
                <th scope="col">p95</th>
              </tr>
            </thead>
            <tbody>
              {report.websites.map((w) => (
                <Fragment key={w.id}>
                  <WebsiteRow name={w.name} url={w.url} figures={w.figures} />
                  {w.monitors.map((m) => (
                    <Fragment key={m.id}>
                      <MonitorRow monitor={m} />
                      <JourneyRunsRow monitor={m} columns={7} />
                    </Fragment>
                  ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report.websites.some((w) => w.incidents.length > 0) && (
        <>
          <h2>Incidents</h2>
          <ul class="wraps">
            {report.websites.flatMap((w) =>
              w.incidents.map((i) => (
                <li key={i.id}>
                  <strong>
                    {w.name}
                    {i.monitor && ` · ${KIND_NAME[i.monitor.kind]}: ${i.monitor.name}`}
                  </strong>
                  : {new Date(i.startedAt).toLocaleString()} for {duration(i.durationSeconds)} — {i.cause}
                  {i.publicNote && <> ({i.publicNote})</>} <a href={`/incidents/${i.id}`}>Details</a>
                </li>
              )),
            )}
          </ul>
        </>
      )}
      <details>
        <summary>How the figures are computed</summary>
        <ul>
          {Object.values(report.formulas).map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      </details>
    </>
  );
}

function Card({ title, value, note }: { title: string; value: string; note: string }) {
  return (
    <li class="card">
      <div class="muted">{title}</div>
      <strong>{value}</strong>
      <div class="muted">{note}</div>
    </li>
  );
}

function WebsiteRow({ name, url, figures }: { name: string; url: string; figures: Figures }) {
  return (
    <tr>
      <th scope="row">
        {name}
        <div class="muted wraps">{url}</div>
      </th>
      <td>{percent(figures.uptimePercent)}</td>
      <td>{percent(figures.slaUptimePercent)}</td>
      <td>{figures.incidents}</td>
      <td>{duration(figures.downtimeSeconds)}</td>
      <td>{duration(figures.mttrSeconds)}</td>
      <td>{ms(figures.responseTimeMs.p95)}</td>
    </tr>
  );
}

/** A website's other monitor, under its website: its own uptime (no checks or response times of its own). */
function MonitorRow({ monitor }: { monitor: ReportMonitor }) {
  const { figures } = monitor;
  return (
    <tr>
      <th scope="row">
        <span aria-hidden="true">↳ </span>
        <span class="muted">{KIND_NAME[monitor.kind]}</span> {monitor.name}
        {monitor.target && <div class="muted wraps">{monitor.target}</div>}
      </th>
      <td>{percent(figures.uptimePercent)}</td>
      <td>{percent(figures.slaUptimePercent)}</td>
      <td>{figures.incidents}</td>
      <td>{duration(figures.downtimeSeconds)}</td>
      <td>{duration(figures.mttrSeconds)}</td>
      <td>–</td>
    </tr>
  );
}
