import type { Db, Filter } from 'mongodb';
import { type CollectionIndexes, KeyLookup, nextId, TenantCollection } from '../db/index.js';
import { KeptRecords, type Redis, Revisions } from '../redis/index.js';
import { type NewUser, newUser, storedUser, type User } from './user.schema.js';

export const USERS = 'users';

type StoredUser = User & { _id: string };

/** The primary key of a user document: sessions find their user by it on every request. */
export const userKey = (id: number) => `u${id}`;

/**
 * Users by e-mail (every sign-in) in two primary-key reads, whatever the number of users. "Unknown"
 * is not cached: users are made by the admin CLI in another process.
 */
const emailLookup = (db: Db) => new KeyLookup<StoredUser>(db, { collection: USERS, keyField: 'email' });

export const userIndexes: CollectionIndexes = {
  collection: USERS,
  indexes: [
    { key: { email: 1 }, unique: true, name: 'email_unique' },
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
  ],
  backfill: (db) => emailLookup(db).backfill(),
};

const parse = (document: unknown): User | null => (document ? storedUser.parse(document) : null);

/** Each user's revision, moved by every write of the user here. */
export function userRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:user-rev`);
}

/** People a process keeps for `findKept`, and how long a copy may go unchecked by a write's revision. */
const PEOPLE_KEPT = 10_000;
const PERSON_MAX_AGE_MS = 60_000;

export class UserRepository {
  private readonly users: TenantCollection<StoredUser>;
  private readonly emails: KeyLookup<StoredUser>;
  /** Copies for the notifier, which reads the person it pages at every page. */
  private readonly kept: KeptRecords<User> | null;

  /**
   * `revisions`: where this process moves a user's revision at every write here. The admin CLI has
   * no Redis: its writes move none, and kept copies elsewhere see them within a minute.
   */
  constructor(
    private readonly db: Db,
    revisions?: Revisions,
  ) {
    this.users = new TenantCollection(db.collection<StoredUser>(USERS));
    this.emails = emailLookup(db);
    this.kept = revisions
      ? new KeptRecords(revisions, { capacity: PEOPLE_KEPT, maxAgeMs: PERSON_MAX_AGE_MS })
      : null;
  }

  /** Stores a new user; `KeyTakenError` when the e-mail is taken. */
  async create(input: NewUser, passwordHash: string): Promise<User> {
    const fields = newUser.parse(input);
    const now = new Date();
    const user: User = {
      ...fields,
      id: await nextId(this.db, USERS),
      passwordHash,
      passwordChangedAt: now,
      createdAt: now,
      lastSignInAt: null,
      twoFactorEnabled: false,
    };
    const _id = userKey(user.id);
    await this.emails.claim(user.email, _id, () => this.users.insertOne({ ...user, _id }));
    return user;
  }

  /** Any organization's user by (normalized) e-mail: how a person signing in is found. */
  async findByEmail(email: string): Promise<User | null> {
    return parse(await this.emails.find(email, { projection: { _id: 0 } }));
  }

  /** One primary-key read, checked against the organization. */
  async findById(organizationId: number, id: number): Promise<User | null> {
    return parse(await this.users.findOneByKey(organizationId, userKey(id), { projection: { _id: 0 } }));
  }

  /**
   * As `findById`, from a copy kept while the user's revision holds (one Redis read): for who a
   * person is (name, role). Two-factor fields are written elsewhere and may be older here.
   */
  async findKept(organizationId: number, id: number): Promise<User | null> {
    if (!this.kept) return this.findById(organizationId, id);
    return this.kept.get(
      id,
      (user) => user.organizationId === organizationId,
      () => this.findById(organizationId, id),
    );
  }

  /** The organization's users, oldest first (bounded per organization, read by admins only). */
  async list(organizationId: number): Promise<User[]> {
    const found = await this.users
      .find(organizationId, {}, { projection: { _id: 0 }, sort: { id: 1 } })
      .toArray();
    return found.map((user) => storedUser.parse(user));
  }

  /** Owners who can sign in (not deactivated): the ones the owner rules keep at least one of. */
  countOwners(organizationId: number): Promise<number> {
    return this.users.countDocuments(organizationId, {
      role: 'owner',
      disabledAt: null,
    } as Filter<StoredUser>);
  }

  /**
   * The filter of a write to a user the caller has just read in its organization: the `_id` (the one
   * filter FerretDB does not scan for) and the organization, so a write never reaches another
   * organization's user.
   */
  private byKey(user: Pick<User, 'id' | 'organizationId'>): Filter<StoredUser> {
    return { _id: userKey(user.id), organizationId: user.organizationId } as Filter<StoredUser>;
  }

  /** Changes fields of a user the caller has just read in `user.organizationId`. */
  async update(
    user: Pick<User, 'id' | 'organizationId'>,
    changes: Partial<
      Pick<
        User,
        | 'name'
        | 'role'
        | 'customerId'
        | 'passwordHash'
        | 'passwordChangedAt'
        | 'lastSignInAt'
        | 'identities'
        | 'disabledAt'
      >
    >,
  ): Promise<void> {
    await this.users.collection.updateOne(this.byKey(user), { $set: changes });
    await this.kept?.changed(user.id);
  }

  /** Deletes the document (if it is the organization's), then its e-mail entry; false when none was deleted. */
  async delete(user: Pick<User, 'id' | 'email' | 'organizationId'>): Promise<boolean> {
    const { deletedCount } = await this.users.collection.deleteOne(this.byKey(user));
    await this.kept?.changed(user.id);
    if (deletedCount === 0) return false;
    await this.emails.release(user.email, userKey(user.id));
    return true;
  }
}
