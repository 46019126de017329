import { useId, useState } from 'preact/hooks';
import type { FindingState, SiteFinding } from '../api/site-health.js';
import { useFindings } from '../api/site-health.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { FormError } from '../ui/form.js';
import { counted, shortUrl } from './scores.js';

type Of<T extends SiteFinding['type']> = Extract<SiteFinding, { type: T }>;
type Page = Of<'broken-link'>['pages'][number];

/** What a page's element is, in words: where the link or resource sits. */
const ELEMENT: Record<Page['element'], string> = {
  a: 'link',
  area: 'image map link',
  img: 'image',
  script: 'script',
  link: 'stylesheet or icon',
  iframe: 'frame',
  source: 'media source',
  video: 'video',
  audio: 'audio',
  form: 'form',
  object: 'object',
  embed: 'embed',
};

interface Props {
  monitorId: number;
  /** The website's URL: its own pages are shown by their path. */
  site: string;
  zone: string;
  /** Read again when it changes (the crawl's latest result). */
  version: string;
  /** Read again this often besides (when the results cannot tell of a new crawl). */
  pollMs?: number | undefined;
}

/** A page of the site by its path ("/ (home page)": a bare slash is too small a link to press). */
const pageName = (url: string, site: string) => {
  const short = shortUrl(url, site);
  return short === '/' ? '/ (home page)' : short;
};

/** The pages a finding appears on, with its element and what a reader sees of it (a link's text, an alt). */
function PagesOf({ finding, site }: { finding: Of<'broken-link'> | Of<'mixed-content'>; site: string }) {
  const more = finding.pageCount - finding.pages.length;
  return (
    <ul class="finding-pages">
      {finding.pages.map((p) => (
        <li key={`${p.page} ${p.element} ${p.text}`}>
          <a href={p.page} rel="noreferrer">
            {pageName(p.page, site)}
          </a>
          <span class="muted">
            {' '}
            — {ELEMENT[p.element]}
            {p.text ? ` “${p.text}”` : ''}
          </span>
        </li>
      ))}
      {more > 0 && <li class="muted">and {counted(more, 'more page')}</li>}
    </ul>
  );
}

