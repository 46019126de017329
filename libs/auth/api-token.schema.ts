import { z } from 'zod';
import {
  hasScope,
  nameText,
  type Role,
  resourceId,
  SCOPES,
  scopesOfRole,
  uniqueArray,
} from '../contract/index.js';
import type { ApiToken } from './api-token.repository.js';

const scope = z.enum(SCOPES).meta({ id: 'TokenScope' });

export const scopeList = uniqueArray(scope).min(1, 'at least one scope');

export const createTokenBody = z
  .strictObject({
    name: nameText(100).describe('What the token is for, e.g. "CI deploys"'),
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
    userId: z
      .number()
      .int()
      .nullable()
      .describe(
        "A personal token's user: it is never wider than their role, and is revoked when they go or their role narrows below it (null: the organization's)",
      ),
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
    userId: record.userId ?? null,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Whether a token is no wider than a person of `role` (bound to `customerId` for a client): each
 * scope within the role's, and a client's bound to its customer.
 */
export function tokenFitsRole(
  token: Pick<ApiToken, 'scopes' | 'customerId'>,
  person: { role: Role; customerId: number | null },
): boolean {
  const granted = scopesOfRole(person.role);
  if (!token.scopes.every((scope) => hasScope(granted, scope))) return false;
  return person.role !== 'client' || (token.customerId ?? null) === person.customerId;
}
