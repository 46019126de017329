import { useStatusPages } from '../api/status-pages.js';

/**
 * "Publish as a post": the status pages showing the incident's website, each a link to its posts'
 * screen with the post prefilled from the incident (edited there before it is posted).
 */
export function PublishAsPost({ incidentId, websiteId }: { incidentId: string; websiteId: number }) {
  const pages = useStatusPages();
  const showing = (pages.data ?? []).filter((p) => p.websiteIds === null || p.websiteIds.includes(websiteId));
  if (showing.length === 0) return null;
  return (
    <section aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish as a post</h2>
      <p class="muted">
        Tell the visitors of a status page: the post is prefilled from this incident, and you edit it first.
      </p>
      <ul>
        {showing.map((page) => (
          <li key={page.id}>
            <a class="button" href={`/status-pages/${page.id}/incidents?incidentId=${incidentId}`}>
              Publish on {page.title}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
