import { z } from 'zod';
import { idParams } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { StatusPageService } from '../../../libs/status-pages/index.js';
import {
  createStatusPageBody,
  listStatusPagesQuery,
  patchStatusPageBody,
  statusPageView,
  toStatusPageView,
} from '../../../libs/status-pages/index.js';

const TAGS = ['Status pages'];

/** `/api/status-pages`: what a customer's clients see at /status/{slug} (reading needs read, changing write). */
export function statusPageRoutes(service: StatusPageService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/status-pages',
      operationId: 'listStatusPages',
      summary: "List the organization's status pages",
      tags: TAGS,
      access: 'read',
      query: listStatusPagesQuery,
      success: { status: 200, description: 'Status pages', schema: z.array(statusPageView) },
      handle: async ({ auth, query }) =>
        (await service.list(auth.organizationId, query)).map(toStatusPageView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/status-pages',
      operationId: 'createStatusPage',
      summary: "Create a status page for a customer's websites",
      description:
        'The page is served at /status/{slug} (and /status/{slug}.json) once `public` is true; its websites get badges.',
      tags: TAGS,
      access: 'write',
      body: createStatusPageBody,
      problems: [409],
      success: { status: 201, description: 'Created', schema: statusPageView },
      handle: async ({ auth, body, ctx }) => {
        const created = await service.create(auth.organizationId, body);
        ctx.set('Location', `/api/status-pages/${created.id}`);
        return toStatusPageView(created);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/status-pages/:id',
      operationId: 'getStatusPage',
      summary: 'Get a status page',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The status page', schema: statusPageView },
      handle: async ({ auth, params }) => toStatusPageView(await service.get(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/status-pages/:id',
      operationId: 'updateStatusPage',
      summary: 'Change a status page; branding is merged',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: patchStatusPageBody,
      problems: [409],
      success: { status: 200, description: 'The updated status page', schema: statusPageView },
      handle: async ({ auth, params, body }) =>
        toStatusPageView(await service.update(auth.organizationId, params.id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/status-pages/:id',
      operationId: 'deleteStatusPage',
      summary: 'Delete a status page',
      tags: TAGS,
      access: 'write',
      params: idParams,
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => service.delete(auth.organizationId, params.id),
    }),
  ];
}
