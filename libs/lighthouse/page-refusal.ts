import type { GuardRefusal } from '../journeys/index.js';

/**
 * The guard's refusal of the page itself among a run's refusals, if any: then the run failed
 * because the page's address may not be reached, not because the site answered badly (Lighthouse
 * only sees the proxy's 403). Refusals name `http://host[:port]/path` for plain requests and
 * `host:port` for tunnels (https).
 */
export function pageRefusal(pageUrl: string, refusals: readonly GuardRefusal[]): GuardRefusal | null {
  if (!URL.canParse(pageUrl)) return null;
  const url = new URL(pageUrl);
  const tunnel = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  const plain = `http://${url.host}/`;
  return (
    refusals.find((refusal) =>
      url.protocol === 'https:' ? refusal.target === tunnel : refusal.target.startsWith(plain),
    ) ?? null
  );
}
