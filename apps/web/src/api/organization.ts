import { browserZone } from '../maintenance/zoned-time.js';
import { type Caller, clientCustomerId, useSession } from '../session.js';
import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

/** Websites per request while reading them all (the summaries' pages are by id, at most 1,000). */
const PAGE = 1000;
/** The first request asks for fewer: its rows draw sooner while the rest is read. */
const FIRST_PAGE = 100;

/** The API's search takes this many characters or more. */
export { SEARCH_MIN_CHARS } from '../../../../libs/websites/website-search-limits.js';

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

/** The customers the caller may see (read again when the caller changes). */
export function useVisibleCustomers(): Loaded<Schemas['Customer'][]> {
  const { caller } = useSession();
  const scope = caller ? [caller.organization.id, clientCustomerId(caller)] : [];
  return useApiQuery(['customers', 'visible', ...scope], () => visibleCustomers(caller));
}

/** Its organization's customers, or the one customer the caller is bound to; none signed out. */
async function visibleCustomers(caller: Caller | null | undefined): Promise<Schemas['Customer'][]> {
  if (!caller) return [];
  const own = clientCustomerId(caller);
  if (own !== null) return [must(await api.GET('/api/customers/{id}', { params: { path: { id: own } } }))];
  const query = { organizationId: caller.organization.id };
  return must(await api.GET('/api/customers', { params: { query } }));
}

export const organizationKeys = { settings: ['organization'] as const };

/** The caller's organization: its name, time zone and report branding. */
export function useOrganization(): Loaded<Schemas['Organization']> {
  return useApiQuery(organizationKeys.settings, async () => must(await api.GET('/api/organization')));
}

/**
 * The zone a website's times are shown in: the organization's for its staff, the browser's for a
 * client user (the organization's settings are not theirs to read: they are not asked for).
 */
export function useDisplayZone(): string {
  const { caller } = useSession();
  const staff = caller !== undefined && caller !== null && clientCustomerId(caller) === null;
  const organization = useApiQuery(
    organizationKeys.settings,
    async () => must(await api.GET('/api/organization')),
    { enabled: staff },
  );
  return (staff ? organization.data?.timezone : undefined) ?? browserZone();
}

/** The organization's logo as data (null: none), read again when its hash changes. */
export function useOrganizationLogo(sha256: string | null) {
  return useApiQuery([...organizationKeys.settings, 'logo', sha256], async () => {
    const answer = await api.GET('/api/organization/logo');
    return answer.data ?? null;
  });
}
