/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { LocaleContext, type Translator, translator, useTranslator, When, Words } from './i18n/index.js';
import type { StatusPageData } from './page-model.js';
import { WebsiteSections } from './page-websites.js';
import { IncidentPost, POST_STYLE } from './post-html.js';
import type { PublicPost } from './post-view.js';

/** A span of seconds in words (English; a page's own translator says it in its language). */
export const duration = (seconds: number): string => translator().duration(seconds);

/** An accent colour as CSS only when it is one (the schema allows hex colours; a stored value is checked again). */
export const cssColor = (value: string | null): string | null =>
  value !== null && /^#[0-9a-fA-F]{3,8}$/.test(value) ? value : null;

const STYLE = `
:root{--accent:#1570ef;color-scheme:light;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
body{margin:0;background:#f7f8fa;color:#1d2939}
main{max-width:52rem;margin:0 auto;padding:1rem}
header{display:flex;gap:1rem;align-items:center;border-bottom:4px solid var(--accent);padding:1rem 0}
header img{max-height:3rem;max-width:10rem}
h1{font-size:1.5rem;margin:0}
.overall{font-size:1.25rem;padding:1rem;border-radius:.5rem;background:#fff;border-left:.5rem solid var(--accent);margin:1rem 0}
section{background:#fff;border-radius:.5rem;padding:1rem;margin:1rem 0}
.website{border-top:1px solid #eaecf0;padding:.75rem 0}
.website:first-of-type{border-top:0}
.line{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
.state{font-weight:600}
.state.up{color:#067647}.state.degraded{color:#b54708}.state.down{color:#b42318}
.bars{display:flex;gap:1px;list-style:none;padding:0;margin:.5rem 0;height:2rem}
.bar{flex:1;border-radius:1px;background:#d0d5dd}
.bar.up{background:#17b26a}.bar.degraded{background:#f79009}.bar.down{background:#f04438}
.chart{width:100%;height:5rem;color:var(--accent)}
.muted{color:#667085;font-size:.875rem}
.monitors{list-style:none;padding:0;margin:.5rem 0 0;font-size:.875rem}.monitors li{display:flex;justify-content:space-between;gap:0 1rem;flex-wrap:wrap;padding:.25rem 0}.monitors .bars{flex-basis:100%;height:1rem;margin:.25rem 0 0}
.note{color:#344054;font-size:.875rem}
.follow{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;margin:1rem 0}
.follow a.subscribe{display:inline-block;padding:.5rem 1rem;border-radius:.375rem;border:2px solid var(--accent);background:#fff;color:#1d2939;font-weight:600;text-decoration:none}
a{color:#1553b6}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{color:#667085;font-size:.875rem;padding:1rem 0}
@media (max-width:30rem){.bars{gap:0}}
${POST_STYLE}`;

/**
 * A page of ours: the document around `children`, styled, its text escaped by the renderer, in the
 * page's language (`t`: its words and moments for everything inside; default English, UTC).
 */
export function Page({
  title,
  head,
  children,
  t = translator(),
}: {
  title: string;
  head?: ComponentChildren;
  children: ComponentChildren;
  t?: Translator;
}) {
  return (
    <LocaleContext.Provider value={t}>
      <PageDocument title={title} head={head} language={t.language}>
        {children}
      </PageDocument>
    </LocaleContext.Provider>
  );
}

