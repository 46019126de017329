import { z } from 'zod';
import { idParams, patchBody } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { UserAdministration, UserRepository } from '../../../libs/people/index.js';
import { toUserView, updateUserBody, userView } from '../../../libs/people/index.js';

const TAGS = ['People'];

/** `/api/users`: admins see and manage their organization's users (users are created by the CLI). */
export function userRoutes(deps: { users: UserRepository; administration: UserAdministration }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/users',
      operationId: 'listUsers',
      summary: "The organization's users, oldest first",
      tags: TAGS,
      access: 'admin',
      success: { status: 200, description: 'Users', schema: z.array(userView) },
      handle: async ({ auth }) => (await deps.users.list(auth.organizationId)).map(toUserView),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/users/:id',
      operationId: 'updateUser',
      summary: "Change a user's name, role or customer",
      description:
        'Only an owner may change an owner or make one; the last owner keeps the role (409). A client needs `customerId`.',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      body: patchBody(updateUserBody),
      problems: [409],
      success: { status: 200, description: 'The user as changed', schema: userView },
      handle: async ({ auth, params, body }) =>
        toUserView(await deps.administration.update(auth, params.id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/users/:id',
      operationId: 'deleteUser',
      summary: 'Delete a user and end their sessions',
      description: 'Only an owner may delete an owner; the last owner cannot be deleted (409).',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      problems: [409],
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => {
        await deps.administration.delete(auth, params.id);
      },
    }),
  ];
}
