import type { Db } from 'mongodb';
import type { AppConfig } from '../config/index.js';
import { type CustomerDocument, CustomerRepository, customerRevisions } from '../customers/index.js';
import type { ListRevisions } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import { CheckFeed } from '../monitoring/index.js';
import { type PackageDocument, PackageRepository, packageRevisions } from '../packages/index.js';
import { type Redis, Revisions } from '../redis/index.js';
import { type WebsiteDocument, WebsiteRepository, websiteRevisions } from '../websites/index.js';

/** Copies of a kind of record a process keeps in memory, each told of a write with its revision. */
export class WrittenCopies<T> {
  private readonly copies: Array<{ written(record: T, revision: string): void }> = [];

  /** Tells `copy` of every write from now on (a cache is built after the repository it reads). */
  keptBy<C extends { written(record: T, revision: string): void }>(copy: C): C {
    this.copies.push(copy);
    return copy;
  }

  written(record: T, revision: string): void {
    for (const copy of this.copies) copy.written(record, revision);
  }
}

/** The records whose writes move a revision in Redis (so copies kept in memory anywhere see them). */
export interface Records {
  mutex: RedisMutex;
  packages: PackageRepository;
  customers: CustomerRepository;
  websites: WebsiteRepository;
  revisions: { packages: Revisions; customers: Revisions; websites: Revisions };
  copies: {
    packages: WrittenCopies<PackageDocument>;
    customers: WrittenCopies<CustomerDocument>;
    websites: WrittenCopies<WebsiteDocument>;
  };
}

/** The revised repositories of one process, over its connections and a lock of its own. */
export function createRecords(deps: { db: Db; redis: Redis; config: AppConfig; logger: Logger }): Records {
  const { db, redis, logger } = deps;
  const prefix = deps.config.REDIS_KEY_PREFIX;
  const mutex = new RedisMutex(redis, prefix);
  const revisions = {
    packages: packageRevisions(redis, prefix),
    customers: customerRevisions(redis, prefix),
    websites: websiteRevisions(redis, prefix),
  };
  const copies = {
    packages: new WrittenCopies<PackageDocument>(),
    customers: new WrittenCopies<CustomerDocument>(),
    websites: new WrittenCopies<WebsiteDocument>(),
  };
  /**
   * A revision moved after a write; a failure is logged rather than failing the write, which is
   * stored: the copies kept in memory then show the record as before for their few minutes at most.
   */
  const bumpOrWarn = async (of: Revisions, id: number, what: string): Promise<string | null> => {
    try {
      return await of.bump(id);
    } catch (error) {
      logger.warn(
        { err: errorMessage(error), record: what, id },
        `could not move the ${what}'s revision: copies kept in memory may show it as before for a few minutes`,
      );
      return null;
    }
  };
  // What the open overviews read again: a website's or a customer's row changed (not waited for).
  const feed = new CheckFeed(redis, prefix, logger);
  const listRevisions = new Revisions(redis, `${prefix}:website-list-rev`);
  // Each organization's website list's revision (its copies kept by the API's list pages).
  const websiteLists: ListRevisions = {
    current: (organizationId) => listRevisions.current(organizationId),
    bump: (organizationId) => bumpOrWarn(listRevisions, organizationId, 'website list'),
  };
  return {
    mutex,
    packages: new PackageRepository(db, async (id, written) => {
      const revision = await bumpOrWarn(revisions.packages, id, 'package');
      if (written && revision) copies.packages.written(written, revision);
    }),
    customers: new CustomerRepository(db, async (id, written) => {
      const revision = await bumpOrWarn(revisions.customers, id, 'customer');
      if (written && revision) copies.customers.written(written, revision);
      if (written)
        void feed.changed({ kind: 'customer', organizationId: written.organizationId, customerId: id });
    }),
    websites: new WebsiteRepository(
      db,
      async (id, written, shown) => {
        const revision = await revisions.websites.bump(id);
        if (written) copies.websites.written(written, revision);
        if (shown) void feed.changed({ kind: 'website', websiteId: id, ...shown });
      },
      // Each organization's list of website ids is written by one process at a time.
      (organizationId, work) => mutex.withLock(`website-list:${organizationId}`, work),
      websiteLists,
    ),
    revisions,
    copies,
  };
}
