import type { Db, Filter } from 'mongodb';
import { type CollectionIndexes, KeyLookup, nextId, TenantCollection } from '../db/index.js';
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

export class UserRepository {
  private readonly users: TenantCollection<StoredUser>;
  private readonly emails: KeyLookup<StoredUser>;

  constructor(private readonly db: Db) {
    this.users = new TenantCollection(db.collection<StoredUser>(USERS));
    this.emails = emailLookup(db);
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

  /** The organization's users, oldest first (bounded per organization, read by admins only). */
  async list(organizationId: number): Promise<User[]> {
    const found = await this.users
      .find(organizationId, {}, { projection: { _id: 0 }, sort: { id: 1 } })
      .toArray();
    return found.map((user) => storedUser.parse(user));
  }

  countOwners(organizationId: number): Promise<number> {
    return this.users.countDocuments(organizationId, { role: 'owner' });
  }

  /**
   * Changes fields of a user the caller has just read in `organizationId` (by its `_id` alone, the
   * one filter FerretDB does not scan for).
   */
  async update(
    user: Pick<User, 'id'>,
    changes: Partial<
      Pick<User, 'name' | 'role' | 'customerId' | 'passwordHash' | 'passwordChangedAt' | 'lastSignInAt'>
    >,
  ): Promise<void> {
    await this.users.collection.updateOne({ _id: userKey(user.id) } as Filter<StoredUser>, { $set: changes });
  }

  /** Deletes the document, then its e-mail entry. */
  async delete(user: Pick<User, 'id' | 'email'>): Promise<void> {
    await this.users.collection.deleteOne({ _id: userKey(user.id) } as Filter<StoredUser>);
    await this.emails.release(user.email, userKey(user.id));
  }
}
