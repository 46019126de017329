import type { Collection, Db } from 'mongodb';
import { isDuplicateKey, KEY_LOOKUPS } from '../db/index.js';

interface WebsiteCountDocument {
  _id: string;
  organizationId: number;
  customerId: number;
  count: number;
  /** The customer's websites; absent on counters stored before it was kept (added at start). */
  websiteIds?: number[];
}

const WEBSITE_COUNTS = 'website_counts';

const counterKey = (customerId: number) => `c${customerId}`;

/**
 * Says the counters' website ids were backfilled in this database. Kept in `key_lookups` beside the
 * lookups' own `~backfilled/…` markers, read by `_id` (one primary-key read at each start): data an
 * older version left has neither these markers nor the website ids, and is backfilled.
 */
const WEBSITE_IDS_BACKFILLED = '~backfilled/website_counts.websiteIds';

/**
 * Says every customer with websites has its counter (customers whose first website an older
 * version stored were counted at start): from then on a missing counter means no websites yet.
 */
const EVERY_CUSTOMER_COUNTED = '~backfilled/website_counts.customers';

/** What the start-up backfills need of each website. */
export type CountedWebsite = { id: number; customerId: number; organizationId: number };

interface BackfillMarker {
  _id: string;
  ref: string;
}

/**
 * How many websites each customer has, and which, kept beside the websites so the maxWebsites
 * check is one primary-key read and a customer's websites (its status page) are read by primary
 * key: counting or listing them scanned the collection on the embedded FerretDB (about 0.3 s at
 * 1,000 websites, 0.8 s at 10,000). Writers hold the customer's lock. A website joins its counter
 * before the insert and leaves it after the delete, so a crash in between leaves it counted (and
 * listed: readers skip ids whose website is gone or now another customer's) until `recount` puts
 * it right. A customer's counter starts with its first website (every customer with websites has
 * one: `backfillCounters`).
 */
export class WebsiteCounts {
  private readonly counts: Collection<WebsiteCountDocument>;
  private readonly markers: Collection<BackfillMarker>;

  /** Whether EVERY_CUSTOMER_COUNTED was seen (a marker is never removed). */
  private everyCounted = false;

  constructor(db: Db) {
    this.counts = db.collection<WebsiteCountDocument>(WEBSITE_COUNTS);
    this.markers = db.collection<BackfillMarker>(KEY_LOOKUPS);
  }

  /** Whether a missing counter means no websites (see EVERY_CUSTOMER_COUNTED): a primary-key read until it does. */
  private async everyCustomerCounted(): Promise<boolean> {
    this.everyCounted ||= (await this.markers.findOne({ _id: EVERY_CUSTOMER_COUNTED })) !== null;
    return this.everyCounted;
  }

  /**
   * The customer's website count. A customer without a counter starts one at 0 (its first website,
   * a website moved to it) once every customer is known to be counted; before that its websites
   * are counted (a scan).
   */
  async get(organizationId: number, customerId: number, listNow: () => Promise<number[]>): Promise<number> {
    const counter = await this.counts.findOne({ _id: counterKey(customerId) });
    if (counter) return counter.count;
    if (!(await this.everyCustomerCounted())) return this.recount(organizationId, customerId, listNow);
    await this.start({ organizationId, customerId, websiteIds: [] });
    return 0;
  }

  /** A counter for a customer that has none; one already there (another writer's) is kept. */
  private async start(counter: { organizationId: number; customerId: number; websiteIds: number[] }) {
    await this.counts
      .insertOne({ _id: counterKey(counter.customerId), ...counter, count: counter.websiteIds.length })
      .catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
  }

  /** The ids the customer's counter lists (maybe some of websites since gone); null when it lists none yet. */
  async websiteIdsOf(organizationId: number, customerId: number): Promise<number[] | null> {
    const counter = await this.counts.findOne({ _id: counterKey(customerId) });
    if (!counter) return (await this.everyCustomerCounted()) ? [] : null;
    if (counter.organizationId !== organizationId) return null;
    return counter.websiteIds ?? null;
  }

  /** Sets the counter from the websites themselves (its first use, and repairs). */
  async recount(
    organizationId: number,
    customerId: number,
    listNow: () => Promise<number[]>,
  ): Promise<number> {
    const websiteIds = await listNow();
    await this.counts.replaceOne(
      { _id: counterKey(customerId) },
      { organizationId, customerId, count: websiteIds.length, websiteIds },
      { upsert: true },
    );
    return websiteIds.length;
  }

