import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { validate } from '../contract/index.js';
import { type CustomerWithPackage, customerLock } from '../customers/index.js';
import { conflict, DomainError, type FieldError, invalidInput, notAllowed } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import { includesFeature } from '../packages/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { TargetGuard } from '../targets/index.js';
import {
  defaultCheckConfig,
  lackedFeature,
  mergeCheckConfig,
  patchCheckConfigBody,
} from './check-config.schema.js';
import { type WebsiteDocument, type WebsiteRepository, websiteLock } from './website.repository.js';
import { createWebsiteBody } from './website.schema.js';
import { buildWebsiteSettings } from './website-build.js';
import {
  listedChannelProblems,
  policyProblems,
  type WebsiteChannelsPort,
  type WebsitePoliciesPort,
} from './website-channels.js';
import type { WebsiteScheduling } from './website-scheduling.js';
import type { WebsiteSearchIndex } from './website-search-index.js';

/** Websites written by one batch at most. */
export const BATCH_MAX_ITEMS = 1000;
/** Websites scheduled at once after a batch is stored (BullMQ's writes to Redis). */
const SCHEDULED_AT_ONCE = 32;

/** A website as `POST /api/websites` takes it, with its check configuration as the PATCH takes it. */
export const batchItemSchema = createWebsiteBody
  .extend({ checkConfig: patchCheckConfigBody.optional() })
  .meta({ id: 'WebsiteBatchItem' });
export type BatchItem = z.output<typeof batchItemSchema>;

/** What a batch came to for one item (in the order sent). */
export interface BatchItemOutcome {
  index: number;
  status: 'created' | 'valid' | 'invalid';
  website: WebsiteDocument | null;
  errors: FieldError[];
}

/** What the rules of a create say of one item (each refusal as a single create answers it). */
interface Judgement {
  index: number;
  item: BatchItem;
  /** Its customer and package; null when the organization has no such customer. */
  owner: CustomerWithPackage | null;
  /** Its fields, check configuration or channels refused: the error a single create throws. */
  refused: DomainError | null;
  /** Past its customer's package maxWebsites, counting the valid items before it. */
  overRoom: boolean;
}

/** A judgement with nothing against it. */
type Ready = Judgement & { owner: CustomerWithPackage };

const isReady = (judgement: Judgement): judgement is Ready =>
  judgement.owner !== null && judgement.refused === null && !judgement.overRoom;

const prefixed = (index: number, errors: readonly FieldError[]): FieldError[] =>
  errors.map((error) => ({ ...error, path: error.path ? `items.${index}.${error.path}` : `items.${index}` }));

const unknownCustomer = (customerId: number): FieldError => ({
  path: 'customerId',
  message: `No customer ${customerId} in your organization`,
});

/**
 * What a single create answers for an item (null: nothing against it): the first rule it breaks in
 * the order a single create has always judged them (its customer, its room, its fields, its channels).
 */
function singleRefusal({ item, owner, refused, overRoom }: Judgement): DomainError | null {
  if (!owner) return invalidInput(`Unknown customer ${item.customerId}`, [unknownCustomer(item.customerId)]);
  if (overRoom)
    return notAllowed(
      `The package "${owner.pkg.displayName}" allows ${owner.pkg.limits.maxWebsites} website(s) per customer (maxWebsites).`,
      [{ path: 'customerId', message: 'the customer has reached its package’s maxWebsites' }],
    );
  return refused;
}

/**
 * What a batch says of a refused item (its fields unprefixed): its customer, else its fields or
 * channels, else its room (an item refused otherwise takes no room and is not told of it).
 */
function batchErrors({ item, owner, refused, overRoom }: Judgement): FieldError[] {
  if (!owner) return [unknownCustomer(item.customerId)];
  if (refused) return refused.errors ?? [{ path: '', message: refused.detail }];
  if (overRoom)
    return [
      {
        path: 'customerId',
        message: `the package "${owner.pkg.displayName}" allows ${owner.pkg.limits.maxWebsites} website(s) per customer (maxWebsites): this one is past it`,
      },
    ];
  return [];
}

