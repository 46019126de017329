import { describe, expect, it } from 'vitest';
import { ownerRuleViolation } from './owner-rules.js';

describe('owner rules', () => {
  it('an admin manages viewers, editors, admins and clients', () => {
    expect(ownerRuleViolation({ actor: 'admin', target: 'viewer', next: 'admin', owners: 1 })).toBeNull();
    expect(ownerRuleViolation({ actor: undefined, target: 'editor', next: null, owners: 1 })).toBeNull();
  });

  it('only an owner changes, deletes or makes an owner', () => {
    for (const actor of ['admin', undefined] as const) {
      // A rename keeps the role: still a change of an owner.
      expect(ownerRuleViolation({ actor, target: 'owner', next: 'owner', owners: 2 })?.kind).toBe(
        'not-allowed',
      );
      expect(ownerRuleViolation({ actor, target: 'owner', next: 'admin', owners: 2 })?.kind).toBe(
        'not-allowed',
      );
      expect(ownerRuleViolation({ actor, target: 'owner', next: null, owners: 2 })?.kind).toBe('not-allowed');
      expect(ownerRuleViolation({ actor, target: 'admin', next: 'owner', owners: 2 })?.kind).toBe(
        'not-allowed',
      );
    }
    expect(ownerRuleViolation({ actor: 'owner', target: 'owner', next: 'admin', owners: 2 })).toBeNull();
    expect(ownerRuleViolation({ actor: 'owner', target: 'admin', next: 'owner', owners: 1 })).toBeNull();
  });

  it('keeps at least one owner', () => {
    expect(ownerRuleViolation({ actor: 'owner', target: 'owner', next: 'editor', owners: 1 })?.kind).toBe(
      'conflict',
    );
    expect(ownerRuleViolation({ actor: 'owner', target: 'owner', next: null, owners: 1 })?.kind).toBe(
      'conflict',
    );
    expect(ownerRuleViolation({ actor: 'owner', target: 'owner', next: 'owner', owners: 1 })).toBeNull();
  });
});
