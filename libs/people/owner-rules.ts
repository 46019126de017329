import type { Role } from '../contract/index.js';
import { conflict, type DomainError, notAllowed } from '../errors/index.js';

/**
 * Whether a caller may change a user (`next`: the role after it, the same for a rename) or delete
 * the user (`next` null), by the owner rules: only an owner changes anything of an owner (a name
 * too), deletes or makes one, and an organization always keeps one.
 * `actor` is the caller's role (undefined for an admin token: an admin, never an owner).
 */
export function ownerRuleViolation(input: {
  actor: Role | undefined;
  target: Role;
  next: Role | null;
  owners: number;
}): DomainError | null {
  const { actor, target, next, owners } = input;
  if ((target === 'owner' || next === 'owner') && actor !== 'owner')
    return notAllowed(
      target === 'owner'
        ? 'Only an owner may change or delete an owner.'
        : 'Only an owner may make an owner.',
    );
  if (target === next) return null;
  if (target === 'owner' && owners <= 1)
    return conflict(
      'This is the organization’s last owner; make another user owner first (an organization always has one).',
    );
  return null;
}