  /** The website is the customer's from now (before it is stored or moved there); a missing counter is counted when next read. */
  async joined(customerId: number, websiteId: number): Promise<void> {
    await this.joinedMany(customerId, [websiteId]);
  }

  /** These websites are the customer's from now (a batch): one write. */
  async joinedMany(customerId: number, websiteIds: readonly number[]): Promise<void> {
    await this.counts.updateOne(
      { _id: counterKey(customerId) },
      { $inc: { count: websiteIds.length }, $addToSet: { websiteIds: { $each: [...websiteIds] } } },
    );
  }

  /** The website is no longer the customer's (after it is deleted or moved away). */
  async left(customerId: number, websiteId: number): Promise<void> {
    await this.counts.updateOne(
      { _id: counterKey(customerId) },
      { $inc: { count: -1 }, $pull: { websiteIds: websiteId } },
    );
  }

  /** Every stored counter: what the reconciler compares with the websites it lists. */
  async all(): Promise<WebsiteCountDocument[]> {
    return this.counts.find({}).toArray();
  }

  /**
   * Adds the website ids to counters stored before they were kept (at start), once per database: a
   * marker written when it is done makes later starts skip it (one primary-key read instead of a
   * scan of the counters). Added to what is there, never replacing it, so a website joining
   * meanwhile is kept; an id deleted meanwhile may come back, which readers skip and a recount
   * drops. Idempotent: processes starting at once may both run it; the marker is written only after
   * a complete run (a crash before it means the next start runs it again), and a second insert of
   * it is no error. A counter an older process writes after the marker lists no ids: it is read by
   * its customer's filter until recounted.
   */
  async backfillWebsiteIds(allWebsites: () => Promise<CountedWebsite[]>) {
    if (await this.markers.findOne({ _id: WEBSITE_IDS_BACKFILLED })) return;
    const lacking = await this.counts.find({ websiteIds: { $exists: false } }).toArray();
    if (lacking.length > 0) {
      const byCustomer = new Map<number, number[]>();
      for (const website of await allWebsites())
        byCustomer.set(website.customerId, [...(byCustomer.get(website.customerId) ?? []), website.id]);
      for (const counter of lacking) {
        const ids = byCustomer.get(counter.customerId) ?? [];
        await this.counts.updateOne(
          ids.length > 0 ? { _id: counter._id } : { _id: counter._id, websiteIds: { $exists: false } },
          // FerretDB 1.24 adds no field for an empty $each: a customer without websites gets its list set.
          ids.length > 0 ? { $addToSet: { websiteIds: { $each: ids } } } : { $set: { websiteIds: [] } },
        );
      }
    }
    await this.mark(WEBSITE_IDS_BACKFILLED);
  }

  /**
   * Starts the counter of every customer with websites but none (an older version counted a
   * customer at its first website's create, by a scan), once per database, then says so
   * (EVERY_CUSTOMER_COUNTED). Idempotent as `backfillWebsiteIds`: a counter made meanwhile (a
   * create's count) is kept, the marker is written after a complete run.
   */
  async backfillCounters(allWebsites: () => Promise<CountedWebsite[]>): Promise<void> {
    if (await this.everyCustomerCounted()) return;
    const byCustomer = new Map<number, { organizationId: number; websiteIds: number[] }>();
    for (const { id, customerId, organizationId } of await allWebsites()) {
      const counted = byCustomer.get(customerId) ?? { organizationId, websiteIds: [] };
      counted.websiteIds.push(id);
      byCustomer.set(customerId, counted);
    }
    const stored = new Set(
      (await this.counts.find({}, { projection: { customerId: 1 } }).toArray()).map((c) => c.customerId),
    );
    for (const [customerId, counted] of byCustomer)
      if (!stored.has(customerId)) await this.start({ customerId, ...counted });
    await this.mark(EVERY_CUSTOMER_COUNTED);
  }

  /** A backfill's marker; a second insert of it (another process's) is no error. */
  private async mark(marker: string): Promise<void> {
    await this.markers.insertOne({ _id: marker, ref: marker }).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  }
}