/** Open or fixed: radio buttons, the table below follows. */
function StateChoice({ value, onChange }: { value: FindingState; onChange: (state: FindingState) => void }) {
  const name = useId();
  return (
    <fieldset class="choice state-choice">
      <legend>Show</legend>
      <div class="row">
        {(
          [
            ['open', 'Open'],
            ['fixed', 'Fixed'],
          ] as const
        ).map(([key, label]) => (
          <div class="field check" key={key}>
            <input
              type="radio"
              id={`${name}-${key}`}
              name={name}
              checked={value === key}
              onChange={() => onChange(key)}
            />
            <label for={`${name}-${key}`}>{label}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** "3 open broken links" or "Showing 200 of 1,234 …": the table's caption. */
const caption = (shown: number, total: number, what: string) =>
  shown < total ? `Showing ${shown} of ${counted(total, what)}` : counted(total, what);

/** A crawl's broken links, open or fixed: each URL with its answer, the pages it is on with the link's text, when first seen. */
export function BrokenLinks({ monitorId, site, zone, version, pollMs }: Props) {
  const [state, setState] = useState<FindingState>('open');
  const found = useFindings(monitorId, { type: 'broken-link', state }, version, pollMs);
  const items = (found.data?.items ?? []) as Array<Of<'broken-link'>>;
  return (
    <>
      <StateChoice value={state} onChange={setState} />
      <FormError message={found.error} />
      {found.data === undefined && !found.error && <p role="status">Loading the broken links…</p>}
      {found.data && items.length === 0 && (
        <p>
          {state === 'open'
            ? '✓ No broken links: every link and resource the last crawl checked answered.'
            : 'None fixed yet: a broken link the next crawls find working shows here.'}
        </p>
      )}
      {found.data && items.length > 0 && (
        <div class="table-scroll">
          <table class="stack findings">
            <caption>{caption(items.length, found.data.total, `${state} broken link`)}</caption>
            <thead>
              <tr>
                <th scope="col">Link</th>
                <th scope="col">{state === 'open' ? 'Answer' : 'Answered then'}</th>
                <th scope="col">Appears on</th>
                <th scope="col">{state === 'open' ? 'First seen' : 'Fixed'}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((f) => (
                <tr key={f.url}>
                  <td data-label="Link" class="url-cell">
                    <code>{shortUrl(f.url, site)}</code>
                  </td>
                  <td data-label={state === 'open' ? 'Answer' : 'Answered then'}>
                    <span class={state === 'open' ? 'error-text' : 'muted'}>
                      {f.status !== null ? `HTTP ${f.status}` : (f.error?.message ?? 'no answer')}
                    </span>
                  </td>
                  <td data-label="Appears on">
                    <PagesOf finding={f} site={site} />
                  </td>
                  <td data-label={state === 'open' ? 'First seen' : 'Fixed'}>
                    {formatIn(state === 'open' || !f.fixedAt ? f.firstSeenAt : f.fixedAt, zone)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** http: resources on https: pages, the active ones (which browsers block) first. */
export function MixedContent({ monitorId, site, zone, version, pollMs }: Props) {
  const found = useFindings(monitorId, { type: 'mixed-content', state: 'open' }, version, pollMs);
  const items = ((found.data?.items ?? []) as Array<Of<'mixed-content'>>)
    .slice()
    .sort((a, b) => Number(a.category === 'passive') - Number(b.category === 'passive'));
  const active = items.filter((f) => f.category === 'active').length;
  if (found.error) return <FormError message={found.error} />;
  if (found.data === undefined) return <p role="status">Loading the mixed content…</p>;
  if (items.length === 0)
    return <p>✓ No mixed content: the https: pages crawled load nothing over plain http:.</p>;
  return (
    <div class="table-scroll">
      <table class="stack findings">
        <caption>
          {caption(items.length, found.data.total, 'http: resource')} on https: pages, {active} active
        </caption>
        <thead>
          <tr>
            <th scope="col">Resource</th>
            <th scope="col">Kind</th>
            <th scope="col">Appears on</th>
            <th scope="col">First seen</th>
          </tr>
        </thead>
        <tbody>
          {items.map((f) => (
            <tr key={f.url}>
              <td data-label="Resource" class="url-cell">
                <code>{f.url}</code>
              </td>
              <td data-label="Kind">
                {f.category === 'active' ? (
                  <span class="error-text">
                    <span aria-hidden="true">✕ </span>Active: browsers block it
                  </span>
                ) : (
                  <span class="warn-text">
                    <span aria-hidden="true">! </span>Passive: the padlock breaks
                  </span>
                )}
              </td>
              <td data-label="Appears on">
                <PagesOf finding={f} site={site} />
              </td>
              <td data-label="First seen">{formatIn(f.firstSeenAt, zone)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The sitemaps' errors: which file, where in it, what is wrong. */
export function SitemapErrors({ monitorId, site, zone, version, pollMs }: Props) {
  const found = useFindings(monitorId, { type: 'sitemap', state: 'open' }, version, pollMs);
  const items = (found.data?.items ?? []) as Array<Of<'sitemap'>>;
  if (found.error) return <FormError message={found.error} />;
  if (found.data === undefined) return <p role="status">Loading the sitemap errors…</p>;
  if (items.length === 0) return <p>✓ No sitemap errors.</p>;
  return (
    <div class="table-scroll">
      <table class="stack findings">
        <caption>{caption(items.length, found.data.total, 'sitemap error')}</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Where</th>
            <th scope="col">Error</th>
            <th scope="col">First seen</th>
          </tr>
        </thead>
        <tbody>
          {items.map((f) => (
            <tr key={`${f.url} ${f.code} ${f.line} ${f.column} ${f.entry}`}>
              <td data-label="File" class="url-cell">
                <code>{shortUrl(f.url, site)}</code>
              </td>
              <td data-label="Where">
                {[
                  f.line === null ? '' : `line ${f.line}${f.column === null ? '' : `:${f.column}`}`,
                  f.entry === null ? '' : `entry ${f.entry}`,
                ]
                  .filter(Boolean)
                  .join(', ') || '—'}
              </td>
              <td data-label="Error">
                {f.message} <code class="muted">{f.code}</code>
              </td>
              <td data-label="First seen">{formatIn(f.firstSeenAt, zone)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