/** Runs `work` holding every lock of `resources` (taken in a fixed order, so two batches never deadlock). */
async function withLocks<T>(
  mutex: RedisMutex,
  resources: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const [first, ...rest] = [...resources].sort();
  if (first === undefined) return work();
  return mutex.withLock(first, () => withLocks(mutex, rest, work));
}

/**
 * Every website creation, one (`POST /api/websites`: a batch of one) or many (onboarding, imports):
 * each item judged by every rule (its fields, its customer, its package's features and limits for
 * the whole batch, its channels, its check configuration), then the valid ones written in bulk and
 * scheduled. A batch writes nothing when an item is invalid, unless `partial`; `dryRun` writes
 * nothing and says what would be created.
 */
export class WebsiteBatch {
  constructor(
    private readonly deps: {
      websites: WebsiteRepository;
      /** The customer and its package (null when the organization has no such customer). */
      ownerOf(organizationId: number, customerId: number): Promise<CustomerWithPackage | null>;
      secrets: SecretBox;
      mutex: RedisMutex;
      scheduling: WebsiteScheduling;
      channels: WebsiteChannelsPort;
      policies?: WebsitePoliciesPort;
      guard: TargetGuard;
      search: WebsiteSearchIndex;
    },
  ) {}

  /** One website, refused as a single create answers (its fields named as sent, not `items.0.…`). */
  createOne(organizationId: number, item: BatchItem): Promise<WebsiteDocument> {
    return this.locked(organizationId, [item], async () => {
      const [judged] = (await this.judge(organizationId, [{ index: 0, item }], undefined)) as [Judgement];
      const refusal = singleRefusal(judged);
      if (refusal) throw refusal;
      const [website] = await this.write(organizationId, [judged as Ready]);
      return website as WebsiteDocument;
    });
  }

  async create(
    organizationId: number,
    items: readonly unknown[],
    options: {
      dryRun: boolean;
      partial: boolean;
      /** Websites of each customer a caller plans besides these (an import's earlier chunks in a dry run). */
      planned?: ReadonlyMap<number, number>;
    },
  ): Promise<BatchItemOutcome[]> {
    const outcomes: BatchItemOutcome[] = items.map((_, index) => ({
      index,
      status: 'valid',
      website: null,
      errors: [],
    }));
    const fail = (index: number, errors: readonly FieldError[]) => {
      const outcome = outcomes[index] as BatchItemOutcome;
      outcome.status = 'invalid';
      outcome.errors.push(...prefixed(index, errors));
    };
    /** Items refused only for their customer's room (maxWebsites). */
    const overRoom = new Set<number>();
    const parsed: Array<{ index: number; item: BatchItem }> = [];
    for (const [index, raw] of items.entries()) {
      const read = validate(batchItemSchema, raw);
      if (read.success) parsed.push({ index, item: read.data });
      else fail(index, read.errors);
    }
    const refuseUnlessPartial = () => {
      const invalid = outcomes.filter((o) => o.status === 'invalid');
      if (invalid.length === 0 || options.partial) return;
      // Valid items for which there is no room: a conflict with the package, not bad input.
      if (invalid.every((o) => overRoom.has(o.index)))
        throw conflict(
          `${invalid.length} of ${items.length} website(s) are past their customer's package maxWebsites: nothing was written (raise the package's limit, or send partial: true to write those within it)`,
          invalid.flatMap((o) => o.errors),
        );
      throw invalidInput(
        `${invalid.length} of ${items.length} item(s) are invalid: nothing was written (send partial: true to write the valid ones)`,
        invalid.flatMap((o) => o.errors),
      );
    };
    /** Customers, packages, channels and room read, each item judged, the valid ones written. */
    const judgeAndWrite = async () => {
      const judged = await this.judge(organizationId, parsed, options.planned);
      for (const judgement of judged) {
        if (isReady(judgement)) continue;
        if (judgement.owner && !judgement.refused) overRoom.add(judgement.index);
        fail(judgement.index, batchErrors(judgement));
      }
      refuseUnlessPartial();
      if (options.dryRun) return outcomes;
      const valid = judged.filter(isReady);
      const websites = await this.write(organizationId, valid);
      for (const [i, { index }] of valid.entries())
        Object.assign(outcomes[index] as BatchItemOutcome, { status: 'created', website: websites[i] });
      return outcomes;
    };
    if (options.dryRun) return judgeAndWrite();
    return this.locked(
      organizationId,
      parsed.map(({ item }) => item),
      judgeAndWrite,
    );
  }

