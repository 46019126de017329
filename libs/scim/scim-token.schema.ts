import { z } from 'zod';
import { nameText, ROLES, resourceId } from '../contract/index.js';
import { type MappedRole, type RoleMappingRule, roleMapping } from '../sso/role-mapping.js';

/** SCIM tokens as the API takes and shows them, and as they are stored; pure zod (the app's form checks the same). */

export interface ScimToken {
  /** From the API tokens' sequence: an audit event's token id names one token of either kind. */
  id: number;
  organizationId: number;
  name: string;
  prefix: string;
  hash: string;
  /** The identity provider these people sign in with: their `identities` link to it. */
  identityProviderId: number | null;
  roleMapping: RoleMappingRule[];
  /** The role of a person no rule matches (everyone, until groups come). */
  defaultRole: MappedRole;
  /**
   * The most the token may do to people, its maker's role when made: only an owner's token changes,
   * deactivates or deletes an owner, or maps anyone to owner (the owner rules of the users API).
   * Each call acts with the lesser of this and its maker's role then (roles.ts `currentGrant`).
   */
  grant: 'owner' | 'admin';
  createdBy: number;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const defaultRole = z
  .strictObject({
    role: z.enum(ROLES),
    customerId: resourceId().optional().describe('Required for the client role; refused otherwise'),
  })
  .superRefine((value, context) => {
    if ((value.role === 'client') !== (value.customerId !== undefined))
      context.addIssue({
        code: 'custom',
        path: ['customerId'],
        message: value.role === 'client' ? 'Required for the client role' : 'Only for the client role',
      });
  })
  .describe('The role of a person no rule matches (every new person, until their groups come)')
  .meta({ id: 'ScimDefaultRole' });

export const createScimTokenBody = z
  .strictObject({
    name: nameText(100).describe('Which client provisions with it, e.g. "Entra ID"'),
    identityProviderId: resourceId()
      .optional()
      .describe(
        "The identity provider these people sign in with: its role mapping and default role decide their roles (the token's are not used; a staff provider needs a default role), and the people SCIM makes are linked to it",
      ),
    roleMapping: roleMapping
      .default([])
      .describe(
        'Group rules, as identity providers have them: a person gets the highest role their groups map to. Empty with `identityProviderId`: the provider’s rules decide',
      ),
    defaultRole,
  })
  .meta({ id: 'ScimTokenCreate' });
export type CreateScimToken = z.output<typeof createScimTokenBody>;

const mappedRoleView = z.object({ role: z.enum(ROLES), customerId: z.number().int().nullable() });

export const scimTokenView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the token, to recognize it'),
    identityProviderId: z.number().int().nullable(),
    roleMapping: roleMapping,
    defaultRole: mappedRoleView,
    grant: z
      .enum(['owner', 'admin'])
      .describe(
        "Its maker's role when made, the most it acts with (its maker's role at each call caps it): only an owner's token changes owners",
      ),
    createdBy: z.number().int().describe('The person who made it'),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ScimToken' });

export const createdScimTokenView = scimTokenView
  .extend({
    token: z.string().describe('The token itself, shown this once only'),
    baseUrl: z.string().describe('The SCIM base URL to give the provisioning client'),
  })
  .meta({ id: 'CreatedScimToken' });

export function toScimTokenView(token: ScimToken): z.input<typeof scimTokenView> {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    identityProviderId: token.identityProviderId,
    roleMapping: token.roleMapping,
    defaultRole: token.defaultRole,
    grant: token.grant,
    createdBy: token.createdBy,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}
