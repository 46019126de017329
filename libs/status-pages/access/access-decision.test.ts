import { describe, expect, it } from 'vitest';
import { decideAccess, type PageAccess, personMaySee, type VisitorFacts } from './access-decision.js';

const page = (access: Partial<PageAccess>) => ({
  organizationId: 1,
  customerId: 10,
  access: { mode: 'public' as const, passwordHash: null, cidrs: [], ...access },
});

const visitor = (facts: Partial<VisitorFacts> = {}): VisitorFacts => ({
  address: () => '198.51.100.1',
  hasPasswordSession: async () => false,
  person: async () => null,
  onCustomDomain: false,
  ...facts,
});

describe('who may see a page', () => {
  it('lets anyone see a public page and asks nothing', async () => {
    const asked = visitor({
      hasPasswordSession: () => Promise.reject(new Error('not asked')),
      person: () => Promise.reject(new Error('not asked')),
    });
    expect(await decideAccess(page({}), asked)).toEqual({ allowed: true });
  });

  it('asks for the password until the visitor has a page session', async () => {
    const protectedPage = page({ mode: 'password', passwordHash: 'scrypt$…' });
    expect(await decideAccess(protectedPage, visitor())).toEqual({ allowed: false, refusal: 'password' });
    expect(await decideAccess(protectedPage, visitor({ hasPasswordSession: async () => true }))).toEqual({
      allowed: true,
    });
    // A password page without a password lets nobody in, a session or not.
    expect(
      await decideAccess(page({ mode: 'password' }), visitor({ hasPasswordSession: async () => true })),
    ).toEqual({ allowed: false, refusal: 'password' });
  });

  it('lets in addresses of the listed ranges only', async () => {
    const ranged = page({ mode: 'cidr', cidrs: ['198.51.100.0/24'] });
    expect(await decideAccess(ranged, visitor())).toEqual({ allowed: true });
    expect(await decideAccess(ranged, visitor({ address: () => '192.0.2.1' }))).toEqual({
      allowed: false,
      refusal: 'outside-ranges',
    });
    expect(await decideAccess(page({ mode: 'cidr', cidrs: [] }), visitor())).toMatchObject({
      allowed: false,
    });
  });

  it('lets in the customer’s client users and the organization’s staff', async () => {
    const clients = page({ mode: 'clients' });
    const as = (person: { organizationId: number; customerId?: number } | null) =>
      decideAccess(clients, visitor({ person: async () => person }));
    expect(await as({ organizationId: 1, customerId: 10 })).toEqual({ allowed: true });
    expect(await as({ organizationId: 1 })).toEqual({ allowed: true });
    expect(await as({ organizationId: 1, customerId: 11 })).toEqual({ allowed: false, refusal: 'sign-in' });
    expect(await as({ organizationId: 2 })).toEqual({ allowed: false, refusal: 'sign-in' });
    expect(await as(null)).toEqual({ allowed: false, refusal: 'sign-in' });
  });

  it('sends a client-only page’s visitor on a custom domain to the agency’s address', async () => {
    const onDomain = visitor({ onCustomDomain: true, person: async () => ({ organizationId: 1 }) });
    expect(await decideAccess(page({ mode: 'clients' }), onDomain)).toEqual({
      allowed: false,
      refusal: 'sign-in-at-agency',
    });
  });

  it('judges a person against the page’s organization and customer', () => {
    expect(personMaySee({ organizationId: 1, customerId: 10 }, null)).toBe(false);
    expect(personMaySee({ organizationId: 1, customerId: 10 }, { organizationId: 2, customerId: 10 })).toBe(
      false,
    );
  });
});
