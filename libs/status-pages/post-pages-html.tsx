/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { type PageLanguage, type Translator, translator } from './i18n/index.js';
import { cssColor, Page, renderHtmlDocument, Style } from './page-html.js';
import { IncidentPost } from './post-html.js';
import type { PublicPost } from './post-view.js';

interface PageLook {
  slug: string;
  title: string;
  branding: { logoUrl: string | null; accentColor: string | null; footerText: string | null };
  /** Absent on pages stored before: English, UTC. */
  language?: PageLanguage;
  timezone?: string;
}

const translatorOf = (look: PageLook) => translator({ language: look.language, timezone: look.timezone });

/** A page under a status page (its history, a post): its header links back to the page. */
function Frame({
  look,
  title,
  children,
  t,
}: {
  look: PageLook;
  title: string;
  children: ComponentChildren;
  t: Translator;
}) {
  const { branding } = look;
  return (
    <Page t={t} title={`${title} · ${look.title}`} head={<Style accent={cssColor(branding.accentColor)} />}>
      <header>
        {branding.logoUrl && <img src={branding.logoUrl} alt="" />}
        <p>
          <a href={`/status/${look.slug}`}>{look.title}</a>
        </p>
      </header>
      {children}
      <footer>{branding.footerText && <p>{branding.footerText}</p>}</footer>
    </Page>
  );
}

/** The posts begun in one month (UTC), with links to the months before and after. */
export function renderHistoryPage(input: {
  look: PageLook;
  month: string;
  previous: string | null;
  next: string | null;
  posts: readonly PublicPost[];
}): string {
  const base = `/status/${input.look.slug}/history`;
  const t = translatorOf(input.look);
  const title = t.text('history.title', { month: t.month(input.month) });
  return renderHtmlDocument(
    <Frame look={input.look} title={title} t={t}>
      <h1>{title}</h1>
      <section>
        {input.posts.length === 0 ? (
          <p>{t.text('history.none', { month: t.month(input.month) })}</p>
        ) : (
          input.posts.map((post) => <IncidentPost post={post} level="h2" />)
        )}
      </section>
      <nav class="months" aria-label={t.text('history.months')}>
        {input.previous ? (
          <a href={`${base}?month=${input.previous}`} rel="prev">
            {`← ${t.month(input.previous)}`}
          </a>
        ) : (
          <span />
        )}
        {input.next && (
          <a href={`${base}?month=${input.next}`} rel="next">
            {`${t.month(input.next)} →`}
          </a>
        )}
      </nav>
    </Frame>,
  );
}

/** One post's own page (its permalink). */
export function renderPostPage(input: { look: PageLook; post: PublicPost }): string {
  const month = input.post.startedAt.slice(0, 7);
  const t = translatorOf(input.look);
  return renderHtmlDocument(
    <Frame look={input.look} title={input.post.title} t={t}>
      <IncidentPost post={input.post} level="h1" />
      <p>
        <a href={`/status/${input.look.slug}/history?month=${month}`}>
          {t.text('history.moreOf', { month: t.month(month) })}
        </a>
      </p>
    </Frame>,
  );
}
