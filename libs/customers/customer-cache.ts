import { type Redis, RevisedMemory, Revisions } from '../redis/index.js';
import type { CustomerDocument, CustomerRepository } from './customer.repository.js';

/** Each customer's revision (`Revisions`), bumped after every write to it. */
export function customerRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:customer-rev`);
}

/**
 * A copy whose revision still holds is read again after this long: a write that did not move the
 * revision (Redis did not answer, a process of an older version) shows within it.
 */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Customers an API process keeps in memory for its lists of websites (each says whether its
 * website's customer is cancelled) and its website writes (each checked against its customer):
 * a page of websites costs one Redis MGET for their customers instead of a MongoDB read each, a
 * write a GET, and MongoDB is read again only for customers written since.
 */
export class CustomerCache {
  private readonly entries: RevisedMemory<CustomerDocument>;

  constructor(
    private readonly customers: CustomerRepository,
    revisions: Revisions,
    /** Customers kept at most; the least recently stored go first. */
    capacity: number,
  ) {
    this.entries = new RevisedMemory(revisions, capacity, MAX_AGE_MS);
  }

  /** The organization's customers of these ids (those that exist), by id. */
  async findByIds(organizationId: number, ids: readonly number[]): Promise<CustomerDocument[]> {
    const found = await this.entries.readMany(
      [...new Set(ids)],
      (customer) => customer.organizationId === organizationId,
      (missing) => this.customers.findByIds(organizationId, missing),
    );
    return [...found.values()].sort((a, b) => a.id - b.id);
  }

  /** The organization's customer of this id, as stored now (null: none). */
  async findById(organizationId: number, id: number): Promise<CustomerDocument | null> {
    return (await this.findByIds(organizationId, [id]))[0] ?? null;
  }

  /** The customer as this process just wrote it, under the revision its write set. */
  written(customer: CustomerDocument, revision: string): void {
    this.entries.store(customer, revision);
  }
}
