/** Where to go after signing in (`?next=`): the page asked for, never another site. */
export function nextPath(query: Record<string, string | undefined>): string {
  const next = query.next ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * A page the server draws, not the app (a client-only status page sends visitors to sign in
 * first): its path on this origin, or null. Read as the browser would resolve it, so `/\host`
 * (another site to a browser) or `/status/../people` is not taken for one.
 */
export function serverPagePath(next: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !url.pathname.startsWith('/status/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
