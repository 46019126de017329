import { api, must, type Schemas } from './client.js';

/** Websites per request while reading them all (the API's pages are by id, at most 500). */
const PAGE = 500;
/** The first request asks for fewer: its rows draw sooner while the rest is read. */
const FIRST_PAGE = 100;

/** The API's search takes this many characters or more. */
export const SEARCH_MIN_CHARS = 3;

/**
 * The first 500 websites whose name or URL holds `text` (the API's search index): what a search
 * typed while the list still loads shows instead of waiting for every page.
 */
export async function searchWebsites(text: string, customerId?: number): Promise<Schemas['ListedWebsite'][]> {
  return must(
    await api.GET('/api/websites', {
      params: { query: { q: text, limit: PAGE, ...(customerId ? { customerId } : {}) } },
    }),
  );
}

/** Every website the caller may see (a client user: its customer's), page by page. */
export async function allWebsites(
  customerId?: number,
  /** Told the websites read so far after each page but the last (to draw them meanwhile). */
  onPage?: (soFar: Schemas['ListedWebsite'][]) => void,
): Promise<Schemas['ListedWebsite'][]> {
  const websites: Schemas['ListedWebsite'][] = [];
  let afterId: number | undefined;
  for (;;) {
    const limit = afterId ? PAGE : FIRST_PAGE;
    const request = api.GET('/api/websites', {
      params: {
        query: { limit, ...(afterId ? { afterId } : {}), ...(customerId ? { customerId } : {}) },
      },
    });
    // The first page names the organization: a lookup asked meanwhile waits for it instead of asking too.
    if (!afterId && !organizationKnown) firstPage = request.then((answer) => answer.data);
    const page = must(await request);
    websites.push(...page);
    const last = page.at(-1);
    if (page.length < limit || !last) return websites;
    onPage?.([...websites]);
    afterId = last.id;
  }
}

let organization: Promise<number | null> | undefined;
let organizationKnown = false;
/** The first page of websites being read now, if any (see allWebsites). */
let firstPage: Promise<Schemas['ListedWebsite'][] | undefined> | undefined;

/**
 * The caller's organization id, which `GET /api/customers` asks for. The API does not say it in
 * `/api/me`; every website and package carries it, so the first one found tells.
 */
export function organizationId(): Promise<number | null> {
  organization ??= (async () => {
    const reading = (await firstPage?.catch(() => undefined))?.[0];
    if (reading) return reading.organizationId;
    const { data: websites } = await api.GET('/api/websites', { params: { query: { limit: 1 } } });
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
