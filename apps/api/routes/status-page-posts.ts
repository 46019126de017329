import { idParams } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { StatusPageDocument } from '../../../libs/status-pages/index.js';
import {
  addUpdateBody,
  createPostBody,
  draftQuery,
  listPostsQuery,
  patchPostBody,
  patchUpdateBody,
  postDraftView,
  postPage,
  postParams,
  postView,
  previewBody,
  previewView,
  renderMarkdown,
  type StatusPostDocument,
  type StatusPostService,
  toPostView,
  updateParams,
} from '../../../libs/status-posts/index.js';

const TAGS = ['Status pages'];

/**
 * `/api/status-pages/{id}/incidents`: incident posts, what the agency tells a page's visitors
 * during an outage (reading needs read, changing write, as the pages' own routes).
 */
export function statusPagePostRoutes(service: StatusPostService): Route[] {
  const view = async (page: StatusPageDocument, post: StatusPostDocument) =>
    toPostView(post, page.slug, await service.websitesOf(page));
  const viewOf = async (organizationId: number, pageId: number, post: StatusPostDocument) =>
    view(await service.page(organizationId, pageId), post);

  return [
    defineRoute({
      method: 'get',
      path: '/api/status-pages/:id/incidents',
      operationId: 'listIncidentPosts',
      summary: 'A status page’s incident posts, newest first',
      tags: TAGS,
      access: 'read',
      params: idParams,
      query: listPostsQuery,
      success: { status: 200, description: 'Posts', schema: postPage },
      handle: async ({ auth, params, query }) => {
        const page = await service.page(auth.organizationId, params.id);
        const { posts, more } = await service.list(auth.organizationId, params.id, query);
        const names = await service.websitesOf(page);
        return {
          items: posts.map((post) => toPostView(post, page.slug, names)),
          nextBefore: more && posts.length > 0 ? (posts.at(-1)?.id ?? null) : null,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/status-pages/:id/incidents',
      operationId: 'createIncidentPost',
      summary: 'Post an incident on a status page',
      description:
        'Its first update is `status` and `message`. `components` are websites of the page (a 400 names `components.<i>.id` for one that is not). The page shows it at once.',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: createPostBody,
      problems: [409],
      success: { status: 201, description: 'Posted', schema: postView },
      handle: async ({ auth, params, body, ctx }) => {
        const post = await service.create(auth.organizationId, params.id, body);
        ctx.set('Location', `/api/status-pages/${params.id}/incidents/${post.id}`);
        return viewOf(auth.organizationId, params.id, post);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/status-pages/:id/incident-draft',
      operationId: 'draftIncidentPost',
      summary: 'A post prefilled from an automatic incident, to edit and post',
      tags: TAGS,
      access: 'read',
      params: idParams,
      query: draftQuery,
      success: { status: 200, description: 'The draft', schema: postDraftView },
      handle: ({ auth, params, query }) => service.draftFrom(auth.organizationId, params.id, query.incident),
    }),
    defineRoute({
      method: 'post',
      path: '/api/status-pages/:id/incident-preview',
      operationId: 'previewIncidentPostMessage',
      summary: 'An update’s Markdown as the page will show it (nothing is stored)',
      tags: TAGS,
      access: 'read',
      unaudited: true,
      params: idParams,
      body: previewBody,
      success: { status: 200, description: 'The message rendered and sanitized', schema: previewView },
      handle: async ({ auth, params, body }) => {
        await service.page(auth.organizationId, params.id);
        return { html: renderMarkdown(body.message) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/status-pages/:id/incidents/:postId',
      operationId: 'getIncidentPost',
      summary: 'An incident post with its updates',
      tags: TAGS,
      access: 'read',
      params: postParams,
      success: { status: 200, description: 'The post', schema: postView },
      handle: async ({ auth, params }) =>
        viewOf(
          auth.organizationId,
          params.id,
          await service.get(auth.organizationId, params.id, params.postId),
        ),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/status-pages/:id/incidents/:postId',
      operationId: 'updateIncidentPost',
      summary: 'Change an incident post’s title or components',
      tags: TAGS,
      access: 'write',
      params: postParams,
      body: patchPostBody,
      success: { status: 200, description: 'The post', schema: postView },
      handle: async ({ auth, params, body }) =>
        viewOf(
          auth.organizationId,
          params.id,
          await service.edit(auth.organizationId, params.id, params.postId, body),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/status-pages/:id/incidents/:postId',
      operationId: 'deleteIncidentPost',
      summary: 'Delete an incident post',
      tags: TAGS,
      access: 'write',
      params: postParams,
      success: { status: 204, description: 'Deleted' },
      handle: ({ auth, params }) => service.delete(auth.organizationId, params.id, params.postId),
    }),
    defineRoute({
      method: 'post',
      path: '/api/status-pages/:id/incidents/:postId/updates',
      operationId: 'addIncidentPostUpdate',
      summary: 'Post an update of an incident',
      description:
        'Open statuses may follow each other either way; `resolved` closes the post; an open status after `resolved` reopens it within 7 days of its resolution (later: 409).',
      tags: TAGS,
      access: 'write',
      params: postParams,
      body: addUpdateBody,
      problems: [409],
      success: { status: 201, description: 'The post with the update', schema: postView },
      handle: async ({ auth, params, body }) =>
        viewOf(
          auth.organizationId,
          params.id,
          await service.addUpdate(auth.organizationId, params.id, params.postId, body),
        ),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/status-pages/:id/incidents/:postId/updates/:update',
      operationId: 'updateIncidentPostUpdate',
      summary: 'Correct an update’s text (the page marks it edited)',
      tags: TAGS,
      access: 'write',
      params: updateParams,
      body: patchUpdateBody,
      success: { status: 200, description: 'The post', schema: postView },
      handle: async ({ auth, params, body }) =>
        viewOf(
          auth.organizationId,
          params.id,
          await service.editUpdate(
            auth.organizationId,
            params.id,
            params.postId,
            params.update,
            body.message,
          ),
        ),
    }),
  ];
}