  /**
   * Runs `work` under the locks a create holds: its customers' (the count, the customer and its
   * package as written) and, when channels are listed, the channels' (none deleted or narrowed).
   */
  private locked<T>(organizationId: number, items: readonly BatchItem[], work: () => Promise<T>): Promise<T> {
    const customers = [...new Set(items.map((item) => item.customerId))];
    const listsChannels = items.some((item) => (item.notificationChannelIds ?? []).length > 0);
    return withLocks(this.deps.mutex, customers.map(customerLock), () =>
      listsChannels ? this.deps.channels.withChannelsLocked(organizationId, work) : work(),
    );
  }

  /** Each item judged by every rule of a create (customers, channels and counts read once each). */
  private async judge(
    organizationId: number,
    parsed: ReadonlyArray<{ index: number; item: BatchItem }>,
    planned: ReadonlyMap<number, number> | undefined,
  ): Promise<Judgement[]> {
    const owners = new Map<number, CustomerWithPackage | null>();
    const judged: Judgement[] = [];
    for (const { index, item } of parsed) {
      if (!owners.has(item.customerId))
        owners.set(item.customerId, await this.deps.ownerOf(organizationId, item.customerId));
      const owner = owners.get(item.customerId) ?? null;
      judged.push({ index, item, owner, refused: owner && this.refusalOf(item, owner), overRoom: false });
    }
    await this.checkChannels(organizationId, judged);
    await this.checkRoom(organizationId, judged, planned);
    return judged;
  }

