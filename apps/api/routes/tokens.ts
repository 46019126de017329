import { z } from 'zod';
import type { ApiTokenRepository } from '../../../libs/auth/index.js';
import {
  createdTokenView,
  createTokenBody,
  tokenFitsRole,
  tokenView,
  toTokenView,
} from '../../../libs/auth/index.js';
import { type AuthContext, idParams, type Role, scopesOfRole } from '../../../libs/contract/index.js';
import { conflict, invalidInput, notAllowed, notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';

/** `/api/tokens`: an admin token manages its own organization's tokens. */
export function tokenRoutes(
  tokens: ApiTokenRepository,
  customers: { exists(organizationId: number, customerId: number): Promise<boolean> },
): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/tokens',
      operationId: 'listTokens',
      summary: "List the organization's API tokens (never the tokens themselves)",
      tags: ['Tokens'],
      access: 'admin',
      success: { status: 200, description: 'Tokens, oldest first', schema: z.array(tokenView) },
      handle: async ({ auth }) => (await tokens.list(auth.organizationId)).map(toTokenView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/tokens',
      operationId: 'createToken',
      summary: 'Create an API token; the response shows it once',
      tags: ['Tokens'],
      access: 'admin',
      body: createTokenBody,
      success: { status: 201, description: 'Created', schema: createdTokenView, headers: ['Cache-Control'] },
      handle: async ({ auth, body, ctx }) => {
        if (body.customerId !== undefined && !(await customers.exists(auth.organizationId, body.customerId)))
          throw invalidInput(`No customer ${body.customerId} in this organization`, [
            { path: 'customerId', message: 'no such customer in this organization' },
          ]);
        const { record, token } = await tokens.create({ organizationId: auth.organizationId, ...body });
        ctx.set('Location', `/api/tokens/${record.id}`);
        ctx.set('Cache-Control', 'no-store');
        return { ...toTokenView(record), token };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/tokens/:id',
      operationId: 'getToken',
      summary: 'Get one API token',
      tags: ['Tokens'],
      access: 'admin',
      params: idParams,
      success: { status: 200, description: 'The token', schema: tokenView },
      handle: async ({ auth, params }) => {
        const record = await tokens.findById(auth.organizationId, params.id);
        if (!record) throw notFound(`No token ${params.id}`);
        return toTokenView(record);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/tokens/:id',
      operationId: 'revokeToken',
      summary: 'Revoke an API token (it stops working at once)',
      description:
        "The organization's last active admin token (not counting personal ones) cannot be revoked over the API (409).",
      tags: ['Tokens'],
      access: 'admin',
      params: idParams,
      problems: [409],
      success: { status: 204, description: 'Revoked' },
      handle: async ({ auth, params }) => {
        const record = await tokens.findById(auth.organizationId, params.id);
        if (!record || record.revokedAt) throw notFound(`No active token ${params.id}`);
        if (
          record.userId == null &&
          record.scopes.includes('admin') &&
          (await tokens.countActiveAdmins(auth.organizationId)) <= 1
        ) {
          throw conflict(
            'This is the last active admin token of the organization; create another admin token first.',
          );
        }
        if (!(await tokens.revoke(auth.organizationId, params.id)))
          throw notFound(`No active token ${params.id}`);
      },
    }),
  ];
}

/** Routes a client user may use too (the customer gates): each concerns the caller's own tokens. */
export const PERSONAL_TOKEN_ROUTE_PATHS = ['/api/me/tokens', '/api/me/tokens/:id'];

/** The signed-in person behind a caller; an API token has none (403). */
function personOf(auth: AuthContext): { userId: number; role: Role; customerId: number | null } {
  if (auth.userId === undefined || auth.role === undefined)
    throw notAllowed('This is for a person signed in with the session cookie; an API token has no user.');
  return { userId: auth.userId, role: auth.role, customerId: auth.customerId ?? null };
}

/**
 * `/api/me/tokens`: a person's own tokens, no wider than their role (a client's: read-only, bound to
 * its customer). They are revoked when the person is removed or their role narrows below them.
 */
