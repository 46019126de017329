import { z } from 'zod';
import { resourceId, SCOPES, uniqueArray } from '../contract/index.js';
import type { ApiToken } from './api-token.repository.js';

const scope = z.enum(SCOPES).meta({ id: 'TokenScope' });

export const scopeList = uniqueArray(scope).min(1, 'at least one scope');

export const createTokenBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).describe('What the token is for, e.g. "CI deploys"'),
    scopes: scopeList.describe(
      'read: GET only; write: read and change configuration; admin: also users, tokens and package changes',
    ),
    customerId: resourceId()
      .optional()
      .describe(
        'Binds the token to one customer: it reads that customer\'s websites, results, incidents and status pages only (other resources answer 404), and its scopes must be ["read"]',
      ),
  })
  .refine(
    (body) => body.customerId === undefined || (body.scopes.length === 1 && body.scopes[0] === 'read'),
    {
      path: ['scopes'],
      message: 'a token bound to a customer is read-only: scopes must be ["read"]',
    },
  )
  .meta({ id: 'TokenCreate' });

export const tokenView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the token, to recognize it'),
    scopes: z.array(scope),
    customerId: z
      .number()
      .int()
      .nullable()
      .describe('The customer the token is bound to (null: the whole organization)'),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Token' });

export const createdTokenView = tokenView
  .extend({
    token: z.string().describe('The token itself, shown this once only'),
  })
  .meta({ id: 'CreatedToken' });

export type TokenView = z.infer<typeof tokenView>;

export function toTokenView(record: ApiToken): TokenView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    scopes: record.scopes,
    customerId: record.customerId ?? null,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}
