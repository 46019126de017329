import type { Db, Filter, UpdateFilter } from 'mongodb';
import {
  type KeyLookup,
  type ListRevisions,
  nextIds,
  OrderedIdChunks,
  type OwnerSerializer,
  publicReads,
  readFanOut,
  serializedInProcess,
  TenantCollection,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import type { ResealReport, SecretBox } from '../secrets/index.js';
import { WebsiteCounts } from './website-counts.js';
import {
  type ShownWrite,
  shownWrite,
  type Unmonitored,
  type WebsiteDocument,
  type WebsiteSchedulingFields,
  type WebsiteStatusFields,
  websiteKey,
} from './website-document.js';
import { publicIdLookup, WEBSITES } from './website-indexes.js';
import { resealWebsiteSecrets, sealCredentialHeaders } from './website-resealing.js';

// The website's document and keys, re-exported: the library's index and its modules import them from here.
export * from './website-document.js';

/** The lock a website's writes and scheduling hold. */
export const websiteLock = (id: number) => `website:${id}`;
/** A list's websites are read by primary key this many at once. */
const LIST_READS_AT_ONCE = 16;
/** Ids a page asks its list for at a time (a page of 5,000 reads its websites in parts). */
const PAGE_IDS_AT_ONCE = 500;

export class WebsiteRepository {
  private readonly websites: TenantCollection<WebsiteDocument>;
  private readonly counts: WebsiteCounts;
  private readonly publicIds: KeyLookup<WebsiteDocument>;
  /** Each organization's website ids in order: its pages are read by primary key. */
  private readonly organizationLists: OrderedIdChunks;

  constructor(
    private readonly db: Db,
    /**
     * Told after every write to a website: its revision for the workers' caches, and (`shown`) whose
     * it is when what lists show of it changed, for the open overviews.
     */
    private readonly changed: (
      websiteId: number,
      written?: WebsiteDocument,
      shown?: ShownWrite,
    ) => Promise<void> = async () => undefined,
    /** Writers of one organization's website list, one at a time (API processes: a Redis lock). */
    serializeOrganization: OwnerSerializer = serializedInProcess(),
    /** The lists' revisions (Redis): pages then read a list from memory while it did not change. */
    listRevisions?: ListRevisions,
  ) {
    this.websites = new TenantCollection(db.collection<WebsiteDocument>(WEBSITES));
    this.counts = new WebsiteCounts(db);
    this.publicIds = publicIdLookup(db);
    this.organizationLists = new OrderedIdChunks(db, `${WEBSITES}.organizationId`, {
      serialize: serializeOrganization,
      ...(listRevisions ? { revisions: listRevisions } : {}),
      listNow: async (organizationId) =>
        (await this.websites.find(organizationId, {}, { projection: { _id: 0, id: 1 } }).toArray()).map(
          (website) => website.id,
        ),
    });
  }

  /**
   * Stores new websites of one organization at once (a batch; the caller holds their customers'
   * locks): one write per customer's count, per chunk of the organization's list, for the publicId
   * entries and for the documents, instead of each of those per website.
   */
  async insertMany(organizationId: number, documents: readonly WebsiteDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const byCustomer = new Map<number, number[]>();
    for (const { customerId, id } of documents)
      byCustomer.set(customerId, [...(byCustomer.get(customerId) ?? []), id]);
    for (const [customerId, ids] of byCustomer) await this.counts.joinedMany(customerId, ids);
    const ids = documents.map((document) => document.id);
    await this.organizationLists.addMany(organizationId, ids);
    try {
      await this.publicIds.claimAll(
        documents.map((document) => ({ key: document.publicId, ref: websiteKey(document.id) })),
        () =>
          this.websites.collection.insertMany(
            documents.map((document) => ({ ...document, _id: websiteKey(document.id) }) as WebsiteDocument),
          ),
      );
    } catch (error) {
      // An ordered insert that failed midway kept the documents before the failure: they go too.
      await this.websites.collection.deleteMany({
        _id: { $in: documents.map((document) => websiteKey(document.id)) },
      } as unknown as Filter<WebsiteDocument>);
      for (const [customerId, customerIds] of byCustomer)
        for (const id of customerIds) await this.counts.left(customerId, id);
      for (const id of ids) await this.organizationLists.remove(organizationId, id);
      throw error;
    }
    for (const document of documents) await this.changed(document.id, document, shownWrite(document));
  }

  allocateIds(count: number): Promise<number[]> {
    return nextIds(this.db, WEBSITES, count);
  }

  /** By integer id or by publicId (UUID); each a primary-key read (or two). */
  async findByRef(
    organizationId: number,
    ref: { id: number } | { publicId: string },
  ): Promise<WebsiteDocument | null> {
    if ('id' in ref) return this.websites.findOneByKey(organizationId, websiteKey(ref.id), WITHOUT_MONGO_ID);
    // `_id` is projected out, so what comes back is the website itself.
    const website = (await this.publicIds.find(ref.publicId, WITHOUT_MONGO_ID)) as WebsiteDocument | null;
    return website?.organizationId === organizationId ? website : null;
  }

  /**
   * The id a ref names, without reading the website (a publicId through its lookup: from memory
   * once known); null when none does. The website read by that id must still be checked to hold
   * the publicId (`confirmPublicId` once it does).
   */
  async idOf(ref: { id: number } | { publicId: string }): Promise<number | null> {
    if ('id' in ref) return ref.id;
    const found = await this.publicIds.refOf(ref.publicId);
    const id = typeof found === 'string' && found.startsWith('w') ? Number(found.slice(1)) : Number.NaN;
    return Number.isSafeInteger(id) ? id : null;
  }

  confirmPublicId(website: WebsiteDocument): void {
    this.publicIds.confirm(website.publicId, websiteKey(website.id));
  }

  /** Any organization's website by its public id (badges: a public URL carries no token). */
  async findByPublicId(publicId: string): Promise<WebsiteDocument | null> {
    return (await this.publicIds.find(publicId, WITHOUT_MONGO_ID, publicReads)) as WebsiteDocument | null;
  }

  /** Every website of every organization, streamed in no particular order (a sort of 100,000 documents costs FerretDB minutes). */
  all(): AsyncIterable<WebsiteDocument> {
    return this.websites.collection.find({}, { projection: { _id: 0 } });
  }

  /** What decides the status the API reports, of every website (metrics; one scan of small documents). */
  statusFieldsOfAll(): AsyncIterable<WebsiteStatusFields> {
    return this.websites.collection.find<WebsiteStatusFields>(
      {},
      { projection: { _id: 0, id: 1, organizationId: 1, customerId: 1, paused: 1, unmonitored: 1 } },
    );
  }

  /**
   * What scheduling needs of every website, read whole before anyone works through it: a cursor
   * held open across a slow loop keeps FerretDB's SQLite from committing the checks' inserts.
   */
  schedulingFields(): Promise<WebsiteSchedulingFields[]> {
    return this.websites.collection
      .find<WebsiteSchedulingFields>(
        {},
        {
          projection: {
            _id: 0,
            id: 1,
            organizationId: 1,
            customerId: 1,
            checkInterval: 1,
            paused: 1,
            regions: 1,
            scheduledRegions: 1,
            unmonitored: 1,
          },
        },
      )
      .toArray();
  }

  /** Which of these ids are websites of the organization (one query). */
  async existingIds(organizationId: number, ids: number[]): Promise<Set<number>> {
    const found = await this.websites
      .find(organizationId, { id: { $in: ids } }, { projection: { _id: 0, id: 1 } })
      .toArray();
    return new Set(found.map((website) => website.id));
  }

  /**
   * The organization's websites (of one customer, if given) by id, after `afterId`, at most `limit`:
   * their ids from the organization's list (or the customer's counter), each website then read by
   * primary key, so a page costs the same at 100 websites and at 100,000.
   */
  async listPage(
    organizationId: number,
    options: { customerId?: number | undefined; afterId?: number | undefined; limit?: number | undefined },
    /** How the page's websites are read by id (an API process: through its `WebsiteCache`). */
    read: (organizationId: number, ids: readonly number[]) => Promise<WebsiteDocument[]> = (org, ids) =>
      this.findByIds(org, ids),
  ): Promise<WebsiteDocument[]> {
    const { customerId, afterId = 0, limit = Number.MAX_SAFE_INTEGER } = options;
    let idsAfter = (after: number, count: number) =>
      this.organizationLists.page(organizationId, after, count);
    if (customerId !== undefined) {
      const ids = await this.counts.websiteIdsOf(organizationId, customerId);
      // A counter without ids (stored before they were kept, not yet backfilled): its filter.
      if (!ids)
        return this.websites
          .find(
            organizationId,
            { customerId, id: { $gt: afterId } },
            { ...WITHOUT_MONGO_ID, sort: { id: 1 }, limit: Math.min(limit, 0x7fffffff) },
          )
          .toArray();
      const sorted = ids.sort((a, b) => a - b);
      idsAfter = async (after, count) => sorted.filter((id) => id > after).slice(0, count);
    }
    // Ids whose website is gone (a crash between the two writes) or moved are skipped, and more read.
    const found: WebsiteDocument[] = [];
    let after = afterId;
    while (found.length < limit) {
      const wanted = Math.min(limit - found.length, PAGE_IDS_AT_ONCE);
      const ids = await idsAfter(after, wanted);
      const websites = await read(organizationId, ids);
      found.push(...websites.filter((w) => customerId === undefined || w.customerId === customerId));
      if (ids.length < wanted) break;
      after = ids.at(-1) as number;
    }
    return found;
  }

  /** The customer's websites by id (every one: `listPage` without a limit). */
  listByCustomer(organizationId: number, customerId: number): Promise<WebsiteDocument[]> {
    return this.listPage(organizationId, { customerId });
  }

  /** Up to `limit` of the organization's website ids above `afterId`, ascending (from its list). */
  idsAfter(organizationId: number, afterId: number, limit: number): Promise<number[]> {
    return this.organizationLists.page(organizationId, afterId, limit);
  }

  /**
   * Websites by id of the organization, in the ids' order, those gone left out: a primary-key read
   * each (FerretDB 1.24 scans for `_id: {$in}`), a few at a time so thousands do not take the
   * pool's every connection; `_id` projected out: what comes back are websites.
   */
  async findByIds(organizationId: number, ids: readonly number[]): Promise<WebsiteDocument[]> {
    const reads = readFanOut(LIST_READS_AT_ONCE);
    const found = (await Promise.all(
      ids.map((id) =>
        reads.run(() => this.websites.findOneByKey(organizationId, websiteKey(id), WITHOUT_MONGO_ID)),
      ),
    )) as Array<WebsiteDocument | null>;
    return found.filter((website): website is WebsiteDocument => website !== null);
  }

  /** Ids of the organization's websites that list a notification channel. */
  async idsListingChannel(organizationId: number, channelId: number): Promise<number[]> {
    const found = await this.websites
      .find(organizationId, { notificationChannelIds: channelId }, { projection: { _id: 0, id: 1 } })
      .toArray();
    return found.map((website) => website.id);
  }

  /** Names of the organization's websites whose alerts follow an escalation policy of their own. */
  async namesWithEscalationPolicy(organizationId: number, policyId: number): Promise<string[]> {
    const found = await this.websites
      .find(organizationId, { escalationPolicyId: policyId }, { projection: { _id: 0, name: 1 } })
      .toArray();
    return found.map((website) => website.name);
  }

  countListingChannelOutsideCustomer(organizationId: number, channelId: number, customerId: number) {
    return this.websites.countDocuments(organizationId, {
      notificationChannelIds: channelId,
      customerId: { $ne: customerId },
    });
  }

  /** The ids the customer's counter lists (maybe some of websites since gone); null when it lists none yet. */
  customerWebsiteIds(organizationId: number, customerId: number): Promise<number[] | null> {
    return this.counts.websiteIdsOf(organizationId, customerId);
  }

  /** From the customer's counter (one primary-key read); counted from the websites when it has none. */
  countByCustomer(organizationId: number, customerId: number): Promise<number> {
    return this.counts.get(organizationId, customerId, () => this.idsOfCustomer(organizationId, customerId));
  }

  /** Counts the customer's websites themselves and stores that as its counter (the caller holds its lock). */
  recountCustomer(organizationId: number, customerId: number): Promise<number> {
    return this.counts.recount(organizationId, customerId, () =>
      this.idsOfCustomer(organizationId, customerId),
    );
  }

  /** Every customer's stored website counter. */
  storedCounts(): Promise<Array<{ organizationId: number; customerId: number; count: number }>> {
    return this.counts.all();
  }

  /** A website moves to another customer: the caller holds both customers' locks. */
  async moveCount(websiteId: number, fromCustomerId: number, toCustomerId: number): Promise<void> {
    await this.counts.joined(toCustomerId, websiteId);
    await this.counts.left(fromCustomerId, websiteId);
  }

  private async idsOfCustomer(organizationId: number, customerId: number): Promise<number[]> {
    const found = await this.websites
      .find(organizationId, { customerId }, { projection: { _id: 0, id: 1 } })
      .toArray();
    return found.map((website) => website.id);
  }

  /**
   * Writes every field but the identity ones; the caller holds the website's lock (and has read it).
   * `alongside` runs once the document is stored, beside telling its revision.
   */
  async replace(document: WebsiteDocument, alongside?: () => Promise<void>): Promise<void> {
    const {
      id,
      organizationId: _organizationId,
      publicId: _publicId,
      createdAt: _createdAt,
      ...fields
    } = document;
    await this.byKey(id, { $set: fields }, { written: document, shown: shownWrite(document) }, alongside);
  }

  async setPlacement(
    website: Pick<WebsiteDocument, 'id' | 'organizationId' | 'customerId'>,
    regions: string[],
    unmonitored: Unmonitored | null,
  ): Promise<void> {
    await this.byKey(
      website.id,
      { $set: { scheduledRegions: regions, unmonitored } },
      { shown: shownWrite(website) },
    );
  }

  /**
   * An update by primary key; callers have read the document through its organization first.
   * `written`: the whole document as stored after it, when the update wrote every field.
   */
  private async byKey(
    id: number,
    update: UpdateFilter<WebsiteDocument>,
    told: { written?: WebsiteDocument; shown: ShownWrite },
    alongside?: () => Promise<void>,
  ): Promise<void> {
    const { matchedCount } = await this.websites.collection.updateOne(
      { _id: websiteKey(id) } as unknown as Filter<WebsiteDocument>,
      update,
    );
    // A website deleted meanwhile (unscheduled after its deletion) is not shown as written again.
    const shown = matchedCount > 0 ? told.shown : undefined;
    await Promise.all([this.changed(id, told.written, shown), alongside?.()]);
  }

  /** Seals client keys and secrets sealed under an older SECRETS_KEY again (`resealWebsiteSecrets`). */
  resealSecrets(box: SecretBox, onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealWebsiteSecrets(this.websites.collection, box, onProgress);
  }

  /** Seals the credential headers of websites stored before they were sealed (idempotent). */
  sealCredentialHeaders(box: SecretBox): Promise<number> {
    return sealCredentialHeaders(this.websites.collection, box, (websiteId) => this.changed(websiteId));
  }

  /** The caller has read it in its organization; deleted by primary key (a filter on `id` scans on FerretDB). */
  async delete(
    website: Pick<WebsiteDocument, 'id' | 'organizationId' | 'customerId' | 'publicId'>,
  ): Promise<boolean> {
    const key = websiteKey(website.id);
    const { deletedCount } = await this.websites.collection.deleteOne({
      _id: key,
    } as unknown as Filter<WebsiteDocument>);
    await this.publicIds.release(website.publicId, key);
    if (deletedCount > 0) {
      await this.counts.left(website.customerId, website.id);
      await this.organizationLists.remove(website.organizationId, website.id);
      await this.changed(website.id, undefined, shownWrite(website, true));
    }
    return deletedCount > 0;
  }
}
