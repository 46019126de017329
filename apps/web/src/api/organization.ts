import { api, must, type Schemas } from './client.js';

/** Websites per request while reading them all (the summaries' pages are by id, at most 1,000). */
const PAGE = 1000;
/** The first request asks for fewer: its rows draw sooner while the rest is read. */
const FIRST_PAGE = 100;

/** The API's search takes this many characters or more. */
export const SEARCH_MIN_CHARS = 3;

/**
 * The first 1,000 websites whose name or URL holds `text` (the API's search index): what a search
 * typed while the list still loads shows instead of waiting for every page.
 */
export async function searchWebsites(text: string, customerId?: number): Promise<WebsiteSummary[]> {
  return must(
    await api.GET('/api/websites/summaries', {
      params: { query: { q: text, limit: PAGE, ...(customerId ? { customerId } : {}) } },
    }),
  );
}

type WebsitePage = ReturnType<typeof requestPage>;

/** Websites in a few fields each (the summaries): what every list of the app shows of them. */
export type WebsiteSummary = Schemas['WebsiteSummary'];

function requestPage(query: { limit: number; afterId?: number; customerId?: number }) {
  return api.GET('/api/websites/summaries', { params: { query } });
}

/** The overview's first page, asked for before the app draws (see readFirstPageEarly). */
let earlyFirstPage: WebsitePage | undefined;

/**
 * Asks for the first page of the caller's websites now, while the app's script still starts and
 * the session is looked up: the overview's rows then come one round trip sooner. Without
 * `customerId` the API narrows a client user's list to its customer, so the same request serves
 * every role. Asked only when someone signed in from this browser before (main.tsx); a session
 * expired since is answered 401, as `/api/me` is, and asked again after signing in.
 */
export function readFirstPageEarly(): void {
  earlyFirstPage ??= requestPage({ limit: FIRST_PAGE });
}

/** The early first page, once (a later read, polling, asks afresh); asked again if it failed (signed out then, or unanswered). */
function takeEarlyFirstPage(): WebsitePage {
  const early = earlyFirstPage;
  earlyFirstPage = undefined;
  if (!early) return requestPage({ limit: FIRST_PAGE });
  const again = () => requestPage({ limit: FIRST_PAGE });
  // Not answered (the network, a deploy) is asked again too, not shown as an error until the next poll.
  return early.then((answer) => (answer.response.ok ? answer : again()), again);
}

/** Every website the caller may see (a client user: its customer's), page by page. */
export async function allWebsites(
  customerId?: number,
  /** Told the websites read so far after each page but the last (to draw them meanwhile). */
  onPage?: (soFar: WebsiteSummary[]) => void,
): Promise<WebsiteSummary[]> {
  const websites: WebsiteSummary[] = [];
  const scope = customerId ? { customerId } : {};
  let limit = FIRST_PAGE;
  let request = customerId === undefined ? takeEarlyFirstPage() : requestPage({ limit, ...scope });
  // The first page names the organization: a lookup asked meanwhile waits for it instead of asking too.
  if (!organizationKnown) firstPage = request.then((answer) => answer.data);
  for (;;) {
    const page = must(await request);
    websites.push(...page);
    const last = page.at(-1);
    if (page.length < limit || !last) return websites;
    // The next page is asked for before this one is drawn (in a task of its own: a render queued
    // now would run before the request is sent), so the server reads while the browser draws.
    limit = PAGE;
    request = requestPage({ limit, afterId: last.id, ...scope });
    const soFar = [...websites];
    if (onPage) setTimeout(() => onPage(soFar), 0);
  }
}

let organization: Promise<number | null> | undefined;
let organizationKnown = false;
/** The first page of websites being read now, if any (see allWebsites). */
let firstPage: Promise<WebsiteSummary[] | undefined> | undefined;

/**
 * The caller's organization id, which `GET /api/customers` asks for. The API does not say it in
 * `/api/me`; every website and package carries it, so the first one found tells.
 */
export function organizationId(): Promise<number | null> {
  organization ??= (async () => {
    const reading = (await firstPage?.catch(() => undefined))?.[0];
    if (reading) return reading.organizationId;
    const { data: websites } = await api.GET('/api/websites/summaries', { params: { query: { limit: 1 } } });
    if (websites?.[0]) return websites[0].organizationId;
    const { data: packages } = await api.GET('/api/packages');
    return packages?.[0]?.organizationId ?? null;
  })();
  return organization.then((id) => {
    organizationKnown = id !== null;
    if (id === null) organization = undefined;
    return id;
  });
}

/** The customers the caller may see: the organization's, or a client user's own. */
export async function visibleCustomers(clientCustomerId: number | null): Promise<Schemas['Customer'][]> {
  if (clientCustomerId !== null)
    return [must(await api.GET('/api/customers/{id}', { params: { path: { id: clientCustomerId } } }))];
  const id = await organizationId();
  if (id === null) return [];
  return must(await api.GET('/api/customers', { params: { query: { organizationId: id } } }));
}
