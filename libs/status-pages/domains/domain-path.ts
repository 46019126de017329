/**
 * The path a request to a page's own domain is served as: `/` is the page, `/index.json` its data,
 * a path already under the page's `/status/<slug>` is kept (its links are absolute), and any other
 * path is taken as one under the page (its feeds, forms, history), so nothing else of the service
 * (the API, the app, other pages) is reachable by a page's domain.
 */
export function rewriteDomainPath(path: string, slug: string): string {
  const base = `/status/${slug}`;
  if (path === '/' || path === '') return base;
  if (path === '/index.json') return `${base}.json`;
  if (path === base || path === `${base}.json` || path.startsWith(`${base}/`)) return path;
  return `${base}${path.startsWith('/') ? path : `/${path}`}`;
}
