import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { validate } from '../contract/index.js';
import {
  type CustomerRepository,
  type CustomerWithPackage,
  customerLock,
  loadCustomerWithPackage,
} from '../customers/index.js';
import { conflict, DomainError, type FieldError, invalidInput } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import { includesFeature, type PackageRepository } from '../packages/index.js';
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
import { listedChannelProblems, type WebsiteChannelsPort } from './website-channels.js';
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

/** One valid item, ready to be written. */
interface Prepared {
  index: number;
  item: BatchItem;
  owner: CustomerWithPackage;
}

const prefixed = (index: number, errors: readonly FieldError[]): FieldError[] =>
  errors.map((error) => ({ ...error, path: error.path ? `items.${index}.${error.path}` : `items.${index}` }));

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
 * Many websites at once (onboarding): every item validated as a single create validates it (its
 * fields, its customer, its package's features and limits for the whole batch, its channels, its
 * check configuration), then the valid ones written in bulk and scheduled. Nothing is written when
 * an item is invalid, unless `partial`; `dryRun` writes nothing and says what would be created.
 */
export class WebsiteBatch {
  constructor(
    private readonly deps: {
      websites: WebsiteRepository;
      customers: CustomerRepository;
      packages: PackageRepository;
      secrets: SecretBox;
      mutex: RedisMutex;
      scheduling: WebsiteScheduling;
      channels: WebsiteChannelsPort;
      guard: TargetGuard;
      search: WebsiteSearchIndex;
    },
  ) {}

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
    const failForRoom = (index: number, errors: readonly FieldError[]) => {
      overRoom.add(index);
      fail(index, errors);
    };
    /** Customers, packages, channels and room read, each item judged, the valid ones written. */
    const judgeAndWrite = async () => {
      const valid = await this.judge(
        organizationId,
        parsed,
        outcomes,
        { fail, failForRoom },
        options.planned,
      );
      refuseUnlessPartial();
      if (options.dryRun) return outcomes;
      const websites = await this.write(organizationId, valid);
      for (const [i, { index }] of valid.entries())
        Object.assign(outcomes[index] as BatchItemOutcome, { status: 'created', website: websites[i] });
      return outcomes;
    };
    if (options.dryRun) return judgeAndWrite();
    // Judged under the locks a single create holds: its customer's (the count, the customer and its
    // package as written) and, when channels are listed, the channels' (none deleted or narrowed).
    const customers = [...new Set(parsed.map(({ item }) => item.customerId))];
    const listsChannels = parsed.some(({ item }) => (item.notificationChannelIds ?? []).length > 0);
    return withLocks(this.deps.mutex, customers.map(customerLock), () =>
      listsChannels ? this.deps.channels.withChannelsLocked(organizationId, judgeAndWrite) : judgeAndWrite(),
    );
  }

  /** The items that pass every rule of a create, the others failed with why. */
  private async judge(
    organizationId: number,
    parsed: ReadonlyArray<{ index: number; item: BatchItem }>,
    outcomes: readonly BatchItemOutcome[],
    { fail, failForRoom }: Record<'fail' | 'failForRoom', (index: number, errors: FieldError[]) => void>,
    planned: ReadonlyMap<number, number> | undefined,
  ): Promise<Prepared[]> {
    const owners = new Map<number, CustomerWithPackage | null>();
    const prepared: Prepared[] = [];
    for (const { index, item } of parsed) {
      if (!owners.has(item.customerId))
        owners.set(
          item.customerId,
          await loadCustomerWithPackage(
            this.deps.customers,
            this.deps.packages,
            organizationId,
            item.customerId,
          ),
        );
      const owner = owners.get(item.customerId);
      if (!owner) {
        fail(index, [{ path: 'customerId', message: `No customer ${item.customerId} in your organization` }]);
        continue;
      }
      const problems = this.problemsOf(item, owner);
      if (problems.length > 0) fail(index, problems);
      else prepared.push({ index, item, owner });
    }
    await this.checkChannels(organizationId, prepared, fail);
    const valid = prepared.filter(({ index }) => outcomes[index]?.status === 'valid');
    await this.checkRoom(organizationId, valid, outcomes, failForRoom, planned);
    return valid.filter(({ index }) => outcomes[index]?.status === 'valid');
  }

  /** What a single create would refuse of the item (its settings and check configuration). */
  private problemsOf(item: BatchItem, owner: CustomerWithPackage): FieldError[] {
    const { checkConfig } = item;
    const problems: FieldError[] = [];
    try {
      const settings = this.settingsOf(0, item, owner);
      if (checkConfig) {
        const allowed = (feature: Parameters<typeof includesFeature>[1]) =>
          includesFeature(owner.pkg, feature);
        const merged = mergeCheckConfig(defaultCheckConfig(settings.url, allowed), checkConfig, allowed);
        if (!merged.ok)
          problems.push(
            ...merged.invalid.map((error) => ({ ...error, path: `checkConfig.${error.path}` })),
            ...merged.forbidden.map(({ path, feature }) => ({
              path: `checkConfig.${path}`,
              message: lackedFeature(feature),
            })),
          );
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(...(error.errors ?? [{ path: '', message: error.detail }]));
    }
    return problems;
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

  /** The channels the items list exist and cover their customers (read once for the batch). */
  private async checkChannels(
    organizationId: number,
    prepared: readonly Prepared[],
    fail: (index: number, errors: FieldError[]) => void,
  ): Promise<void> {
    const listed = [...new Set(prepared.flatMap(({ item }) => item.notificationChannelIds ?? []))];
    if (listed.length === 0) return;
    const scopes = await this.deps.channels.customerScopes(organizationId, listed);
    for (const { index, item } of prepared) {
      const problems = listedChannelProblems(item.notificationChannelIds ?? [], item.customerId, scopes);
      if (problems.length > 0) fail(index, problems);
    }
  }

  /** Each customer's websites and this batch's stay within its package's maxWebsites. */
  private async checkRoom(
    organizationId: number,
    valid: readonly Prepared[],
    outcomes: readonly BatchItemOutcome[],
    fail: (index: number, errors: FieldError[]) => void,
    planned: ReadonlyMap<number, number> | undefined,
  ): Promise<void> {
    const taken = new Map<number, number>();
    for (const { index, owner } of valid) {
      if (outcomes[index]?.status !== 'valid') continue;
      const customerId = owner.customer.id;
      if (!taken.has(customerId))
        taken.set(
          customerId,
          (await this.deps.websites.countByCustomer(organizationId, customerId)) +
            (planned?.get(customerId) ?? 0),
        );
      const count = (taken.get(customerId) ?? 0) + 1;
      const max = owner.pkg.limits.maxWebsites;
      if (count > max) {
        fail(index, [
          {
            path: 'customerId',
            message: `the package "${owner.pkg.displayName}" allows ${max} website(s) per customer (maxWebsites): this one is past it`,
          },
        ]);
        continue;
      }
      taken.set(customerId, count);
    }
  }

  /** Ids in one allocation, the documents in one insert, then each scheduled (a few at a time). */
  private async write(organizationId: number, writing: readonly Prepared[]): Promise<WebsiteDocument[]> {
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
          const { owner } = writing[i] as Prepared;
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
