import { z } from 'zod';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  GROUP_ATTRIBUTES,
  listResponse,
  MAX_RESULTS,
  parseFilter,
  project,
  resourceTypes,
  SCIM_CONTENT_TYPE,
  type ScimGroups,
  type ScimUsers,
  schemas,
  scimGroupInput,
  scimGroupView,
  scimPatchBody,
  scimUserInput,
  scimUserView,
  serviceProviderConfig,
  USER_ATTRIBUTES,
} from '../../../libs/scim/index.js';
import { type ScimGateDeps, scimGate } from './scim-gate.js';

const TAGS = ['SCIM'];

export interface ScimRouteDeps extends ScimGateDeps {
  users: ScimUsers;
  groups: ScimGroups;
}

const idParams = z.object({
  ref: z.string().max(64).describe("The resource's id (a webmon id; anything else is 404)"),
});
const listQuery = z.object({
  filter: z
    .string()
    .max(1000)
    .optional()
    .describe('userName eq "…", externalId eq "…", displayName eq "…" and the rest of RFC 7644 §3.4.2.2'),
  startIndex: z
    .string()
    .regex(/^-?\d{1,9}$/, 'must be a whole number')
    .optional(),
  count: z
    .string()
    .regex(/^-?\d{1,9}$/, 'must be a whole number')
    .optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
const oneQuery = listQuery.pick({ attributes: true, excludedAttributes: true });
const anyDocument = z.record(z.string(), z.unknown());
const numericId = (id: string): number => {
  if (!/^\d{1,15}$/.test(id)) throw notFound(`No resource ${id.slice(0, 64)}`);
  return Number(id);
};
const names = (list: string | undefined) =>
  list
    ? list
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : null;

/**
 * `/scim/v2/`: SCIM 2.0 (RFC 7644) for an organization's provisioning client, with a SCIM token as
 * `Authorization: Bearer`. Every answer, errors too, is `application/scim+json`; every call of a
 * known token is in the organization's audit log (method, resource, outcome, what changed, each
 * role decided again), never the token.
 */
export function scimRoutes(deps: ScimRouteDeps): Route[] {
  const gate = scimGate(deps);
  const { callerOf, noted } = gate;

  const success = <T extends z.ZodType>(status: 200 | 201, description: string, schema: T) =>
    ({ status, description, schema, contentType: SCIM_CONTENT_TYPE }) as const;

  const discovery = [
    defineRoute({
      method: 'get',
      path: '/scim/v2/ServiceProviderConfig',
      operationId: 'scimServiceProviderConfig',
      summary: 'What this SCIM service supports',
      tags: TAGS,
      access: 'public',
      success: success(200, 'RFC 7643 §5', anyDocument),
      handle: async ({ ctx }) => serviceProviderConfig(callerOf(ctx).base),
    }),
    defineRoute({
      method: 'get',
      path: '/scim/v2/ResourceTypes',
      operationId: 'scimResourceTypes',
      summary: 'User and Group',
      tags: TAGS,
      access: 'public',
      success: success(200, 'RFC 7643 §6', listResponse(anyDocument, 'ScimResourceTypeList')),
      handle: async ({ ctx }) => {
        const types = resourceTypes(callerOf(ctx).base);
        return {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
          totalResults: types.length,
          startIndex: 1,
          itemsPerPage: types.length,
          Resources: types,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/scim/v2/Schemas',
      operationId: 'scimSchemas',
      summary: 'The User and Group schemas as webmon keeps them',
      tags: TAGS,
      access: 'public',
      success: success(200, 'RFC 7643 §7', listResponse(anyDocument, 'ScimSchemaList')),
      handle: async () => {
        const list = schemas();
        return {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
          totalResults: list.length,
          startIndex: 1,
          itemsPerPage: list.length,
          Resources: list,
        };
      },
    }),
  ];

  /** A list's page and projection from its query (startIndex from 1; count at most MAX_RESULTS). */
  const paging = (query: z.output<typeof listQuery>) => ({
    startIndex: Math.max(1, Number(query.startIndex ?? 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, Number(query.count ?? MAX_RESULTS))),
  });
  const projected = <T extends Record<string, unknown>>(resource: T, query: z.output<typeof oneQuery>) =>
    project(resource, names(query.attributes), names(query.excludedAttributes));

  const users = [
    defineRoute({
      method: 'get',
      path: '/scim/v2/Users',
      operationId: 'scimListUsers',
      summary: "The organization's people, filtered and paged",
      tags: TAGS,
      access: 'public',
      query: listQuery,
      success: success(200, 'A list response', listResponse(scimUserView, 'ScimUserList')),
      handle: async ({ ctx, query }) => {
        const filter = query.filter ? parseFilter(query.filter, USER_ATTRIBUTES) : null;
        const { startIndex, count } = paging(query);
        const page = await deps.users.list(callerOf(ctx), filter, startIndex, count);
        return { ...page, Resources: page.Resources.map((resource) => projected(resource, query)) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/scim/v2/Users',
      operationId: 'scimCreateUser',
      summary: 'Make a person (no password: they sign in through the identity provider)',
      tags: TAGS,
      access: 'public',
      body: scimUserInput,
      success: success(201, 'Made', scimUserView),
      handle: async ({ ctx, body }) => {
        const resource = noted(ctx, await deps.users.create(callerOf(ctx), body));
        ctx.set('Location', resource.meta.location);
        return resource;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/scim/v2/Users/:ref',
      operationId: 'scimGetUser',
      summary: 'One person',
      tags: TAGS,
      access: 'public',
      params: idParams,
      query: oneQuery,
      success: success(200, 'The person', scimUserView),
      handle: async ({ ctx, params, query }) =>
        projected(await deps.users.get(callerOf(ctx), numericId(params.ref)), query),
    }),
    defineRoute({
      method: 'put',
      path: '/scim/v2/Users/:ref',
      operationId: 'scimReplaceUser',
      summary: 'Replace a person (userName stays: it is their sign-in)',
      tags: TAGS,
      access: 'public',
      params: idParams,
      body: scimUserInput,
      success: success(200, 'The person as replaced', scimUserView),
      handle: async ({ ctx, params, body }) =>
        noted(ctx, await deps.users.replace(callerOf(ctx), numericId(params.ref), body)),
    }),
    defineRoute({
      method: 'patch',
      path: '/scim/v2/Users/:ref',
      operationId: 'scimPatchUser',
      summary: 'Change a person (active: false ends their sessions and revokes their tokens at once)',
      tags: TAGS,
      access: 'public',
      params: idParams,
      body: scimPatchBody,
      success: success(200, 'The person as changed', scimUserView),
      handle: async ({ ctx, params, body }) =>
        noted(ctx, await deps.users.patch(callerOf(ctx), numericId(params.ref), body.Operations)),
    }),
    defineRoute({
      method: 'delete',
      path: '/scim/v2/Users/:ref',
      operationId: 'scimDeleteUser',
      summary: 'Remove a person (the last owner stays: 409)',
      tags: TAGS,
      access: 'public',
      params: idParams,
      success: { status: 204, description: 'Removed' },
      handle: async ({ ctx, params }) => {
        await deps.users.delete(callerOf(ctx), numericId(params.ref));
      },
    }),
  ];

  const groups = [
    defineRoute({
      method: 'get',
      path: '/scim/v2/Groups',
      operationId: 'scimListGroups',
      summary: "The organization's groups, filtered and paged",
      tags: TAGS,
      access: 'public',
      query: listQuery,
      success: success(200, 'A list response', listResponse(scimGroupView, 'ScimGroupList')),
      handle: async ({ ctx, query }) => {
        const filter = query.filter ? parseFilter(query.filter, GROUP_ATTRIBUTES) : null;
        const { startIndex, count } = paging(query);
        const page = await deps.groups.list(callerOf(ctx), filter, startIndex, count);
        return { ...page, Resources: page.Resources.map((resource) => projected(resource, query)) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/scim/v2/Groups',
      operationId: 'scimCreateGroup',
      summary: "Make a group; its members' roles are decided again",
      tags: TAGS,
      access: 'public',
      body: scimGroupInput,
      success: success(201, 'Made', scimGroupView),
      handle: async ({ ctx, body }) => {
        const resource = noted(ctx, await deps.groups.create(callerOf(ctx), body));
        ctx.set('Location', resource.meta.location);
        return resource;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/scim/v2/Groups/:ref',
      operationId: 'scimGetGroup',
      summary: 'One group',
      tags: TAGS,
      access: 'public',
      params: idParams,
      query: oneQuery,
      success: success(200, 'The group', scimGroupView),
      handle: async ({ ctx, params, query }) =>
        projected(await deps.groups.get(callerOf(ctx), numericId(params.ref)), query),
    }),
    defineRoute({
      method: 'put',
      path: '/scim/v2/Groups/:ref',
      operationId: 'scimReplaceGroup',
      summary: 'Replace a group; the roles of the people it gained or lost are decided again',
      tags: TAGS,
      access: 'public',
      params: idParams,
      body: scimGroupInput,
      success: success(200, 'The group as replaced', scimGroupView),
      handle: async ({ ctx, params, body }) =>
        noted(ctx, await deps.groups.replace(callerOf(ctx), numericId(params.ref), body)),
    }),
    defineRoute({
      method: 'patch',
      path: '/scim/v2/Groups/:ref',
      operationId: 'scimPatchGroup',
      summary:
        'Change a group (members add, remove); the roles of the people it gained or lost are decided again',
      tags: TAGS,
      access: 'public',
      params: idParams,
      body: scimPatchBody,
      success: success(200, 'The group as changed', scimGroupView),
      handle: async ({ ctx, params, body }) =>
        noted(ctx, await deps.groups.patch(callerOf(ctx), numericId(params.ref), body.Operations)),
    }),
    defineRoute({
      method: 'delete',
      path: '/scim/v2/Groups/:ref',
      operationId: 'scimDeleteGroup',
      summary: "Remove a group; its members' roles are decided again",
      tags: TAGS,
      access: 'public',
      params: idParams,
      success: { status: 204, description: 'Removed' },
      handle: async ({ ctx, params }) => {
        noted(ctx, await deps.groups.delete(callerOf(ctx), numericId(params.ref)));
      },
    }),
  ];

  return [...discovery, ...users, ...groups].map(gate.wrap);
}
