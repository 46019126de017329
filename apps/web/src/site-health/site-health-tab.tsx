import './site-health.css';
import { useState } from 'preact/hooks';
import type { Schemas } from '../api/client.js';
import { monitorKeys, useMonitors } from '../api/monitors.js';
import { useDisplayZone } from '../api/organization.js';
import { invalidate } from '../api/query.js';
import { canEdit, useSession } from '../session.js';
import { FormError, Notice } from '../ui/form.js';
import { CrawlForm } from './crawl-form.js';
import { CrawlSection } from './crawl-section.js';
import { LighthouseForm } from './lighthouse-form.js';
import { LighthouseSection } from './lighthouse-section.js';

type Monitor = Schemas['Monitor'];
type CrawlCheck = Schemas['CrawlCheck'];
type LighthouseCheck = Schemas['LighthouseCheck'];
/** The monitors' statuses are read this often; a run's progress polls on its own. */
const POLL_MS = 10_000;

const isCrawl = (m: Monitor): m is CrawlCheck => m.kind === 'crawl';
const isLighthouse = (m: Monitor): m is LighthouseCheck => m.kind === 'lighthouse';

/** Whether a website's monitors hold a crawl or a Lighthouse check (its Site health tab is shown then). */
export const hasSiteHealth = (monitors: readonly Monitor[]) =>
  monitors.some((m) => isCrawl(m) || isLighthouse(m));

/**
 * A website's Site health tab: each crawl's broken links, mixed content and sitemaps, each
 * Lighthouse check's scores over time and its reports, a run now with its progress, and (editors)
 * adding a crawl or a Lighthouse check.
 */
export function SiteHealthTab({ website }: { website: Schemas['Website'] }) {
  const { caller } = useSession();
  const editor = canEdit(caller);
  const monitors = useMonitors(website.publicId, POLL_MS);
  const zone = useDisplayZone();
  const [adding, setAdding] = useState<'crawl' | 'lighthouse' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const items = monitors.data?.items;
  const crawls = (items ?? []).filter(isCrawl);
  const lighthouses = (items ?? []).filter(isLighthouse);
  const host = URL.canParse(website.url) ? new URL(website.url).hostname : '';

  const done = (saved: Monitor | null) => {
    setAdding(null);
    if (!saved) return;
    setNotice(
      saved.kind === 'crawl'
        ? `Added “${saved.name}”: its first crawl is on its way.`
        : `Added “${saved.name}”: its first run is on its way.`,
    );
    void invalidate(monitorKeys.ofWebsite(website.publicId));
  };
  const form = { websiteRef: website.publicId, host, onDone: done };

  return (
    <div id="site-health" class="site-health">
      <p class="muted">
        A site crawl finds broken links, http: resources on https: pages and sitemap errors; a Lighthouse
        check scores pages for performance, accessibility, best practices and SEO. Times in {zone}.
      </p>
      <FormError message={monitors.error} />
      {notice && <Notice>{notice}</Notice>}
      {items === undefined && !monitors.error && <p role="status">Loading…</p>}
      {items && crawls.length === 0 && lighthouses.length === 0 && (
        <p>
          No site crawl or Lighthouse check yet.{' '}
          {editor ? 'Add one below.' : 'Staff of the agency can add them.'}
        </p>
      )}
      {crawls.map((check) => (
        <CrawlSection
          key={check.id}
          check={check}
          site={website.url}
          zone={zone}
          editor={editor}
          pollMs={POLL_MS}
        />
      ))}
      {lighthouses.map((check) => (
        <LighthouseSection
          key={check.id}
          check={check}
          site={website.url}
          zone={zone}
          editor={editor}
          pollMs={POLL_MS}
        />
      ))}
      {editor && items && !adding && (
        <div class="actions">
          <button type="button" onClick={() => setAdding('crawl')}>
            Add a site crawl
          </button>
          <button type="button" onClick={() => setAdding('lighthouse')}>
            Add a Lighthouse check
          </button>
        </div>
      )}
      {editor && adding === 'crawl' && <CrawlForm {...form} check={null} />}
      {editor && adding === 'lighthouse' && <LighthouseForm {...form} check={null} />}
    </div>
  );
}
