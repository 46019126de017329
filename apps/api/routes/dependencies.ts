import {
  type DependencyService,
  dependenciesView,
  putDependenciesBody,
} from '../../../libs/dependencies/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import { type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';

const TAGS = ['Websites'];

/**
 * `/api/websites/{ref}/dependencies`: what a website depends on (another website, a server's
 * heartbeat, a DNS check); while one is down its alerts are held (reading needs read, changing write).
 */
export function dependencyRoutes(deps: {
  service: DependencyService;
  website(organizationId: number, ref: string): Promise<WebsiteDocument>;
}): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/dependencies',
      operationId: 'getWebsiteDependencies',
      summary: 'What the website depends on (with their health now), and what depends on it',
      tags: TAGS,
      access: 'read',
      params: websiteRefParams,
      success: { status: 200, description: 'Its parents and children', schema: dependenciesView },
      handle: async ({ auth, params }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        return deps.service.view(auth.organizationId, website.id);
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/websites/:websiteRef/dependencies',
      operationId: 'putWebsiteDependencies',
      summary: 'Set what the website depends on',
      description:
        'While a parent is down, the website’s alerts are held and its incidents say why; the parent’s own alert names the websites that depend on it; when the parent recovers first, each child still down is alerted then. Parents are other websites (`{websiteId}`) or monitors (`{monitorId}`, its own too: its HTTP check may wait on its DNS check); a cycle is refused (400 naming the parent).',
      tags: TAGS,
      access: 'write',
      params: websiteRefParams,
      body: putDependenciesBody,
      success: { status: 200, description: 'Its parents and children now', schema: dependenciesView },
      handle: async ({ auth, params, body }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        await deps.service.replace(auth.organizationId, website.id, body.parents);
        return deps.service.view(auth.organizationId, website.id);
      },
    }),
  ];
}
