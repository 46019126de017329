import { describe, expect, it } from 'vitest';
import { type RoleMappingRule, resolveRole, roleMappingRule, type SsoIdentity } from './role-mapping.js';

const person = (groups: string[], claims: Record<string, unknown> = {}): SsoIdentity => ({
  subject: 's-1',
  email: 'ada@agency.example',
  name: 'Ada',
  groups,
  claims,
});

const rules: RoleMappingRule[] = [
  { group: 'monitoring-viewers', role: 'viewer' },
  { group: 'monitoring-admins', role: 'admin' },
  { claim: 'department', value: 'ops', role: 'editor' },
  { group: 'acme-people', role: 'client', customerId: 7 },
  { group: 'globex-people', role: 'client', customerId: 9 },
];

describe('resolveRole', () => {
  it('gives the highest staff role among the matching rules, whatever their order', () => {
    expect(resolveRole(rules, person(['monitoring-viewers', 'monitoring-admins']))).toEqual({
      outcome: 'mapped',
      rule: 1,
      role: 'admin',
      customerId: null,
    });
    expect(resolveRole(rules, person(['monitoring-viewers'], { department: 'ops' }))).toMatchObject({
      role: 'editor',
    });
  });

  it('matches a claim by its value, in a list too, and by presence without a value', () => {
    expect(resolveRole(rules, person([], { department: ['sales', 'ops'] }))).toMatchObject({
      role: 'editor',
    });
    expect(resolveRole(rules, person([], { department: 'sales' })).outcome).toBe('refused');
    const presence: RoleMappingRule[] = [{ claim: 'webmon_staff', role: 'viewer' }];
    expect(resolveRole(presence, person([], { webmon_staff: true }))).toMatchObject({ role: 'viewer' });
    for (const value of [false, null, '', undefined])
      expect(resolveRole(presence, person([], { webmon_staff: value })).outcome).toBe('refused');
  });

  it("prefers a staff role to a client one, and refuses two customers' client rules rather than guess", () => {
    expect(resolveRole(rules, person(['acme-people', 'monitoring-viewers']))).toMatchObject({
      role: 'viewer',
    });
    expect(resolveRole(rules, person(['acme-people']))).toEqual({
      outcome: 'mapped',
      rule: 3,
      role: 'client',
      customerId: 7,
    });
    expect(resolveRole(rules, person(['acme-people', 'globex-people']))).toEqual({
      outcome: 'refused',
      reason: 'ambiguous-customer',
    });
  });

  it('falls back to the default role, else refuses; a customer’s own provider makes clients of that customer', () => {
    expect(resolveRole(rules, person(['nobody']))).toEqual({ outcome: 'refused', reason: 'no-rule-matched' });
    expect(
      resolveRole(rules, person([]), { defaultRole: { role: 'viewer', customerId: null } }),
    ).toMatchObject({
      role: 'viewer',
      rule: null,
    });
    expect(resolveRole(rules, person(['monitoring-admins']), { customerId: 12 })).toEqual({
      outcome: 'mapped',
      rule: null,
      role: 'client',
      customerId: 12,
    });
  });
});

describe('roleMappingRule', () => {
  it('requires a customer for the client role and refuses one for the others', () => {
    expect(roleMappingRule.safeParse({ group: 'g', role: 'client' }).error?.issues[0]?.path).toEqual([
      'customerId',
    ]);
    expect(roleMappingRule.safeParse({ group: 'g', role: 'admin', customerId: 3 }).success).toBe(false);
    expect(roleMappingRule.safeParse({ group: 'g', role: 'client', customerId: 3 }).success).toBe(true);
    expect(roleMappingRule.safeParse({ claim: 'c', value: 'v', role: 'owner' }).success).toBe(true);
    expect(roleMappingRule.safeParse({ group: 'g', claim: 'c', role: 'owner' }).success).toBe(false);
  });
});