function PageDocument({
  title,
  head,
  children,
  language,
}: {
  title: string;
  head?: ComponentChildren;
  children: ComponentChildren;
  language: string;
}) {
  return (
    <html lang={language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {head}
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** The stylesheet, raw (the renderer would escape CSS): ours, constant, and a checked colour, never text a tenant wrote. */
export const Style = ({ accent }: { accent?: string | null }) => (
  <style dangerouslySetInnerHTML={{ __html: `${STYLE}${accent ? `:root{--accent:${accent}}` : ''}` }} />
);

function Incidents({ incidents }: { incidents: StatusPageData['incidents'] }) {
  const t = useTranslator();
  if (incidents.length === 0) return <p>{t.text('page.noIncidents')}</p>;
  return (
    <ul>
      {incidents.map((i) => (
        <li>
          <Words
            text={t.raw(i.open ? 'page.isDownSince' : 'page.wasDownSince')}
            values={{ website: <strong>{i.website}</strong>, start: <When iso={i.startedAt} /> }}
          />
          {i.resolvedAt && <Words text={t.raw('page.until')} values={{ end: <When iso={i.resolvedAt} /> }} />}
          {t.text(i.open ? 'page.ongoingFor' : 'page.lastedFor', { duration: t.duration(i.durationSeconds) })}
          {i.note && (
            <>
              <br />
              <span class="note">{i.note}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function Maintenance({ maintenance }: { maintenance: StatusPageData['maintenance'] }) {
  const t = useTranslator();
  if (maintenance.length === 0) return <p>{t.text('page.noMaintenance')}</p>;
  return (
    <ul>
      {maintenance.map((m) => (
        <li>
          <strong>{m.website}</strong>
          {`: ${m.title}, `}
          <When iso={m.startsAt} /> – <When iso={m.endsAt} />
        </li>
      ))}
    </ul>
  );
}

/** A whole HTML document from its `<html>` element. */
export const renderHtmlDocument = (page: VNode) => `<!doctype html>\n${renderToString(page)}\n`;

function Posts({ posts, level }: { posts: readonly PublicPost[]; level: 'h3' | 'h2' }) {
  return (
    <>
      {posts.map((post) => (
        <IncidentPost post={post} level={level} />
      ))}
    </>
  );
}

/**
 * The public page: server-rendered, works without JavaScript, in the page's language and time zone.
 * Its links are paths under `/status/<slug>/` (its subscribe form, feeds, history and posts).
 */
export function renderStatusPage(data: StatusPageData, options: { slug: string }): string {
  const { branding } = data;
  const t = translator({ language: data.language, timezone: data.timezone });
  const base = `/status/${options.slug}`;
  const active = data.posts.filter((post) => post.resolvedAt === null);
  const resolved = data.posts.filter((post) => post.resolvedAt !== null);
  const feedTitle = t.text('page.feedTitle', { title: data.title });
  return renderHtmlDocument(
    <Page
      t={t}
      title={t.text('page.title', { title: data.title })}
      head={
        <>
          <link rel="alternate" type="application/json" href={`${base}.json`} />
          <link rel="alternate" type="application/rss+xml" title={feedTitle} href={`${base}/feed.rss`} />
          <link rel="alternate" type="application/atom+xml" title={feedTitle} href={`${base}/feed.atom`} />
          <Style accent={cssColor(branding.accentColor)} />
        </>
      }
    >
      <header>
        {branding.logoUrl && <img src={branding.logoUrl} alt="" />}
        <h1>{data.title}</h1>
      </header>
      <p class={`overall ${data.overall.state}`} role="status">
        {data.overall.text}
      </p>
      <p class="follow">
        <a class="subscribe" href={`${base}/subscribe`}>
          {t.text('page.subscribe')}
        </a>
      </p>
      {active.length > 0 && (
        <section aria-labelledby="current-posts" class="posts">
          <h2 id="current-posts">{t.text('page.currentIncidents')}</h2>
          <Posts posts={active} level="h3" />
        </section>
      )}
      {data.maintenance.length > 0 && (
        <p class="notice">
          <Words
            text={t.raw('page.maintenancePlanned')}
            values={{ link: <a href="#maintenance">{t.text('page.seeWhen')}</a> }}
          />
        </p>
      )}
      <WebsiteSections data={data} />
      <section aria-labelledby="incidents">
        <h2 id="incidents">{t.text('page.incidents')}</h2>
        {resolved.length > 0 && (
          <div class="posts">
            <Posts posts={resolved} level="h3" />
          </div>
        )}
        <Incidents incidents={data.incidents} />
        <p>
          <a href={`${base}/history`}>{t.text('page.incidentHistory')}</a>
        </p>
      </section>
      <section aria-labelledby="maintenance">
        <h2 id="maintenance">{t.text('page.plannedMaintenance')}</h2>
        <Maintenance maintenance={data.maintenance} />
      </section>
      <footer>
        {branding.footerText && <p>{branding.footerText}</p>}
        <p>
          <Words text={t.raw('page.updated')} values={{ time: <When iso={data.generatedAt} /> }} />{' '}
          {t.text('page.timeZone', { zone: data.timezone })}
        </p>
        <p>
          {t.text('page.feeds')} <a href={`${base}/feed.rss`}>{t.text('page.rssFeed')}</a>
          {' · '}
          <a href={`${base}/feed.atom`}>{t.text('page.atomFeed')}</a>
          {' · '}
          <a href={`${base}/subscribe`}>{t.text('page.subscribe')}</a>
        </p>
      </footer>
    </Page>,
  );
}

/** A small page in the status pages' look (a form, what a link did): its title, then `children`. */
export function renderVisitorPage(input: {
  title: string;
  children: ComponentChildren;
  accent?: string | null;
  t?: Translator;
}): string {
  return renderHtmlDocument(
    <Page title={input.title} head={<Style accent={input.accent ?? null} />} t={input.t}>
      {input.children}
    </Page>,
  );
}

/** What an unknown or private page answers: the same look, no hint whether the slug exists. */
export function renderNotFoundPage(): string {
  return renderHtmlDocument(
    <Page title="Status page not found" head={<Style />}>
      <h1>Status page not found</h1>
      <p>There is no public status page at this address.</p>
    </Page>,
  );
}