  /** What a single create would refuse of the item's settings and check configuration (null: nothing). */
  private refusalOf(item: BatchItem, owner: CustomerWithPackage): DomainError | null {
    const { checkConfig } = item;
    try {
      const settings = this.settingsOf(0, item, owner);
      if (!checkConfig) return null;
      const allowed = (feature: Parameters<typeof includesFeature>[1]) => includesFeature(owner.pkg, feature);
      const merged = mergeCheckConfig(defaultCheckConfig(settings.url, allowed), checkConfig, allowed);
      if (merged.ok) return null;
      const problems = [
        ...merged.invalid.map((error) => ({ ...error, path: `checkConfig.${error.path}` })),
        ...merged.forbidden.map(({ path, feature }) => ({
          path: `checkConfig.${path}`,
          message: lackedFeature(feature),
        })),
      ];
      return invalidInput(`Invalid checkConfig: ${problems.map((e) => e.path).join(', ')}`, problems);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }

  private settingsOf(websiteId: number, item: BatchItem, owner: CustomerWithPackage) {
    const { checkConfig: _checkConfig, ...input } = item;
    return buildWebsiteSettings({
      websiteId,
      current: null,
      input,
      full: true,
      pkg: owner.pkg,
      secrets: this.deps.secrets,
      guard: this.deps.guard,
    });
  }

  /** The channels the items list exist and cover their customers (read once for them all). */
  private async checkChannels(organizationId: number, judged: readonly Judgement[]): Promise<void> {
    const open = judged.filter(({ owner, refused }) => owner && !refused);
    const policyChecks = new Map<number, Promise<FieldError[]>>();
    for (const judgement of open) {
      const id = judgement.item.escalationPolicyId;
      if (id === null || id === undefined) continue;
      if (!policyChecks.has(id)) policyChecks.set(id, policyProblems(this.deps.policies, organizationId, id));
      const invalid = await policyChecks.get(id);
      if (invalid && invalid.length > 0)
        judgement.refused = invalidInput('Invalid escalationPolicyId', invalid);
    }
    const listed = [...new Set(open.flatMap(({ item }) => item.notificationChannelIds ?? []))];
    if (listed.length === 0) return;
    const scopes = await this.deps.channels.customerScopes(organizationId, listed);
    for (const judgement of open) {
      const { notificationChannelIds, customerId } = judgement.item;
      const invalid = listedChannelProblems(notificationChannelIds ?? [], customerId, scopes);
      if (invalid.length > 0)
        judgement.refused = invalidInput(
          `Invalid notificationChannelIds: ${invalid.map((e) => e.path).join(', ')}`,
          invalid,
        );
    }
  }

  /**
   * Each customer's websites and the valid items before stay within its package's maxWebsites.
   * Judged for refused items too (they take no room): a single create names the room first.
   */
  private async checkRoom(
    organizationId: number,
    judged: readonly Judgement[],
    planned: ReadonlyMap<number, number> | undefined,
  ): Promise<void> {
    const taken = new Map<number, number>();
    for (const judgement of judged) {
      const { owner } = judgement;
      if (!owner) continue;
      const customerId = owner.customer.id;
      const count =
        taken.get(customerId) ??
        (await this.deps.websites.countByCustomer(organizationId, customerId)) +
          (planned?.get(customerId) ?? 0);
      judgement.overRoom = count >= owner.pkg.limits.maxWebsites;
      taken.set(customerId, isReady(judgement) ? count + 1 : count);
    }
  }

  /** Ids in one allocation, the documents in one insert, then each scheduled (a few at a time). */
  private async write(organizationId: number, writing: readonly Ready[]): Promise<WebsiteDocument[]> {
    if (writing.length === 0) return [];
    const ids = await this.deps.websites.allocateIds(writing.length);
    const serving = await this.deps.scheduling.servingRegions();
    const now = new Date();
    const websites = writing.map(({ item, owner }, i): WebsiteDocument => {
      const id = ids[i] as number;
      const settings = this.settingsOf(id, item, owner);
      const allowed = (feature: Parameters<typeof includesFeature>[1]) => includesFeature(owner.pkg, feature);
      const defaults = defaultCheckConfig(settings.url, allowed);
      const merged = item.checkConfig ? mergeCheckConfig(defaults, item.checkConfig, allowed) : null;
      const website: WebsiteDocument = {
        ...settings,
        id,
        publicId: randomUUID(),
        organizationId,
        checkConfig: merged?.ok ? merged.config : defaults,
        scheduledRegions: [],
        unmonitored: null,
        createdAt: now,
        updatedAt: now,
      };
      website.scheduledRegions =
        this.deps.scheduling.regionsForNew(website, owner.customer, owner.pkg, serving) ?? [];
      return website;
    });
    for (const website of websites) await this.deps.search.widen(organizationId, website.id, null, website);
    await this.deps.websites.insertMany(organizationId, websites);
    // Stored first, scheduled right after: a crash in between leaves them for the reconciler.
    const scheduling = new ConcurrencyLimit(SCHEDULED_AT_ONCE);
    await Promise.all(
      websites.map((website, i) =>
        scheduling.run(() => {
          const { owner } = writing[i] as Ready;
          return this.deps.mutex.withLock(websiteLock(website.id), () =>
            this.deps.scheduling.sync(website, owner.customer, owner.pkg, { serving, scheduledInRedis: [] }),
          );
        }),
      ),
    );
    return websites;
  }
}

/** The batch request: up to 1,000 items, each checked on its own (see `batchItemSchema`). */
export const batchBody = z.strictObject({
  items: z
    .array(z.union([batchItemSchema, z.record(z.string(), z.unknown())]))
    .min(1)
    .max(BATCH_MAX_ITEMS)
    .describe(
      'Websites as POST /api/websites takes them, each with an optional `checkConfig` as PATCH …/check-config takes it; each item is validated on its own, its errors named `items.<index>.<field>`',
    ),
  dryRun: z.boolean().default(false).describe('Validate and say what would be created; write nothing'),
  partial: z
    .boolean()
    .default(false)
    .describe('Write the valid items even when others are invalid (default: nothing is written then)'),
});
