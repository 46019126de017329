import './site-health.css';
import { useMemo, useState } from 'preact/hooks';
import { useVisibleCustomers } from '../api/organization.js';
import {
  type SiteHealthItem,
  type SiteHealthSort,
  type SortOrder,
  useSiteHealthOverview,
} from '../api/site-health.js';
import { shownTime } from '../overview/pictures.js';
import { clientCustomerId, useSession } from '../session.js';
import { Field, FormError } from '../ui/form.js';
import { CATEGORIES, type Category, counted, Score } from './scores.js';

/** Read again this often: runs end on their schedules, at any time. */
const POLL_MS = 60_000;

/** The sortable columns: a count (most first at the first press) or a score (lowest first). */
const COLUMNS: ReadonlyArray<readonly [SiteHealthSort, string]> = [
  ['name', 'Website'],
  ['brokenLinks', 'Broken links'],
  ['mixedContent', 'Mixed content'],
  ['sitemapErrors', 'Sitemap errors'],
  ...CATEGORIES,
];
const firstOrder = (sort: SiteHealthSort): SortOrder =>
  sort === 'brokenLinks' || sort === 'mixedContent' || sort === 'sitemapErrors' ? 'desc' : 'asc';
/** What an order means for a column, in words. */
const orderWords = (sort: SiteHealthSort, order: SortOrder) =>
  sort === 'name'
    ? order === 'asc'
      ? 'A to Z'
      : 'Z to A'
    : firstOrder(sort) === order
      ? sort === 'brokenLinks' || sort === 'mixedContent' || sort === 'sitemapErrors'
        ? 'most first'
        : 'lowest first'
      : sort === 'brokenLinks' || sort === 'mixedContent' || sort === 'sitemapErrors'
        ? 'fewest first'
        : 'highest first';

/** A website's worst score in a category: its lowest page and preset. */
function worst(item: SiteHealthItem, category: Category): number | null {
  const scores = (item.lighthouse?.pages ?? []).flatMap((page) =>
    page.scores[category] === null ? [] : [page.scores[category]],
  );
  return scores.length > 0 ? Math.min(...scores) : null;
}

/** A count where the crawl has one, "—" where it has no crawl; a non-zero count marked (✕ when severe). */
function Count({
  value,
  extra,
  severe,
}: {
  value: number | null;
  extra?: string | undefined;
  severe?: boolean;
}) {
  if (value === null) return <span class="muted">—</span>;
  if (value === 0) return <span>0</span>;
  return (
    <span class={severe ? 'error-text' : 'warn-text'}>
      <span aria-hidden="true">{severe ? '✕ ' : '! '}</span>
      {value.toLocaleString('en')}
      {extra && <span class="extra"> {extra}</span>}
    </span>
  );
}

/**
 * Every customer's websites with a crawl or a Lighthouse check (a client user: its own), sortable
 * by broken links, mixed content, sitemap errors or a Lighthouse score, each linking to the
 * website's Site health tab.
 */
