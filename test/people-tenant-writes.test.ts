import { randomUUID } from 'node:crypto';
import { type CommandStartedEvent, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InvitationRepository,
  TwoFactorRepository,
  USERS,
  type User,
  UserRepository,
} from '../libs/people/index.js';
import type { SealedSecret } from '../libs/secrets/index.js';
import { uniqueMongoUrl } from './support/harness.js';

const OWN = 41;
const OTHER = 42;
const SEALED: SealedSecret = { v: 1, kid: '0'.repeat(16), iv: 'aXY', tag: 'dGFn', data: 'ZGF0YQ' };

/**
 * Writes to people's documents name the organization as well as the `_id`: one given another
 * organization's id changes nothing, and each still has the `_id` equality FerretDB 1.24 answers
 * from its primary key (any other filter scans the collection).
 */
describe('people: writes are scoped to the organization', () => {
  let client: MongoClient;
  const writes: Document[] = [];
  let users: UserRepository;
  let twoFactor: TwoFactorRepository;
  let invitations: InvitationRepository;
  let user: User;

  const stored = () =>
    client
      .db()
      .collection(USERS)
      .findOne({ _id: `u${user.id}` } as Document);
  const elsewhere = (): Pick<User, 'id' | 'organizationId' | 'email'> => ({ ...user, organizationId: OTHER });

  beforeAll(async () => {
    client = new MongoClient(uniqueMongoUrl(), { monitorCommands: true });
    client.on('commandStarted', (event: CommandStartedEvent) => {
      // The people's documents, not their `key_lookups` entries (keyed by `_id` alone).
      if (![USERS, 'invitations'].includes(event.command[event.commandName] as string)) return;
      if (event.commandName === 'update')
        for (const update of event.command.updates as Document[]) writes.push(update.q as Document);
      if (event.commandName === 'delete')
        for (const deletion of event.command.deletes as Document[]) writes.push(deletion.q as Document);
    });
    await client.connect();
    users = new UserRepository(client.db());
    twoFactor = new TwoFactorRepository(client.db());
    invitations = new InvitationRepository(client.db());
  });
  afterAll(async () => {
    await client?.db().dropDatabase();
    await client?.close();
  });
  beforeEach(async () => {
    user = await users.create(
      {
        organizationId: OWN,
        email: `person-${randomUUID().slice(0, 8)}@example.com`,
        name: 'A person',
        role: 'editor',
        customerId: null,
      },
      'hash',
    );
    writes.length = 0;
  });

  const expectPrimaryKeyWrites = () => {
    expect(writes.length).toBeGreaterThan(0);
    for (const filter of writes) {
      expect(filter._id).toEqual(expect.any(String));
      expect(filter.organizationId).toEqual(expect.any(Number));
    }
  };

  it('updates a user of the organization only', async () => {
    await users.update(elsewhere(), { name: 'Renamed elsewhere' });
    expect(await stored()).toMatchObject({ name: 'A person' });
    await users.update(user, { name: 'Renamed' });
    expect(await stored()).toMatchObject({ name: 'Renamed' });
    expectPrimaryKeyWrites();
  });

  it('deletes a user of the organization only, and keeps their e-mail entry until then', async () => {
    expect(await users.delete(elsewhere())).toBe(false);
    expect(await stored()).not.toBeNull();
    expect(await users.findByEmail(user.email)).toMatchObject({ id: user.id });
    expect(await users.delete(user)).toBe(true);
    expect(await stored()).toBeNull();
    expect(await users.findByEmail(user.email)).toBeNull();
    expectPrimaryKeyWrites();
  });

  it('changes the two-factor fields of a user of the organization only', async () => {
    const other = elsewhere();
    expect(await twoFactor.startEnrolment(other, SEALED)).toBe(false);
    expect((await stored())?.twoFactor).toBeUndefined();
    expect(await twoFactor.startEnrolment(user, SEALED)).toBe(true);

    expect(await twoFactor.enable(other, { step: 5, recoveryCodeHashes: ['h1', 'h2'] })).toBe(false);
    expect(await stored()).toMatchObject({ twoFactorEnabled: false, twoFactor: { enabledAt: null } });
    expect(await twoFactor.enable(user, { step: 5, recoveryCodeHashes: ['h1', 'h2'] })).toBe(true);

    expect(await twoFactor.claimStep(other, 6)).toBe(false);
    expect(await twoFactor.useRecoveryCode(other, 'h1')).toBe(false);
    expect(await stored()).toMatchObject({ twoFactor: { lastStep: 5, recoveryCodeHashes: ['h1', 'h2'] } });
    expect(await twoFactor.claimStep(user, 6)).toBe(true);
    expect(await twoFactor.useRecoveryCode(user, 'h1')).toBe(true);
    expect(await stored()).toMatchObject({ twoFactor: { lastStep: 6, recoveryCodeHashes: ['h2'] } });

    await twoFactor.disable(other);
    expect(await stored()).toMatchObject({ twoFactorEnabled: true });
    await twoFactor.disable(user);
    expect(await stored()).toMatchObject({ twoFactorEnabled: false });
    expect((await stored())?.twoFactor).toBeUndefined();
    expectPrimaryKeyWrites();
  });

  it('deletes an invitation of the organization only, and keeps its token entry until then', async () => {
    const { invitation } = await invitations.create({
      organizationId: OWN,
      email: 'invited@example.com',
      role: 'viewer',
      customerId: null,
    });
    writes.length = 0;
    expect(await invitations.delete({ ...invitation, organizationId: OTHER })).toBe(false);
    expect(await invitations.findById(OWN, invitation.id)).toMatchObject({ id: invitation.id });
    expect(await invitations.findByTokenHash(invitation.tokenHash)).toMatchObject({ id: invitation.id });
    expect(await invitations.delete(invitation)).toBe(true);
    expect(await invitations.findById(OWN, invitation.id)).toBeNull();
    expect(await invitations.findByTokenHash(invitation.tokenHash)).toBeNull();
    expectPrimaryKeyWrites();
  });
});
