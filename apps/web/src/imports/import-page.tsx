import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { useCustomerWebsites } from '../api/customers.js';
import { useVisibleCustomers } from '../api/organization.js';
import { Check, Field, FormError } from '../ui/form.js';
import { NOUN } from '../websites/monitor-forms.js';

type Job = Schemas['Import'];
type Format = Schemas['ImportRequest']['format'];

const FORMATS: Array<{ value: Format; label: string; accept: string }> = [
  {
    value: 'webmon-json',
    label: 'A webmon export (JSON): customers, websites, channels, pages …',
    accept: '.json,application/json',
  },
  { value: 'uptime-kuma', label: 'Uptime Kuma backup (JSON)', accept: '.json,application/json' },
  { value: 'uptimerobot-json', label: 'UptimeRobot getMonitors (JSON)', accept: '.json,application/json' },
  { value: 'uptimerobot-csv', label: 'UptimeRobot export (CSV)', accept: '.csv,text/csv' },
  { value: 'csv', label: 'A CSV of your own (name, url, …)', accept: '.csv,text/csv' },
];
/** How often a running import is asked where it stands. */
const POLL_MS = 500;

/**
 * Moving from another tool: a file of monitors (Uptime Kuma, UptimeRobot, a CSV) imported into a
 * customer, tried first as a dry run; the job's progress shown while it runs, then what became of
 * each monitor.
 */
