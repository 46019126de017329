/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { cssColor, Page, renderHtmlDocument, Style } from './page-html.js';
import { IncidentPost } from './post-html.js';
import type { PublicPost } from './post-view.js';

interface PageLook {
  slug: string;
  title: string;
  branding: { logoUrl: string | null; accentColor: string | null; footerText: string | null };
}

/** A page under a status page (its history, a post): its header links back to the page. */
function Frame({ look, title, children }: { look: PageLook; title: string; children: ComponentChildren }) {
  const { branding } = look;
  return (
    <Page title={`${title} · ${look.title}`} head={<Style accent={cssColor(branding.accentColor)} />}>
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

const MONTH_NAMES = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const monthName = (month: string) => MONTH_NAMES.format(new Date(`${month}-01T00:00:00Z`));

/** The posts begun in one month (UTC), with links to the months before and after. */
export function renderHistoryPage(input: {
  look: PageLook;
  month: string;
  previous: string | null;
  next: string | null;
  posts: readonly PublicPost[];
}): string {
  const base = `/status/${input.look.slug}/history`;
  const title = `Incident history: ${monthName(input.month)}`;
  return renderHtmlDocument(
    <Frame look={input.look} title={title}>
      <h1>{title}</h1>
      <section>
        {input.posts.length === 0 ? (
          <p>No incidents posted in {monthName(input.month)}.</p>
        ) : (
          input.posts.map((post) => <IncidentPost post={post} level="h2" />)
        )}
      </section>
      <nav class="months" aria-label="Months">
        {input.previous ? (
          <a href={`${base}?month=${input.previous}`} rel="prev">
            {`← ${monthName(input.previous)}`}
          </a>
        ) : (
          <span />
        )}
        {input.next && (
          <a href={`${base}?month=${input.next}`} rel="next">
            {`${monthName(input.next)} →`}
          </a>
        )}
      </nav>
    </Frame>,
  );
}

/** One post's own page (its permalink). */
export function renderPostPage(input: { look: PageLook; post: PublicPost }): string {
  const month = input.post.startedAt.slice(0, 7);
  return renderHtmlDocument(
    <Frame look={input.look} title={input.post.title}>
      <IncidentPost post={input.post} level="h1" />
      <p>
        <a href={`/status/${input.look.slug}/history?month=${month}`}>{`More of ${monthName(month)}`}</a>
      </p>
    </Frame>,
  );
}
