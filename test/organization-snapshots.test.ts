import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ContactMethodRepository, contactMethodRevisions } from '../libs/contact-methods/index.js';
import { EscalationPolicyRepository, policyRevisions } from '../libs/escalation/index.js';
import { useStores } from './support/stores.js';

/**
 * Escalation policies and contact methods a notifier keeps per organization while its revision
 * holds, on real FerretDB and Redis: a write through another process's repository (the API's)
 * shows at the next read, and an organization's copy is never another's.
 */
describe("an organization's policies and contact methods, kept while their revisions hold", () => {
  const stores = useStores();
  const prefix = `snapshots-${randomUUID()}`;
  const organizationId = 51;

  it('shows contact methods added, verified and deleted elsewhere at the next read', async () => {
    const methods = () =>
      new ContactMethodRepository(stores.client.db(), contactMethodRevisions(stores.redis, prefix));
    const notifier = methods();
    const api = methods();
    expect(await notifier.ofUser(organizationId, 7)).toEqual([]);
    const added = await api.create({
      organizationId,
      userId: 7,
      type: 'sms',
      address: '+15550100',
      label: null,
      hours: null,
      events: ['alert'],
      verifiedAt: null,
      code: { digest: 'd', salt: 's', expiresAt: new Date(Date.now() + 60_000), failures: 0, sentAt: [] },
    });
    expect((await notifier.ofUser(organizationId, 7)).map((m) => m.verifiedAt)).toEqual([null]);
    const at = new Date();
    expect(
      await api.markVerified(organizationId, added.id, added.code as NonNullable<typeof added.code>, at),
    ).toBe(true);
    expect((await notifier.ofUser(organizationId, 7)).map((m) => m.verifiedAt)).toEqual([at]);
    expect(await notifier.ofUser(organizationId + 1, 7)).toEqual([]);
    expect(await api.delete(organizationId, added.id)).toBe(true);
    expect(await notifier.ofUser(organizationId, 7)).toEqual([]);
  });

  it('shows a policy changed elsewhere at the next read', async () => {
    const policies = () =>
      new EscalationPolicyRepository(stores.client.db(), policyRevisions(stores.redis, prefix));
    const notifier = policies();
    const api = policies();
    const created = await api.create({
      organizationId,
      name: 'Night',
      steps: [{ targets: [{ channel: 1 }], waitMinutes: 5 }],
      repeat: 0,
    });
    expect((await notifier.findById(organizationId, created.id))?.name).toBe('Night');
    await api.replace({ ...created, name: 'Night shift' });
    expect((await notifier.findById(organizationId, created.id))?.name).toBe('Night shift');
    expect(await notifier.findById(organizationId + 1, created.id)).toBeNull();
    expect(await api.delete(organizationId, created.id)).toBe(true);
    expect(await notifier.findById(organizationId, created.id)).toBeNull();
  });
});
