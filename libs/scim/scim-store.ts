import type { Db, Filter } from 'mongodb';
import { type CollectionIndexes, nextId, TenantCollection } from '../db/index.js';

/**
 * What SCIM says of people that webmon's users do not keep (their `externalId`, name parts and
 * e-mails as the client wrote them), and SCIM's groups with their members. Both by primary key
 * (`u<userId>`, `g<groupId>`); an organization's are read whole (a few hundred people and groups).
 */

export interface ScimEmail {
  value: string;
  type?: string | undefined;
  primary?: boolean | undefined;
}

export interface ScimPerson {
  organizationId: number;
  userId: number;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
  emails: ScimEmail[];
  updatedAt: Date;
}

export interface ScimGroup {
  organizationId: number;
  id: number;
  displayName: string;
  externalId: string | null;
  /** webmon user ids. */
  members: number[];
  /** Made by a customer's own provider's token: that customer's, seen by its tokens only (absent: the organization's). */
  customerId?: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SCIM_PEOPLE = 'scim_people';
export const SCIM_GROUPS = 'scim_groups';

/** An organization's people and groups are read whole (MongoDB; FerretDB 1.24 reads by `_id` only). */
export const scimStoreIndexes: CollectionIndexes[] = [
  {
    collection: SCIM_PEOPLE,
    indexes: [
      { key: { organizationId: 1 }, name: 'organization' },
      // A sync's `externalId eq` lookup per person.
      { key: { organizationId: 1, externalId: 1 }, name: 'organization_external_id' },
    ],
  },
  { collection: SCIM_GROUPS, indexes: [{ key: { organizationId: 1, id: 1 }, name: 'organization_id' }] },
];

type Stored<T> = T & { _id: string };
const personKey = (userId: number) => `u${userId}`;
const groupKey = (id: number) => `g${id}`;

function strip<T>(document: Stored<T> | null): T | null {
  if (!document) return null;
  const { _id, ...rest } = document;
  return rest as T;
}

export class ScimStore {
  private readonly people: TenantCollection<Stored<ScimPerson>>;
  private readonly groups: TenantCollection<Stored<ScimGroup>>;

  constructor(private readonly db: Db) {
    this.people = new TenantCollection(db.collection<Stored<ScimPerson>>(SCIM_PEOPLE));
    this.groups = new TenantCollection(db.collection<Stored<ScimGroup>>(SCIM_GROUPS));
  }

  async person(organizationId: number, userId: number): Promise<ScimPerson | null> {
    return strip(await this.people.findOneByKey(organizationId, personKey(userId)));
  }

  async peopleOf(organizationId: number): Promise<ScimPerson[]> {
    const found = await this.people.find(organizationId, {}).toArray();
    return found.map((person) => strip(person) as ScimPerson);
  }

  /** The organization's people holding this externalId (one, unless one was removed since). */
  async peopleWithExternalId(organizationId: number, externalId: string): Promise<ScimPerson[]> {
    const found = await this.people
      .find(organizationId, { externalId } as Filter<Stored<ScimPerson>>)
      .toArray();
    return found.map((person) => strip(person) as ScimPerson);
  }

  async putPerson(person: ScimPerson): Promise<void> {
    await this.people.collection.replaceOne(
      { _id: personKey(person.userId), organizationId: person.organizationId } as Filter<Stored<ScimPerson>>,
      person,
      { upsert: true },
    );
  }

  /** Forgets a removed person: their SCIM attributes and their place in every group. */
  async removePerson(organizationId: number, userId: number): Promise<void> {
    await this.people.deleteOne(organizationId, { _id: personKey(userId) } as Filter<Stored<ScimPerson>>);
    for (const group of await this.groupsOf(organizationId))
      if (group.members.includes(userId))
        await this.putGroup({ ...group, members: group.members.filter((member) => member !== userId) });
  }

  async group(organizationId: number, id: number): Promise<ScimGroup | null> {
    return strip(await this.groups.findOneByKey(organizationId, groupKey(id)));
  }

  /** The organization's groups, oldest first. */
  async groupsOf(organizationId: number): Promise<ScimGroup[]> {
    const found = await this.groups.find(organizationId, {}, { sort: { id: 1 } }).toArray();
    return found.map((group) => strip(group) as ScimGroup);
  }

  async createGroup(input: Omit<ScimGroup, 'id' | 'createdAt' | 'updatedAt'>): Promise<ScimGroup> {
    const now = new Date();
    const group: ScimGroup = {
      ...input,
      id: await nextId(this.db, SCIM_GROUPS),
      createdAt: now,
      updatedAt: now,
    };
    await this.groups.insertOne({ ...group, _id: groupKey(group.id) });
    return group;
  }

  async putGroup(group: ScimGroup): Promise<ScimGroup> {
    const updated = { ...group, updatedAt: new Date() };
    await this.groups.collection.replaceOne(
      { _id: groupKey(group.id), organizationId: group.organizationId } as Filter<Stored<ScimGroup>>,
      updated,
    );
    return updated;
  }

  async removeGroup(organizationId: number, id: number): Promise<boolean> {
    return this.groups.deleteOne(organizationId, { _id: groupKey(id) } as Filter<Stored<ScimGroup>>);
  }
}