export function personalTokenRoutes(
  tokens: ApiTokenRepository,
  customers: { exists(organizationId: number, customerId: number): Promise<boolean> },
  /** The person as stored now (null: removed): their role may have narrowed since they signed in. */
  people: {
    current(
      organizationId: number,
      userId: number,
    ): Promise<{ role: Role; customerId: number | null } | null>;
  },
): Route[] {
  const own = async (auth: AuthContext, id: number) => {
    const record = await tokens.findById(auth.organizationId, id);
    if (!record || record.userId !== personOf(auth).userId) throw notFound(`No token ${id} of yours`);
    return record;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/me/tokens',
      operationId: 'listMyTokens',
      summary: "The signed-in person's own API tokens (never the tokens themselves)",
      tags: ['Tokens'],
      access: 'read',
      success: { status: 200, description: 'Tokens, oldest first', schema: z.array(tokenView) },
      handle: async ({ auth }) =>
        (await tokens.listOfUser(auth.organizationId, personOf(auth).userId)).map(toTokenView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/me/tokens',
      operationId: 'createMyToken',
      summary: 'Create a personal API token, no wider than your role; the response shows it once',
      description:
        "Scopes within the role's (viewer: read; editor: read, write; admin and owner: up to admin), else 400 naming `scopes`. A client's token is read-only and bound to its customer (`customerId` may be omitted; another is 400). The token is revoked when you are removed or your role narrows below it.",
      tags: ['Tokens'],
      access: 'read',
      body: createTokenBody,
      success: { status: 201, description: 'Created', schema: createdTokenView, headers: ['Cache-Control'] },
      handle: async ({ auth, body, ctx }) => {
        const person = personOf(auth);
        const customerId = body.customerId ?? person.customerId ?? undefined;
        if (person.role === 'client' && customerId !== person.customerId)
          throw invalidInput('A client user makes tokens of its own customer only', [
            { path: 'customerId', message: `must be ${person.customerId} (your customer) or omitted` },
          ]);
        if (!tokenFitsRole({ scopes: body.scopes, customerId: customerId ?? null }, person))
          throw invalidInput(`A personal token is no wider than your role (${person.role})`, [
            { path: 'scopes', message: `at most ${scopesOfRole(person.role).join(', ')}` },
          ]);
        if (customerId !== undefined && !(await customers.exists(auth.organizationId, customerId)))
          throw invalidInput(`No customer ${customerId} in this organization`, [
            { path: 'customerId', message: 'no such customer in this organization' },
          ]);
        const { record, token } = await tokens.create({
          organizationId: auth.organizationId,
          name: body.name,
          scopes: body.scopes,
          customerId: customerId ?? null,
          userId: person.userId,
        });
        // A role narrowed (or the person removed) while this ran revokes the personal tokens it finds;
        // one stored after that sweep is caught here: the person as stored now must still cover it.
        const now = await people.current(auth.organizationId, person.userId);
        if (!now || !tokenFitsRole({ scopes: body.scopes, customerId: customerId ?? null }, now)) {
          await tokens.revoke(auth.organizationId, record.id);
          throw notAllowed('Your role changed while the token was made: it is revoked; sign in again.');
        }
        ctx.set('Location', `/api/me/tokens/${record.id}`);
        ctx.set('Cache-Control', 'no-store');
        return { ...toTokenView(record), token };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/me/tokens/:id',
      operationId: 'getMyToken',
      summary: 'One of your personal API tokens',
      tags: ['Tokens'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The token', schema: tokenView },
      handle: async ({ auth, params }) => toTokenView(await own(auth, params.id)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/me/tokens/:id',
      operationId: 'revokeMyToken',
      summary: 'Revoke one of your personal API tokens (it stops working at once)',
      tags: ['Tokens'],
      access: 'read',
      params: idParams,
      success: { status: 204, description: 'Revoked' },
      handle: async ({ auth, params }) => {
        const record = await own(auth, params.id);
        if (record.revokedAt || !(await tokens.revoke(auth.organizationId, params.id)))
          throw notFound(`No active token ${params.id} of yours`);
      },
    }),
  ];
}
