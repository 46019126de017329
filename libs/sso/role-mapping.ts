import { z } from 'zod';
import { nameText, ROLES, type Role, resourceId } from '../contract/index.js';

/**
 * Who an identity from a provider (an OIDC ID token, a SAML assertion, a SCIM user's groups) is in
 * webmon: pure, so OIDC, SAML and SCIM decide alike and the rules are unit-tested alone.
 */

/** What a provider said of a person, once its signature and validity were checked. */
export interface SsoIdentity {
  /** The provider's stable id of the person (`sub`, SAML NameID, SCIM `externalId` or `id`). */
  subject: string;
  /** Normalized (trimmed, lowercased); null when the provider sent none. */
  email: string | null;
  name: string | null;
  /** Group names or ids as the provider sends them (`groups` claim, SAML attribute, SCIM groups). */
  groups: readonly string[];
  /** Every other claim or attribute, for `claim` rules. */
  claims: Readonly<Record<string, unknown>>;
}

const ruleTarget = {
  role: z.enum(ROLES),
  customerId: resourceId()
    .optional()
    .describe(
      'Required when `role` is client (the customer whose resources the person sees); refused otherwise',
    ),
};

/**
 * One rule: a group the person is in, or a claim (with a value it must equal or, for a list,
 * contain; without `value`, any value but false, null and ""), and the role it gives.
 */
export const roleMappingRule = z
  .union([
    z.strictObject({
      group: nameText(256).describe('A group name or id as the provider sends it'),
      ...ruleTarget,
    }),
    z.strictObject({
      claim: nameText(128).describe('A claim (OIDC) or attribute (SAML) name'),
      value: nameText(256).optional(),
      ...ruleTarget,
    }),
  ])
  .superRefine((rule, context) => {
    if (rule.role === 'client' && rule.customerId === undefined)
      context.addIssue({ code: 'custom', path: ['customerId'], message: 'Required for the client role' });
    if (rule.role !== 'client' && rule.customerId !== undefined)
      context.addIssue({ code: 'custom', path: ['customerId'], message: 'Only for the client role' });
  })
  .meta({ id: 'RoleMappingRule' });
export type RoleMappingRule = z.infer<typeof roleMappingRule>;

export const roleMapping = z.array(roleMappingRule).max(100);

export interface MappedRole {
  role: Role;
  /** Set for `client`, null otherwise. */
  customerId: number | null;
}

export type RoleDecision =
  | ({ outcome: 'mapped'; rule: number | null } & MappedRole)
  | { outcome: 'refused'; reason: 'no-rule-matched' | 'ambiguous-customer' };

/** Staff roles by what they may do; a person matching several rules gets the most. */
const STAFF_RANK: Record<Exclude<Role, 'client'>, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };

function claimMatches(claimValue: unknown, expected: string | undefined): boolean {
  if (expected === undefined)
    return claimValue !== undefined && claimValue !== null && claimValue !== false && claimValue !== '';
  if (Array.isArray(claimValue)) return claimValue.some((item) => String(item) === expected);
  return claimValue !== undefined && claimValue !== null && String(claimValue) === expected;
}

export function ruleMatches(rule: RoleMappingRule, identity: SsoIdentity): boolean {
  if ('group' in rule) return identity.groups.includes(rule.group);
  return claimMatches(identity.claims[rule.claim], rule.value);
}

export interface RoleOptions {
  /**
   * The customer whose own provider this is (a client's Okta): everyone it signs in is a client of
   * that customer, whatever its rules say of staff roles.
   */
  customerId?: number | null;
  /** The role of a person no rule matches; null or absent refuses them. */
  defaultRole?: MappedRole | null;
}

/**
 * The role an identity gets, decided anew at every sign-in (and every SCIM group change): the
 * highest staff role among the matching rules; else the client role of the one customer its
 * client rules name (two customers are refused rather than guessed); else the default.
 */
export function resolveRole(
  rules: readonly RoleMappingRule[],
  identity: SsoIdentity,
  options: RoleOptions = {},
): RoleDecision {
  const ownCustomer = options.customerId ?? null;
  if (ownCustomer !== null) return { outcome: 'mapped', rule: null, role: 'client', customerId: ownCustomer };
  let staff: { index: number; role: Exclude<Role, 'client'> } | null = null;
  const clientCustomers = new Map<number, number>();
  for (const [index, rule] of rules.entries()) {
    if (!ruleMatches(rule, identity)) continue;
    if (rule.role !== 'client') {
      if (staff === null || STAFF_RANK[rule.role] > STAFF_RANK[staff.role])
        staff = { index, role: rule.role };
    } else if (rule.customerId !== undefined && !clientCustomers.has(rule.customerId))
      clientCustomers.set(rule.customerId, index);
  }
  if (staff) return { outcome: 'mapped', rule: staff.index, role: staff.role, customerId: null };
  if (clientCustomers.size > 1) return { outcome: 'refused', reason: 'ambiguous-customer' };
  const [client] = clientCustomers;
  if (client) return { outcome: 'mapped', rule: client[1], role: 'client', customerId: client[0] };
  if (options.defaultRole) return { outcome: 'mapped', rule: null, ...options.defaultRole };
  return { outcome: 'refused', reason: 'no-rule-matched' };
}
