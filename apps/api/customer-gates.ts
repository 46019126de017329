import { DomainError } from '../../libs/errors/index.js';
import type { AppContext, CustomerGate } from '../../libs/http/index.js';
import { SELF_ROUTE_PATHS } from './routes/sessions.js';
import { PERSONAL_TOKEN_ROUTE_PATHS } from './routes/tokens.js';
import { TWO_FACTOR_ROUTE_PATHS } from './routes/two-factor.js';

/** Reads an organization's resource by the key in the path; throws a not-found `DomainError` when there is none. */
type Owned = (organizationId: number, key: string) => Promise<{ customerId: number }>;

const always: CustomerGate = async () => true;

/** A list narrowed to the caller's customer when `customerId` is not given; another customer's: as if unknown. */
const narrowedToCustomer: CustomerGate = async (ctx: AppContext, caller) => {
  const asked = ctx.query.customerId;
  if (asked === undefined) ctx.query = { ...ctx.query, customerId: String(caller.customerId) };
  return asked === undefined || asked === String(caller.customerId);
};

/** The resource named by the path parameter `param` belongs to the caller's customer. */
const ownedBy =
  (read: Owned, param: string): CustomerGate =>
  async (ctx, caller) => {
    try {
      return (
        (await read(caller.organizationId, String(ctx.params?.[param]))).customerId === caller.customerId
      );
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not-found') return false;
      throw error;
    }
  };

/**
 * The routes a client user (bound to one customer) may call, each with the check that the request
 * concerns that customer; every other route answers it 404 (the access guard). Listed here, in one
 * place, so a route is closed to clients until it is known to be safe for them.
 */
export function customerCallerRoutes(deps: {
  website: Owned;
  /** An incident's customer is its website's. */
  incident: Owned;
  statusPage: Owned;
  /** A monitor's customer is its website's. */
  monitor: Owned;
  /** The package the customer is on (null: no such customer). */
  packageOfCustomer(organizationId: number, customerId: number): Promise<number | null>;
}): Map<string, CustomerGate> {
  const routes = new Map<string, CustomerGate>(
    [...SELF_ROUTE_PATHS, ...TWO_FACTOR_ROUTE_PATHS, ...PERSONAL_TOKEN_ROUTE_PATHS].map((path) => [
      path,
      always,
    ]),
  );
  routes.set('/api/websites', narrowedToCustomer);
  routes.set('/api/websites/summaries', narrowedToCustomer);
  routes.set('/api/site-health', narrowedToCustomer);
  // The overview and its live stream answer a client user its customer's websites only (by its auth).
  routes.set('/api/dashboard/websites', always);
  routes.set('/api/dashboard/websites/stream', always);
  const ownWebsite = ownedBy(deps.website, 'websiteRef');
  for (const path of [
    '',
    '/check-config',
    '/status',
    '/results',
    '/results/:resultRef/evidence',
    '/results/:resultRef/screenshot',
    '/results/:resultRef/trace',
    '/uptime',
    '/incidents',
    '/monitors',
  ])
    routes.set(`/api/websites/:websiteRef${path}`, ownWebsite);
  // Site health's findings, scores, reports and runs: their monitor's website's customer's.
  const ownMonitor = ownedBy(deps.monitor, 'id');
  for (const path of [
    '/results',
    '/findings',
    '/lighthouse',
    '/lighthouse/:runRef/report.html',
    '/runs/:runRef',
  ])
    routes.set(`/api/monitors/:id${path}`, ownMonitor);
  const ownIncident = ownedBy(deps.incident, 'incidentRef');
  routes.set('/api/incidents/:incidentRef', ownIncident);
  routes.set('/api/incidents/:incidentRef/timeline', ownIncident);
  routes.set('/api/status-pages', narrowedToCustomer);
  routes.set('/api/status-pages/:id', ownedBy(deps.statusPage, 'id'));
  // Their page's incident posts, as its visitors read them (and the staff's drafts are writes).
  routes.set('/api/status-pages/:id/incidents', ownedBy(deps.statusPage, 'id'));
  routes.set('/api/status-pages/:id/incidents/:postId', ownedBy(deps.statusPage, 'id'));
  // Their page's subscribers are the client's own visitors: listed and exported (reads only).
  routes.set('/api/status-pages/:id/subscribers', ownedBy(deps.statusPage, 'id'));
  const ownCustomer: CustomerGate = async (ctx, caller) => ctx.params?.id === String(caller.customerId);
  routes.set('/api/customers/:id', ownCustomer);
  routes.set('/api/customers/:id/reports', ownCustomer);
  // The list handler narrows itself to the customer's package; one package only if it is theirs.
  routes.set('/api/packages', always);
  routes.set('/api/packages/:id', async (ctx, caller) => {
    const own = await deps.packageOfCustomer(caller.organizationId, caller.customerId);
    return own !== null && ctx.params?.id === String(own);
  });
  return routes;
}