export function ImportPage() {
  const customers = useVisibleCustomers();
  const wanted = Number(new URLSearchParams(location.search).get('customerId')) || null;
  const [format, setFormat] = useState<Format>('uptime-kuma');
  const [customerId, setCustomerId] = useState<number | null>(wanted);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [customerColumn, setCustomerColumn] = useState('');
  /** The website monitors without one of their host go to (its public id; '': none). */
  const [attachTo, setAttachTo] = useState('');
  const [submitting, setSubmitting] = useState(false);
  /** Counts the polls, so one that failed (a dropped connection) is followed by another. */
  const [polls, setPolls] = useState(0);
  const running = job?.status === 'running';
  const csv = format.endsWith('csv');
  /** Our own export brings its customers (by name): no customer is chosen. */
  const whole = format === 'webmon-json';
  const byColumn = csv && customerColumn.trim() !== '';
  const websites = useCustomerWebsites(customerId && !whole ? customerId : null);
  // A website of another customer cannot be attached to.
  useEffect(() => setAttachTo(''), [customerId]);

  useEffect(() => {
    if (job?.status !== 'running') return;
    const timer = setTimeout(async () => {
      try {
        const answer = await api.GET('/api/imports/{id}', { params: { path: { id: job.id } } });
        if (answer.data) setJob(answer.data);
        else setFailure(problemText(answer.error));
      } catch {
        setFailure('The service did not answer; asking again…');
      }
      setPolls((n) => n + 1);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job, polls]);

  const choose = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    setFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
  };
  const start = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setFailure(null);
    if (!file) return setErrors({ content: 'choose the file to import' });
    const column = csv ? customerColumn.trim() : '';
    setSubmitting(true);
    const answer = await api
      .POST('/api/imports', {
        body: {
          format,
          content: file.text,
          dryRun,
          ...(whole
            ? {}
            : column
              ? { customerColumn: column }
              : customerId
                ? { customerId, ...(attachTo ? { attachTo } : {}) }
                : {}),
        },
      })
      .finally(() => setSubmitting(false));
    if (answer.error) {
      setErrors(fieldErrors(answer.error));
      return setFailure(problemText(answer.error));
    }
    setJob(answer.data);
  };
  const chosenFormat = FORMATS.find((f) => f.value === format);
  return (
    <section>
      <p>
        <a href="/customers">Customers</a> / Import
      </p>
      <h1>Import websites</h1>
      <p class="muted">
        HTTP and keyword monitors become websites with their checks; ping, port, DNS, push, gRPC, WebSocket
        and mail-server monitors become checks of the website of their host (one the customer has or this
        import makes), or of the website you choose below. Websites the customer has at the same address, and
        checks a website has already, are not made again, so an import can run again. A webmon export (from
        another organization or installation) brings everything it holds; what your organization has by the
        same name is left as it is.
      </p>
      <form onSubmit={start} class="card" aria-labelledby="import-title">
        <h2 id="import-title">From a file</h2>
        <FormError message={failure} />
        <Field label="Format" error={errors.format}>
          {(props) => (
            <select {...props} value={format} onChange={(e) => setFormat(e.currentTarget.value as Format)}>
              {FORMATS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {!whole && (
          <Field label="Into the customer" error={errors.customerId}>
            {(props) => (
              <select
                {...props}
                value={customerId ?? ''}
                onChange={(e) => setCustomerId(Number(e.currentTarget.value) || null)}
              >
                <option value="">Choose a customer…</option>
                {/* Selected by each option: the list comes after the select is drawn. */}
                {customers.data?.map((c) => (
                  <option key={c.id} value={c.id} selected={c.id === customerId}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {csv && (
          <Field
            label="Or the customer from a column"
            error={errors.customerColumn}
            hint="The CSV column holding each row's customer (its name or id); leave empty to use the customer above"
          >
            {(props) => (
              <input
                {...props}
                value={customerColumn}
                maxLength={100}
                onInput={(e) => setCustomerColumn(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        {!whole && !byColumn && customerId && (
          <Field
            label="Attach monitors without a website to"
            error={errors.attachTo}
            hint="Ping, port, gRPC … monitors whose host has no website of the customer, and push/heartbeat monitors, go to this website; with none they are listed as not imported"
          >
            {(props) => (
              <select {...props} value={attachTo} onChange={(e) => setAttachTo(e.currentTarget.value)}>
                <option value="">None: list them as not imported</option>
                {websites.data?.map((w) => (
                  <option key={w.id} value={w.publicId} selected={w.publicId === attachTo}>
                    {w.name} ({w.url})
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field
          label="File"
          error={errors.content}
          hint={file ? `${file.name}, ${file.text.length.toLocaleString()} characters` : undefined}
        >
          {(props) => (
            <input
              {...props}
              type="file"
              accept={chosenFormat?.accept}
              onChange={(e) => void choose(e.currentTarget)}
            />
          )}
        </Field>
        <Check
          label="Dry run: show what would be created, write nothing"
          checked={dryRun}
          onChange={setDryRun}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={running || submitting}>
            {dryRun ? 'Try it' : 'Import'}
          </button>
        </div>
      </form>
      {job && <ImportReport job={job} />}
    </section>
  );
}

/** What a webmon-json import did with each thing, grouped by outcome. */
const RESOURCE_GROUPS: Array<{ status: Job['report']['resources'][number]['status']; title: string }> = [
  { status: 'created', title: 'Created' },
  { status: 'would-create', title: 'Would be created' },
  { status: 'failed', title: 'Not made' },
  { status: 'skipped', title: 'Skipped (it needs something not made)' },
  { status: 'exists', title: 'Already there (left as it is)' },
];

/** What an import did with each monitor that became a check of a website (a dry run: would be made). */
const CHECK_GROUPS: Array<{ status: 'created' | 'exists'; title: string }> = [
  { status: 'created', title: 'Checks made' },
  { status: 'exists', title: 'Checks already there (not made again)' },
];
const VIA: Record<Job['report']['monitors'][number]['via'], string> = {
  host: 'the website of its host',
  attachTo: 'the website chosen to attach to',
  name: 'the website of its name',
};

function ImportReport({ job }: { job: Job }) {
  const { report, progress } = job;
  const done = job.status !== 'running';
  const things = job.format === 'webmon-json';
  const rows: Array<{
    title: string;
    items: Array<{ source: string; name: string; url: string; detail: ComponentChildren }>;
  }> = [
    ...RESOURCE_GROUPS.map(({ status, title }) => ({
      title,
      items: report.resources
        .filter((r) => r.status === status)
        .map((r, i) => ({
          source: `${r.kind}-${i}`,
          name: r.name,
          url: '',
          detail: r.errors.map((x) => (x.path ? `${x.path}: ${x.message}` : x.message)).join('; '),
        })),
    })),
    {
      title: job.dryRun ? 'Would be created' : 'Created',
      items: (job.dryRun ? report.wouldCreate : report.created).map((e) => ({ ...e, detail: '' })),
    },
    ...CHECK_GROUPS.map(({ status, title }) => ({
      title: job.dryRun && status === 'created' ? 'Checks that would be made' : title,
      items: report.monitors
        .filter((m) => m.status === status || (status === 'created' && m.status === 'would-create'))
        .map((m) => ({
          ...m,
          detail: (
            <>
              {NOUN[m.kind]} on{' '}
              {m.website.publicId ? (
                <a href={`/websites/${m.website.publicId}`}>{m.website.name}</a>
              ) : (
                m.website.name
              )}{' '}
              ({VIA[m.via]}
              {m.website.id === null ? ', made by this import' : ''})
            </>
          ),
        })),
    })),
    { title: 'Already there (not made again)', items: report.duplicates.map((e) => ({ ...e, detail: '' })) },
    {
      title: 'Not imported',
      items: report.unsupported.map((e) => ({ ...e, detail: `${e.sourceType}: ${e.reason}` })),
    },
    {
      title: 'Invalid',
      items: report.invalid.map((e) => ({
        ...e,
        detail: e.errors.map((x) => (x.path ? `${x.path}: ${x.message}` : x.message)).join('; '),
      })),
    },
    {
      title: things ? 'Not carried' : 'Adjusted',
      items: report.adjusted.map((e) => ({ ...e, detail: e.changes.join('; ') })),
    },
  ];
  return (
    <section aria-labelledby="report-title" id="import-report">
      <h2 id="report-title">
        {job.dryRun ? 'Dry run' : 'Import'} {job.id}:{' '}
        {job.status === 'running' ? 'running' : job.status === 'succeeded' ? '✓ done' : '✕ failed'}
      </h2>
      <p role="status">
        <progress
          max={progress.total}
          value={progress.done}
          aria-label={things ? 'Things gone through' : 'Monitors gone through'}
        />{' '}
        {progress.done.toLocaleString()} of {progress.total.toLocaleString()} {things ? 'things' : 'monitors'}
      </p>
      {job.error && <FormError message={job.error} />}
      {done &&
        rows
          .filter((row) => row.items.length > 0)
          .map((row) => (
            <details key={row.title} open={!/^(Already|Checks already) there/.test(row.title)}>
              <summary>
                {row.title} ({row.items.length})
              </summary>
              <ul class="wraps">
                {row.items.map((item, i) => (
                  <li key={`${row.title}-${item.source}-${i}`}>
                    <strong>{item.name || item.url}</strong>
                    {!things && (
                      <>
                        {' '}
                        <span class="muted">({item.source})</span> {item.url}
                      </>
                    )}
                    {item.detail && <> — {item.detail}</>}
                  </li>
                ))}
              </ul>
            </details>
          ))}
      {done &&
        !job.dryRun &&
        (report.created.length > 0 ||
          report.monitors.some((m) => m.status === 'created') ||
          report.resources.some((r) => r.status === 'created')) && (
          <p>
            <a href="/">See them on the overview</a>
          </p>
        )}
    </section>
  );
}
