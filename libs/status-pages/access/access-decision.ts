import { addressInRanges } from './cidr.js';

export const ACCESS_MODES = ['public', 'password', 'cidr', 'clients'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

/** Who may see a published page, as stored; pages stored before it existed are public. */
export interface PageAccess {
  mode: AccessMode;
  /** scrypt hash (`scrypt$…`), kept when the mode changes so switching back needs no new password. */
  passwordHash: string | null;
  cidrs: string[];
}

export const PUBLIC_ACCESS: PageAccess = { mode: 'public', passwordHash: null, cidrs: [] };

/** A signed-in person of the app, as the session cookie says. */
export interface SignedInPerson {
  organizationId: number;
  /** Set for a client user: the one customer it may see. */
  customerId?: number;
}

/**
 * Whether `person` may see the page's customer: the organization's staff, or a client user of that
 * very customer (a client of another customer of the same agency may not).
 */
export function personMaySee(
  page: { organizationId: number; customerId: number },
  person: SignedInPerson | null,
): boolean {
  if (!person || person.organizationId !== page.organizationId) return false;
  return person.customerId === undefined || person.customerId === page.customerId;
}

/** What the gate knows of the visitor; each is asked only for the mode that needs it. */
export interface VisitorFacts {
  address: () => string;
  hasPasswordSession: () => Promise<boolean>;
  person: () => Promise<SignedInPerson | null>;
  /** Served by a custom domain: the app's session cookie is not sent there. */
  onCustomDomain: boolean;
}

/** What a visitor who may not see the page gets (each an HTML page; JSON and badges: 404). */
export type Refusal = 'password' | 'outside-ranges' | 'sign-in' | 'sign-in-at-agency';

export type AccessDecision = { allowed: true } | { allowed: false; refusal: Refusal };

const ALLOWED: AccessDecision = { allowed: true };
const refused = (refusal: Refusal): AccessDecision => ({ allowed: false, refusal });

/** Whether the visitor may see a published page of this access, and if not, what they are told. */
export async function decideAccess(
  page: { organizationId: number; customerId: number; access: PageAccess },
  visitor: VisitorFacts,
): Promise<AccessDecision> {
  switch (page.access.mode) {
    case 'public':
      return ALLOWED;
    case 'password':
      // No password set (not reachable through the API): nobody gets in.
      return page.access.passwordHash !== null && (await visitor.hasPasswordSession())
        ? ALLOWED
        : refused('password');
    case 'cidr':
      return addressInRanges(visitor.address(), page.access.cidrs) ? ALLOWED : refused('outside-ranges');
    case 'clients':
      if (visitor.onCustomDomain) return refused('sign-in-at-agency');
      return personMaySee(page, await visitor.person()) ? ALLOWED : refused('sign-in');
  }
}
