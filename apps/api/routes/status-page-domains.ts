import { z } from 'zod';
import { idParams } from '../../../libs/contract/index.js';
import { invalidInput, notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  addDomainBody,
  domainParams,
  hostOfHeader,
  type StatusPageDomains,
  statusPageDomainView,
  tlsAskQuery,
} from '../../../libs/status-pages/index.js';

const TAGS = ['Status pages'];

/** `/api/status-pages/{id}/domains`: a page's own domains and their verification (reading needs read, changing write). */
export function statusPageDomainRoutes(domains: StatusPageDomains): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/status-pages/:id/domains',
      operationId: 'listStatusPageDomains',
      summary: 'A status page’s own domains, their verification and the DNS records that verify them',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The domains', schema: z.array(statusPageDomainView) },
      handle: ({ auth, params }) => domains.list(auth.organizationId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/api/status-pages/:id/domains',
      operationId: 'addStatusPageDomain',
      summary: 'Give a status page a domain of its own (served once verified)',
      description:
        'The domain is claimed unverified: create one of the records it lists, then verify it. An IP ' +
        'address, a wildcard or the service’s own host answers 400, a domain another page holds ' +
        'verified 409; a claim not verified blocks no one.',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: addDomainBody,
      problems: [409],
      success: { status: 201, description: 'Claimed, not yet verified', schema: statusPageDomainView },
      handle: ({ auth, params, body }) => domains.add(auth.organizationId, params.id, body.host),
    }),
    defineRoute({
      method: 'post',
      path: '/api/status-pages/:id/domains/:host/verify',
      operationId: 'verifyStatusPageDomain',
      summary: 'Check a domain’s DNS records now (through the configured resolvers) and answer the domain',
      description:
        'Verified by a CNAME to the agency’s status host or the domain’s token in a TXT record at ' +
        '`_webmon-challenge.<host>`. A failed check is in the answer (`lastCheck`); a domain once ' +
        'verified stays verified until removed. 409 when another page holds it verified.',
      tags: TAGS,
      access: 'write',
      params: domainParams,
      problems: [409],
      success: { status: 200, description: 'The domain after the check', schema: statusPageDomainView },
      handle: ({ auth, params }) => domains.verify(auth.organizationId, params.id, params.host),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/status-pages/:id/domains/:host',
      operationId: 'removeStatusPageDomain',
      summary: 'Remove a domain from a status page: it stops being served and certified at once',
      tags: TAGS,
      access: 'write',
      params: domainParams,
      success: { status: 204, description: 'Removed' },
      handle: ({ auth, params }) => domains.remove(auth.organizationId, params.id, params.host),
    }),
  ];
}

/**
 * `GET /internal/tls/ask?domain=`: the TLS proxy's question before it asks a CA for a certificate
 * (Caddy's on-demand `ask`). 200 for a verified page domain, else 404: one Redis read, and the
 * same answer for a host nobody claimed as for one claimed and not verified.
 */
export function tlsAskRoutes(domains: StatusPageDomains): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/internal/tls/ask',
      operationId: 'askTlsCertificate',
      summary: 'Whether the TLS proxy may get a certificate for a host (a verified status page domain)',
      description: 'For the proxy in front of the API (Caddy’s on_demand_tls ask); not to be exposed.',
      tags: TAGS,
      access: 'public',
      // A question, not a change: nothing to record.
      unaudited: true,
      query: tlsAskQuery,
      success: {
        status: 200,
        description: 'A verified page domain: a certificate may be asked for',
        schema: z.object({ domain: z.string() }),
      },
      problems: [404],
      handle: async ({ query }) => {
        const host = hostOfHeader(query.domain);
        if (!host || !/^[a-z0-9.-]{1,253}$/.test(host))
          throw invalidInput('Give the host name asked for', [
            { path: 'domain', message: 'must be a host name such as status.client.example' },
          ]);
        if (!(await domains.isVerified(host))) throw notFound('Not a verified status page domain');
        return { domain: host };
      },
    }),
  ];
}
