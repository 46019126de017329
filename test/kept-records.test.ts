import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { OrganizationRepository, organizationRevisions } from '../libs/auth/index.js';
import { UserRepository, userRevisions } from '../libs/people/index.js';
import { findsDuring, useStores } from './support/stores.js';

// The notifier reads the organization (its default escalation policy) at every failure and the
// person it pages at every page: 10,800 MongoDB reads at 10,000 events a minute. It keeps them
// while their revisions hold; a write through the API's repository, another process, moves them.
describe('organizations and people kept while their revisions hold', () => {
  const stores = useStores({ monitorCommands: true });
  let db: Db;
  const prefix = `kept-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    db = stores.client.db();
  });

  const findsOf = (collection: string, run: () => Promise<unknown>) =>
    findsDuring(stores.client, collection, run);

  it('a person read once is read from memory until the API changes or deletes them', async () => {
    const api = new UserRepository(db, userRevisions(stores.redis, prefix));
    const notifier = new UserRepository(db, userRevisions(stores.redis, prefix));
    const user = await api.create(
      {
        organizationId: 4,
        email: `${randomUUID()}@example.com`,
        name: 'Ada',
        role: 'editor',
        customerId: null,
      },
      'hash',
    );
    expect(await findsOf('users', () => notifier.findKept(4, user.id))).toBe(1);
    expect(await findsOf('users', () => notifier.findKept(4, user.id))).toBe(0);
    // Another organization's reader never gets the copy.
    expect(await notifier.findKept(5, user.id)).toBeNull();
    await api.update(user, { name: 'Ada L.', role: 'client', customerId: 9 });
    expect(await notifier.findKept(4, user.id)).toMatchObject({ name: 'Ada L.', role: 'client' });
    await api.delete(user);
    expect(await notifier.findKept(4, user.id)).toBeNull();
  });

  it('an organization read once is read from memory until the API changes its default policy', async () => {
    const api = new OrganizationRepository(db, organizationRevisions(stores.redis, prefix));
    const notifier = new OrganizationRepository(db, organizationRevisions(stores.redis, prefix));
    const organization = await api.create('Agency');
    expect(await findsOf('organizations', () => notifier.findKept(organization.id))).toBe(1);
    expect(await findsOf('organizations', () => notifier.findKept(organization.id))).toBe(0);
    await api.update(organization.id, { escalationPolicyId: 12 });
    expect((await notifier.findKept(organization.id))?.escalationPolicyId).toBe(12);
    await api.setTwoFactorRequiredFor(organization.id, ['owner']);
    expect((await notifier.findKept(organization.id))?.requireTwoFactorFor).toEqual(['owner']);
  });

  it('readers missing the same copy at once share one read, and never another organization’s', async () => {
    const api = new UserRepository(db, userRevisions(stores.redis, prefix));
    const notifier = new UserRepository(db, userRevisions(stores.redis, prefix));
    const user = await api.create(
      {
        organizationId: 4,
        email: `${randomUUID()}@example.com`,
        name: 'Edsger',
        role: 'admin',
        customerId: null,
      },
      'hash',
    );
    let read: Array<unknown> = [];
    expect(
      await findsOf('users', async () => {
        read = await Promise.all(Array.from({ length: 20 }, () => notifier.findKept(4, user.id)));
      }),
    ).toBe(1);
    expect(read.every((found) => (found as { name: string } | null)?.name === 'Edsger')).toBe(true);
    await api.update(user, { name: 'E. W.' });
    const [own, other] = await Promise.all([notifier.findKept(4, user.id), notifier.findKept(5, user.id)]);
    expect(own?.name).toBe('E. W.');
    expect(other).toBeNull();
  });

  it('without revisions (the admin CLI), every read goes to MongoDB', async () => {
    const users = new UserRepository(db);
    const user = await users.create(
      {
        organizationId: 4,
        email: `${randomUUID()}@example.com`,
        name: 'Grace',
        role: 'admin',
        customerId: null,
      },
      'hash',
    );
    expect(await findsOf('users', () => users.findKept(4, user.id))).toBe(1);
    expect(await findsOf('users', () => users.findKept(4, user.id))).toBe(1);
  });
});
