import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../apps/api/api.js';
import { createLogger } from '../libs/logging/index.js';
import {
  EXPIRED_INVITATION_KEPT_MS,
  InvitationRepository,
  Invitations,
  peopleMailRoutes,
  UserRepository,
} from '../libs/people/index.js';
import { TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

const DAY = 24 * 3600_000;

/** Invitations that can no longer be used are deleted with their token's key_lookups entry. */
describe('people: invitations expired or used are purged', () => {
  let api: TestApi;
  let organizationId: number;
  let repository: InvitationRepository;

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    repository = new InvitationRepository(api.db);
  });
  afterAll(() => api.stop());

  const invite = (email: string, ttlMs: number) =>
    repository.create({ organizationId, email, role: 'viewer', customerId: null }, ttlMs);
  const lookupEntry = (tokenHash: string) =>
    api.db.collection('key_lookups').findOne({ _id: `invitations.tokenHash/${tokenHash}` as never });

  const seed = async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const lapsedLongAgo = await invite(`old-${tag}@example.com`, -(EXPIRED_INVITATION_KEPT_MS + DAY));
    const lapsedLately = await invite(`lately-${tag}@example.com`, -DAY);
    const live = await invite(`live-${tag}@example.com`, 72 * 3600_000);
    const user = await createUser(api, organizationId, 'viewer');
    const used = await invite(user.email, 72 * 3600_000);
    // An account in another organization: kept until it lapses, as if unanswered (no hint to the inviter).
    const elsewhere = await createUser(api, await createOrganizationId(api), 'viewer');
    const heldElsewhere = await invite(elsewhere.email, 72 * 3600_000);
    return { gone: [lapsedLongAgo, used], kept: [lapsedLately, live, heldElsewhere] };
  };
  const expectPurged = async ({ gone, kept }: Awaited<ReturnType<typeof seed>>) => {
    for (const { invitation } of gone) {
      expect(await repository.findById(organizationId, invitation.id)).toBeNull();
      expect(await lookupEntry(invitation.tokenHash)).toBeNull();
    }
    for (const { invitation } of kept) {
      expect(await repository.findById(organizationId, invitation.id)).not.toBeNull();
      expect(await lookupEntry(invitation.tokenHash)).not.toBeNull();
    }
  };

  it('deletes those expired a week ago and those whose e-mail has an account in their organization, a bounded batch a pass', async () => {
    const seeded = await seed();
    const invitations = new Invitations({
      invitations: repository,
      users: new UserRepository(api.db),
      passwords: {
        check: async () => Promise.reject(new Error('unused')),
        hash: async () => Promise.reject(new Error('unused')),
      },
      sessions: { openSession: async () => Promise.reject(new Error('unused')) },
      mailRoutes: peopleMailRoutes({ smtp: null }),
      mail: api.config,
      customerExists: async () => true,
      log: createLogger('test', 'silent'),
      mailBudget: { take: async () => undefined },
      resendAfterMs: 600_000,
    });
    // Two at a time: the passes go on from the last id, then start again from the first.
    let afterId = 0;
    let purged = 0;
    let passes = 0;
    do {
      const pass = await invitations.purge(new Date(), afterId, 2);
      afterId = pass.nextAfterId;
      purged += pass.expired + pass.used;
      passes++;
    } while (afterId !== 0);
    expect(passes).toBeGreaterThan(1);
    expect(purged).toBe(2);
    await expectPurged(seeded);
  });

  it('the API process purges them when it starts (then every hour)', async () => {
    const seeded = await seed();
    const second = await startApi(api.config, createLogger('api', 'silent'));
    try {
      const deadline = Date.now() + 10_000;
      while (
        (await repository.findById(organizationId, seeded.gone[0]!.invitation.id)) &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      await expectPurged(seeded);
    } finally {
      await second.stop();
    }
  });
});