export function SiteHealthOverview() {
  const { caller } = useSession();
  const own = clientCustomerId(caller);
  const [sort, setSort] = useState<SiteHealthSort>('brokenLinks');
  const [order, setOrder] = useState<SortOrder>('desc');
  const [customer, setCustomer] = useState('');
  const customers = useVisibleCustomers();
  const overview = useSiteHealthOverview(
    { sort, order, customerId: customer ? Number(customer) : undefined },
    POLL_MS,
  );
  const names = useMemo(() => new Map((customers.data ?? []).map((c) => [c.id, c.name])), [customers.data]);
  const items = overview.data;

  const sortBy = (column: SiteHealthSort) => {
    const next = column === sort ? (order === 'asc' ? 'desc' : 'asc') : firstOrder(column);
    setSort(column);
    setOrder(next);
  };
  const label = COLUMNS.find(([key]) => key === sort)?.[1] ?? sort;

  return (
    <section class="site-health">
      <h1>Site health</h1>
      <p class="muted">
        Each website’s site crawl and Lighthouse check as their last runs left them: open broken links, mixed
        content and sitemap errors, and the lowest score of its pages and presets. Press a column’s heading to
        sort by it.
      </p>
      <form class="toolbar" aria-label="Filter and sort the websites" onSubmit={(e) => e.preventDefault()}>
        {own === null && (
          <Field label="Customer">
            {(props) => (
              <select {...props} value={customer} onChange={(e) => setCustomer(e.currentTarget.value)}>
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
        <div class="sort-choice">
          <Field label="Sort by">
            {(props) => (
              <select
                {...props}
                value={`${sort} ${order}`}
                onChange={(e) => {
                  const [key, way] = e.currentTarget.value.split(' ') as [SiteHealthSort, SortOrder];
                  setSort(key);
                  setOrder(way);
                }}
              >
                {COLUMNS.flatMap(([key, name]) =>
                  ([firstOrder(key), firstOrder(key) === 'asc' ? 'desc' : 'asc'] as const).map((way) => (
                    <option key={`${key} ${way}`} value={`${key} ${way}`}>
                      {name}, {orderWords(key, way)}
                    </option>
                  )),
                )}
              </select>
            )}
          </Field>
        </div>
      </form>
      <FormError message={overview.error} />
      {items === undefined && !overview.error && <p role="status">Loading…</p>}
      {items?.length === 0 && (
        <p>
          No website has a site crawl or a Lighthouse check yet: add one from a website’s page (its monitors,
          or its Site health tab).
        </p>
      )}
      {items && items.length > 0 && (
        <div class="table-scroll">
          <table class="stack site-health-table">
            <caption>
              {counted(items.length, 'website')}, by {label.toLowerCase()}, {orderWords(sort, order)}
            </caption>
            <thead>
              <tr>
                {COLUMNS.map(([key, name]) => (
                  <th
                    scope="col"
                    key={key}
                    aria-sort={key === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    <button type="button" class="sort" onClick={() => sortBy(key)}>
                      {name}
                      <span aria-hidden="true" class="sort-mark">
                        {key === sort ? (order === 'asc' ? ' ▲' : ' ▼') : ' ↕'}
                      </span>
                    </button>
                  </th>
                ))}
                <th scope="col">Last crawl</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.website.id}>
                  <td data-label="Website">
                    <a href={`/websites/${item.website.publicId}?tab=site-health`}>{item.website.name}</a>
                    <div class="url">{item.website.url}</div>
                    {own === null && names.get(item.website.customerId) && (
                      <div class="muted">{names.get(item.website.customerId)}</div>
                    )}
                  </td>
                  <td data-label="Broken links">
                    <Count value={item.crawl?.brokenLinks ?? null} />
                  </td>
                  <td data-label="Mixed content">
                    <Count
                      value={item.crawl?.mixedContent ?? null}
                      severe={Boolean(item.crawl?.activeMixedContent)}
                      extra={
                        item.crawl?.activeMixedContent
                          ? `(${item.crawl.activeMixedContent} active)`
                          : undefined
                      }
                    />
                  </td>
                  <td data-label="Sitemap errors">
                    <Count value={item.crawl?.sitemapErrors ?? null} />
                  </td>
                  {CATEGORIES.map(([category, name]) => (
                    <td key={category} data-label={name}>
                      {item.lighthouse ? (
                        <Score score={worst(item, category)} />
                      ) : (
                        <span class="muted">—</span>
                      )}
                    </td>
                  ))}
                  <td data-label="Last crawl">
                    {item.crawl ? (
                      <>
                        {shownTime(item.crawl.at)}
                        {item.crawl.outcome !== 'complete' && (
                          <div class={item.crawl.outcome === 'failed' ? 'error-text' : 'muted'}>
                            {item.crawl.outcome}
                          </div>
                        )}
                      </>
                    ) : (
                      <span class="muted">no crawl</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
