/** @jsxRuntime automatic @jsxImportSource preact */
import { useTranslator, When, Words } from './i18n/index.js';
import { impactInlineText, type PublicPost } from './post-view.js';

export { When };

export const POST_STYLE = `
.post{border-left:.35rem solid #d0d5dd;padding:.25rem 0 .25rem .75rem;margin:.75rem 0}
.post.degraded{border-color:#f79009}.post.partial_outage{border-color:#f97066}.post.major_outage{border-color:#b42318}
.post h2,.post h3{margin:.25rem 0;font-size:1.125rem}
.impacts{list-style:none;padding:0;margin:.25rem 0;font-size:.875rem;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.updates{list-style:none;padding:0;margin:.5rem 0}.updates>li{padding:.25rem 0;border-top:1px solid #eaecf0}
.updates>li:first-child{border-top:0}
.message{overflow-wrap:anywhere}.message p{margin:.25rem 0}.message pre{white-space:pre-wrap}
.notice{background:#fff;border-left:.5rem solid #f79009;padding:.5rem 1rem;border-radius:.5rem}
nav.months{display:flex;justify-content:space-between;gap:1rem}
`;

/**
 * One incident post: its title (a link to its permalink), each component's impact, and its updates
 * newest first. An update's `html` is its Markdown rendered and sanitized by libs/status-posts
 * (an allow-list: no script, no event attribute, links http(s) and mailto only): put in as it is.
 */
export function IncidentPost({ post, level }: { post: PublicPost; level: 'h1' | 'h2' | 'h3' }) {
  const t = useTranslator();
  const Heading = level;
  const headingId = `post-${post.id}`;
  return (
    <article class={`post ${post.impact ?? 'resolved'}`} aria-labelledby={headingId}>
      <Heading id={headingId}>
        <a href={post.url}>{post.title}</a>
      </Heading>
      <p class="muted">
        {post.resolvedAt ? (
          <Words
            text={t.raw('post.resolvedBegan')}
            values={{ resolved: <When iso={post.resolvedAt} />, start: <When iso={post.startedAt} /> }}
          />
        ) : (
          <Words
            text={t.raw('post.statusSince')}
            values={{ status: post.statusText, start: <When iso={post.startedAt} /> }}
          />
        )}
      </p>
      {post.components.length > 0 && (
        <ul class="impacts" aria-label={t.text('post.affected')}>
          {post.components.map((component) => (
            <li>
              <strong>{component.name}</strong>
              {`: ${t.text(post.resolvedAt ? 'post.impactWas' : 'post.impactNow', {
                impact: impactInlineText(component.impact, t),
              })}`}
            </li>
          ))}
        </ul>
      )}
      <ol class="updates" aria-label={t.text('post.updatesLabel')}>
        {post.updates.map((update) => (
          <li>
            <strong>{update.statusText}</strong> · <When iso={update.at} />
            {update.editedAt && <span class="muted"> {t.text('post.edited')}</span>}
            <div class="message" dangerouslySetInnerHTML={{ __html: update.html }} />
          </li>
        ))}
      </ol>
    </article>
  );
}
