import type { CustomerGate } from '../http/index.js';
import { SELF_ROUTE_PATHS } from './session.routes.js';

const always: CustomerGate = async () => true;

/**
 * The routes a client user (bound to one customer) may call, each with the check that the request
 * concerns that customer; every other route answers it 404 (the access guard). Listed here, in one
 * place, so a route is closed to clients until it is known to be safe for them.
 */
export function customerCallerRoutes(deps: {
  /** The customer of the organization's website `ref` (id or publicId), or null when there is none. */
  websiteCustomerId(organizationId: number, ref: string): Promise<number | null>;
}): Map<string, CustomerGate> {
  const ownWebsite: CustomerGate = async (ctx, caller) =>
    (await deps.websiteCustomerId(caller.organizationId, String(ctx.params.websiteRef))) ===
    caller.customerId;
  const routes = new Map<string, CustomerGate>(SELF_ROUTE_PATHS.map((path) => [path, always]));
  // The website list, narrowed to the caller's customer (another customer's: as if unknown).
  routes.set('/api/websites', async (ctx, caller) => {
    const asked = ctx.query.customerId;
    if (asked === undefined) ctx.query = { ...ctx.query, customerId: String(caller.customerId) };
    return asked === undefined || asked === String(caller.customerId);
  });
  for (const path of ['', '/check-config', '/status', '/results', '/uptime', '/incidents'])
    routes.set(`/api/websites/:websiteRef${path}`, ownWebsite);
  routes.set('/api/customers/:id', async (ctx, caller) => ctx.params.id === String(caller.customerId));
  return routes;
}
