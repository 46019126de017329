import { z } from 'zod';
import {
  AUDIT_RETENTION_DAYS,
  type AuditEventRepository,
  auditEventPage,
  MAX_EXAMINED,
  toAuditEventView,
} from '../../../libs/audit/index.js';
import { decimalId, decimalInteger } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';

export const MAX_AUDIT_PAGE = 200;
const DEFAULT_AUDIT_PAGE = 50;

const auditQuery = z
  .object({
    from: z.iso.datetime({ offset: true }).optional().describe('Events at or after this time'),
    to: z.iso.datetime({ offset: true }).optional().describe('Events at or before this time'),
    actorId: decimalId().optional().describe('Only events of the user or token with this id (see actorType)'),
    actorType: z
      .enum(['user', 'token'])
      .optional()
      .describe('With actorId: only a user’s (`user`) or only a token’s (`token`) events; omitted, both'),
    resource: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, 'a resource name such as websites')
      .optional()
      .describe('Only events of this resource kind (`websites`, `customers`, `auth`…)'),
    cursor: z
      .string()
      .regex(/^[1-9][0-9]{0,14}$/, 'a nextCursor of an earlier page')
      .optional()
      .describe('The previous page’s nextCursor'),
    limit: decimalInteger({ min: 1, max: MAX_AUDIT_PAGE })
      .optional()
      .describe(`Events per page, at most ${MAX_AUDIT_PAGE}; 50 by default`),
  })
  .strict();

/** `GET /api/audit-events`: the organization's audit log, newest first (admins). */
export function auditRoutes(events: AuditEventRepository): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/audit-events',
      operationId: 'listAuditEvents',
      summary: 'The audit log: every write, sign-in and failed sign-in, newest first',
      description: `Who (a user or a token), what (action, resource and id, the fields changed with their values before and after; write-only secrets by name only), when and from which address. Kept ${AUDIT_RETENTION_DAYS} days. A page holds up to \`limit\` events; when the filters match few events a page may be short (each request reads at most ${MAX_EXAMINED} events): follow \`nextCursor\` (also in a \`Link: <…>; rel="next"\` header) until it is null.`,
      tags: ['Audit'],
      access: 'admin',
      query: auditQuery,
      success: {
        status: 200,
        description: 'A page of audit events',
        schema: auditEventPage,
        headers: ['Link'],
      },
      handle: async ({ auth, query, ctx }) => {
        const page = await events.page(auth.organizationId, {
          from: query.from ? new Date(query.from) : undefined,
          to: query.to ? new Date(query.to) : undefined,
          actor: query.actorId === undefined ? undefined : { id: query.actorId, type: query.actorType },
          resource: query.resource,
          before: query.cursor ? Number(query.cursor) : undefined,
          limit: query.limit ?? DEFAULT_AUDIT_PAGE,
        });
        const nextCursor = page.nextCursor === null ? null : String(page.nextCursor);
        if (nextCursor) {
          const next = new URLSearchParams(ctx.querystring);
          next.set('cursor', nextCursor);
          ctx.set('Link', `</api/audit-events?${next}>; rel="next"`);
        }
        return { items: page.items.map(toAuditEventView), nextCursor };
      },
    }),
  ];
}
