import './overview.css';
import { Component } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import {
  allWebsites,
  SEARCH_MIN_CHARS,
  searchWebsites,
  useVisibleCustomers,
  type WebsiteSummary,
} from '../api/organization.js';
import { useApiQuery } from '../api/query.js';
import { canEdit, clientCustomerId, useSession } from '../session.js';
import { Field, FormError } from '../ui/form.js';
import { STATUSES, StatusBadge, statusLabel } from '../ui/status.js';
import {
  overviewKeys,
  SLOW_REFRESH_MS,
  useLiveOverview,
  usePictures,
  type WebsitePicture,
} from './overview-data.js';
import { CheckBar, percent, Sparkline, shownTime } from './pictures.js';

/** Rows drawn at first and added per "Show more": 5,000 websites stay quick to filter and to draw. */
const ROWS = 200;

type Website = WebsiteSummary;

export function Overview() {
  const { caller } = useSession();
  const ownCustomer = clientCustomerId(caller);
  // The first pages draw as they come (1,000 websites are two requests): the rows show after the first.
  const [partial, setPartial] = useState<Website[] | undefined>(undefined);
  const listKey = overviewKeys.websites(ownCustomer);
  // Changes come by the stream; while it is down, everything shown is read again every 30 s.
  const live = useLiveOverview(listKey);
  const refreshMs = live === 'polling' ? SLOW_REFRESH_MS : undefined;
  // Without a customer the API narrows a client user's list to its own (and the early first page is the same request).
  const websites = useApiQuery(listKey, () => allWebsites(undefined, setPartial), { pollMs: refreshMs });
  const all = websites.data ?? partial;
  const reading = websites.data === undefined && partial !== undefined;
  const customers = useVisibleCustomers();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [customer, setCustomer] = useState('');
  const [shown, setShown] = useState(ROWS);
  // While the list still loads, a search of a few characters asks the server's index rather than
  // waiting for every page; each answer says which text it is for (a late one is not shown).
  const needle = search.trim();
  const askServer = reading && needle.length >= SEARCH_MIN_CHARS;
  const serverSearch = useApiQuery(
    ['websites', 'search', needle, ownCustomer],
    async () => ({ needle, found: await searchWebsites(needle, ownCustomer ?? undefined) }),
    { enabled: askServer },
  );
  const searched = askServer && serverSearch.data?.needle === needle ? serverSearch.data.found : undefined;

  const names = useMemo(() => new Map((customers.data ?? []).map((c) => [c.id, c.name])), [customers.data]);
  const matching = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (searched ?? all ?? []).filter(
      (w) =>
        (!status || w.status === status) &&
        (!customer || String(w.customerId) === customer) &&
        (!needle || w.name.toLowerCase().includes(needle) || w.url.toLowerCase().includes(needle)),
    );
  }, [all, searched, search, status, customer]);
  const counts = useMemo(() => {
    const byStatus = new Map<string, number>();
    for (const w of all ?? []) byStatus.set(w.status, (byStatus.get(w.status) ?? 0) + 1);
    return byStatus;
  }, [all]);
  const groups = useMemo(() => {
    const byCustomer = new Map<number, Website[]>();
    for (const w of matching.slice(0, shown)) {
      const list = byCustomer.get(w.customerId) ?? [];
      list.push(w);
      byCustomer.set(w.customerId, list);
    }
    return [...byCustomer.entries()].sort(([a], [b]) =>
      (names.get(a) ?? '').localeCompare(names.get(b) ?? ''),
    );
  }, [matching, shown, names]);
  // The pictures of every row shown, read for all the tables at once (200 a request).
  const shownIds = useMemo(() => groups.flatMap(([, list]) => list.map((w) => w.id)), [groups]);
  usePictures(shownIds, refreshMs);

  const filtered = Boolean(search || status || customer);
  const editor = canEdit(caller);
  return (
    <section>
      <h1>Websites</h1>
      <FormError message={websites.error} />
      {all === undefined && !websites.error && <p role="status">Loading the websites…</p>}
      {all && (
        <>
          <ul class="cards" aria-label="Websites by status">
            <li class="card">
              <strong>{all.length}</strong> {all.length === 1 ? 'website' : 'websites'}
            </li>
            {STATUSES.filter((s) => counts.get(s)).map((s) => (
              <li class="card" key={s}>
                <strong>{counts.get(s)}</strong> <StatusBadge status={s} />
              </li>
            ))}
          </ul>
          <form class="toolbar" aria-label="Filter the websites" onSubmit={(e) => e.preventDefault()}>
            <Field label="Search by name or URL">
              {(props) => (
                <input
                  {...props}
                  type="search"
                  value={search}
                  onInput={(e) => {
                    setSearch(e.currentTarget.value);
                    setShown(ROWS);
                  }}
                />
              )}
            </Field>
            <Field label="Status">
              {(props) => (
                <select
                  {...props}
                  value={status}
                  onChange={(e) => {
                    setStatus(e.currentTarget.value);
                    setShown(ROWS);
                  }}
                >
                  <option value="">Any status</option>
                  {STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {statusLabel(s)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {ownCustomer === null && (
              <Field label="Customer">
                {(props) => (
                  <select
                    {...props}
                    value={customer}
                    onChange={(e) => {
                      setCustomer(e.currentTarget.value);
                      setShown(ROWS);
                    }}
                  >
                    <option value="">All customers</option>
                    {(customers.data ?? []).map((c) => (
                      <option key={c.id} value={String(c.id)}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
          </form>
          <p role="status" class="muted">
            {searched
              ? `Reading the websites… ${all.length} so far; ${matching.length} found by searching them all.`
              : reading
                ? `Reading the websites… ${all.length} so far${filtered ? `, ${matching.length} match` : ''}.`
                : filtered
                  ? `${matching.length} of ${all.length} websites match.`
                  : `${all.length} ${all.length === 1 ? 'website' : 'websites'}.`}{' '}
            {!reading &&
              (live === 'live'
                ? 'Updated as checks finish.'
                : live === 'polling'
                  ? 'Live updates are interrupted: read again every 30 seconds.'
                  : '')}
          </p>
          <ul class="legend" aria-label="The marks of the last checks">
            <li>
              <span class="check-mark check-up" aria-hidden="true" />
              Up
            </li>
            <li>
              <span class="check-mark check-degraded" aria-hidden="true" />
              Degraded
            </li>
            <li>
              <span class="check-mark check-down" aria-hidden="true" />
              Down
            </li>
          </ul>
          {all.length === 0 &&
            (editor ? (
              <p>
                No websites yet. <a href="/customers">Add a customer</a>, then its first website.
              </p>
            ) : (
              <p>No websites are monitored for you yet: ask your agency to add them.</p>
            ))}
          {all.length > 0 && matching.length === 0 && (
            <p>
              No website matches these filters.{' '}
              <button
                type="button"
                class="link"
                onClick={() => {
                  setSearch('');
                  setStatus('');
                  setCustomer('');
                }}
              >
                Clear the filters
              </button>
            </p>
          )}
          {groups.map(([customerId, list]) => (
            <section class="group" key={customerId} aria-labelledby={`customer-${customerId}`}>
              <h2 id={`customer-${customerId}`}>
                {editor ? (
                  <a href={`/customers/${customerId}`}>{names.get(customerId) ?? `Customer ${customerId}`}</a>
                ) : (
                  (names.get(customerId) ?? 'Your websites')
                )}
              </h2>
              <WebsiteTable websites={list} readsPictures={false} />
            </section>
          ))}
          {matching.length > shown && (
            <p>
              Showing {shown} of {matching.length}.{' '}
              <button type="button" onClick={() => setShown(shown + ROWS)}>
                Show {Math.min(ROWS, matching.length - shown)} more
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Websites with their pictures (from the shared entry of the cache). `readsPictures`: reads those
 * not known yet itself (false where the screen reads them for all its tables at once).
 */
export function WebsiteTable({
  websites,
  readsPictures = true,
}: {
  websites: Website[];
  readsPictures?: boolean;
}) {
  const pictures = usePictures(readsPictures ? websites.map((w) => w.id) : []);
  return (
    <table class="stack websites pictured">
      <thead>
        <tr>
          <th scope="col">Website</th>
          <th scope="col">Status</th>
          <th scope="col">Last checks</th>
          <th scope="col">Response time</th>
          <th scope="col">Uptime</th>
        </tr>
      </thead>
      <tbody>
        {websites.map((w) => (
          <WebsiteRow key={w.id} website={w} picture={pictures.data?.get(w.id)} />
        ))}
      </tbody>
    </table>
  );
}

interface RowProps {
  website: Website;
  picture: WebsitePicture | undefined;
}

/**
 * One website's row, drawn again only when the website or its picture changed: a change that came
 * by the stream redraws its own row, not the 200 shown (each has 30 marks).
 */
class WebsiteRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return next.website !== this.props.website || next.picture !== this.props.picture;
  }

  override render({ website: w, picture }: RowProps) {
    return (
      <tr>
        <td data-label="Website">
          <div>
            <a href={`/websites/${w.publicId}`}>{w.name}</a>
            <div class="url">{w.url}</div>
          </div>
        </td>
        <td data-label="Status">
          <StatusBadge status={w.status} />
          <span class="checked-at">{w.lastCheckedAt ? shownTime(w.lastCheckedAt) : 'Not checked yet'}</span>
        </td>
        <td data-label="Last checks">
          {picture ? <CheckBar checks={picture.recentChecks} name={w.name} /> : <Pending />}
        </td>
        <td data-label="Response time">
          {picture ? (
            <>
              {picture.lastResponseMs === null ? '—' : `${picture.lastResponseMs} ms`}
              <Sparkline values={picture.responseTimes24h} />
            </>
          ) : (
            <Pending />
          )}
        </td>
        <td data-label="Uptime">
          {picture ? (
            <dl class="figures">
              <dt>24 h</dt>
              <dd>{percent(picture.uptime24hPercent)}</dd>
              <dt>30 d</dt>
              <dd>{percent(picture.uptime30dPercent)}</dd>
            </dl>
          ) : (
            <Pending />
          )}
        </td>
      </tr>
    );
  }
}

/** A picture still read. */
function Pending() {
  return <span class="muted">…</span>;
}
