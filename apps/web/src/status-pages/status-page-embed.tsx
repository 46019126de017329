import type { StatusPage } from '../api/status-pages.js';
import { useCopy } from '../ui/copy.js';
import { Field } from '../ui/form.js';
import { publicLink } from './status-page-form.js';

/** A snippet to paste into a website or README, with a button that copies it. */
function Snippet({ label, text }: { label: string; text: string }) {
  const { copy, said } = useCopy(text);
  return (
    <>
      <Field label={label}>{(props) => <textarea {...props} readOnly rows={2} value={text} />}</Field>
      <p>
        <button type="button" class="small" onClick={copy} aria-label={`Copy the ${label.toLowerCase()}`}>
          Copy
        </button>{' '}
        <span role="status">{said}</span>
      </p>
    </>
  );
}

/**
 * The page's badge and widget to copy (a public page's only: a private page has neither), with
 * the badge as it looks now.
 */
export function StatusPageEmbed({ page }: { page: StatusPage }) {
  const link = publicLink(page.slug);
  const open = page.public && page.access.mode === 'public';
  return (
    <section aria-labelledby="embed-heading" class="card">
      <h2 id="embed-heading">Badge and widget</h2>
      {!open ? (
        <p class="muted">
          {page.public
            ? 'A private page has no badge or widget: they would show its state to anyone.'
            : 'Publish the page to get its badge and widget.'}
        </p>
      ) : (
        <>
          <p>
            <img src={`/status/${page.slug}/badge.svg`} alt={`${page.title}: status badge`} height={20} />
          </p>
          <Snippet label="Badge (Markdown)" text={`[![Status](${link}/badge.svg)](${link})`} />
          <Snippet
            label="Badge (HTML)"
            text={`<a href="${link}"><img src="${link}/badge.svg" alt="${page.title.replaceAll('"', '&quot;')}: status"></a>`}
          />
          <Snippet
            label="Widget (iframe)"
            text={`<iframe src="${link}/widget" title="${page.title.replaceAll('"', '&quot;')}: status" width="320" height="48" style="border:0"></iframe>`}
          />
          <p class="muted">
            The widget may be framed by any site; it shows what the badge shows and links to the page.
          </p>
        </>
      )}
    </section>
  );
}
