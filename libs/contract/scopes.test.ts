import { describe, expect, it } from 'vitest';
import { hasScope, ROLES, scopesOfRole } from './scopes.js';

describe('roles map onto scopes, cumulatively', () => {
  it.each([
    ['viewer', ['read']],
    ['editor', ['read', 'write']],
    ['admin', ['read', 'write', 'admin']],
    ['owner', ['read', 'write', 'admin']],
    ['client', ['read']],
  ] as const)('%s → %j', (role, scopes) => {
    expect(scopesOfRole(role)).toEqual(scopes);
  });

  it('each role may do what the roles before it may (client apart: read only)', () => {
    const ranked = ROLES.filter((role) => role !== 'client');
    for (const [i, role] of ranked.entries())
      for (const before of ranked.slice(0, i))
        for (const scope of scopesOfRole(before)) expect(hasScope(scopesOfRole(role), scope)).toBe(true);
    expect(hasScope(scopesOfRole('client'), 'write')).toBe(false);
  });

  it('hands out a copy, not the table', () => {
    scopesOfRole('viewer').push('admin');
    expect(scopesOfRole('viewer')).toEqual(['read']);
  });
});
