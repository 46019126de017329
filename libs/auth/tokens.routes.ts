import { z } from 'zod';
import { idParams } from '../contract/index.js';
import { conflict, invalidInput, notFound } from '../errors/index.js';
import { defineRoute, type Route } from '../http/index.js';
import type { ApiTokenRepository } from './api-token.repository.js';
import { createdTokenView, createTokenBody, tokenView, toTokenView } from './api-token.schema.js';

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
      description: "The organization's last active admin token cannot be revoked over the API (409).",
      tags: ['Tokens'],
      access: 'admin',
      params: idParams,
      problems: [409],
      success: { status: 204, description: 'Revoked' },
      handle: async ({ auth, params }) => {
        const record = await tokens.findById(auth.organizationId, params.id);
        if (!record || record.revokedAt) throw notFound(`No active token ${params.id}`);
        if (record.scopes.includes('admin') && (await tokens.countActiveAdmins(auth.organizationId)) <= 1) {
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
