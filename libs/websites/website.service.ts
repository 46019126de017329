import {
  type CustomerRepository,
  type CustomerWebsitesPort,
  type CustomerWithPackage,
  loadCustomerWithPackage,
} from '../customers/index.js';
import { invalidInput, notAllowed, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import { includesFeature, type PackageDocument, type PackageRepository } from '../packages/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { TargetGuard } from '../targets/index.js';
import { type CheckConfigPatch, lackedFeature, mergeCheckConfig } from './check-config.schema.js';
import { rescheduleWebsitesOf } from './customer-reschedule.js';
import { type WebsiteDocument, type WebsiteRepository, websiteLock } from './website.repository.js';
import { UUID, type WebsiteInput } from './website.schema.js';
import { type BatchItem, type BatchItemOutcome, WebsiteBatch } from './website-batch.js';
import { buildWebsiteSettings } from './website-build.js';
import type { WebsiteCache } from './website-cache.js';
import {
  listedChannelProblems,
  policyProblems,
  type WebsiteChannelsPort,
  type WebsitePoliciesPort,
} from './website-channels.js';
import type { WebsiteScheduling } from './website-scheduling.js';
import type { WebsiteSearchIndex } from './website-search-index.js';
import { type WebsitePage, WebsiteSearchPages } from './website-search-pages.js';

/** Customers whose package is remembered (`packageOfCustomer`), the least recently read going first. */
const PACKAGES_OF_CUSTOMERS_KEPT = 10_000;

export function parseWebsiteRef(ref: string): { id: number } | { publicId: string } {
  return UUID.test(ref) ? { publicId: ref.toLowerCase() } : { id: Number(ref) };
}

type Owner = CustomerWithPackage;

/** The settings that make up the request a check sends. */
const REQUEST_FIELDS = [
  'url',
  'httpMethod',
  'customHeaders',
  'secretHeaders',
  'requestBody',
  'requestBodySealed',
  'followRedirects',
  'maxRedirects',
  'cookieHandling',
  'mtlsEnabled',
  'mtlsClientCert',
  'mtlsClientKey',
  'timeoutSeconds',
] as const satisfies ReadonlyArray<keyof WebsiteDocument>;

function requestChanged(before: WebsiteDocument, after: WebsiteDocument): boolean {
  return REQUEST_FIELDS.some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** Websites and their check configuration: every write validated, stored, then scheduled, under the website's lock. */
export class WebsiteService implements CustomerWebsitesPort {
  /**
   * The package each customer was on when last read here: read beside the customer instead of
   * after it (a guess: read again when the customer names another).
   */
  private readonly packageOfCustomer = new Map<number, number>();

  constructor(
    private readonly deps: {
      websites: WebsiteRepository;
      customers: CustomerRepository;
      packages: PackageRepository;
      secrets: SecretBox;
      mutex: RedisMutex;
      scheduling: WebsiteScheduling;
      channels: WebsiteChannelsPort;
      /** Whether an escalation policy a website names exists (absent: not checked). */
      policies?: WebsitePoliciesPort;
      /** What a website URL's IP literal may be. */
      guard: TargetGuard;
      /** Which websites may hold a search's text (kept with every name and URL written). */
      search: WebsiteSearchIndex;
      /** Lists read websites through it: those unchanged since they were last read come from memory. */
      cache: WebsiteCache;
      /**
       * Where a write reads the website's customer and package: copies kept in memory under their
       * revisions (a Redis GET each instead of a MongoDB read each). @defaultValue customers and packages
       */
      owners?: {
        customers: Pick<CustomerRepository, 'findById'>;
        packages: Pick<PackageRepository, 'findById'>;
      };
      /** What else goes with a deleted website (its maintenance windows). */
      afterDelete?: (website: WebsiteDocument) => Promise<void>;
    },
  ) {
    this.batch = new WebsiteBatch({
      ...deps,
      ownerOf: (organizationId, customerId) => this.findOwner(organizationId, customerId),
    });
    this.searchPages = new WebsiteSearchPages(deps);
  }

  private readonly batch: WebsiteBatch;
  /** Lists holding a query: the search index's candidates, read and matched. */
  private readonly searchPages: WebsiteSearchPages;

  /** Many websites at once (`WebsiteBatch`): validated first, then written in bulk and scheduled. */
  createMany(
    organizationId: number,
    items: readonly unknown[],
    options: Parameters<WebsiteBatch['create']>[2],
  ): Promise<BatchItemOutcome[]> {
    return this.batch.create(organizationId, items, options);
  }

  /** The customer (of this organization) and its package; `path` names the field when it is unknown. */
  private async owner(organizationId: number, customerId: number, path = 'customerId'): Promise<Owner> {
    const owner = await this.findOwner(organizationId, customerId);
    if (!owner) {
      throw invalidInput(`Unknown customer ${customerId}`, [
        { path, message: `No customer ${customerId} in your organization` },
      ]);
    }
    return owner;
  }

  /** The customer and its package, or null when the organization has no such customer. */
  private async findOwner(organizationId: number, customerId: number): Promise<Owner | null> {
    const { customers, packages } = this.deps.owners ?? this.deps;
    const owner = await loadCustomerWithPackage(
      customers,
      packages,
      organizationId,
      customerId,
      this.packageOfCustomer.get(customerId),
    );
    if (!owner) return null;
    this.packageOfCustomer.delete(customerId);
    if (this.packageOfCustomer.size >= PACKAGES_OF_CUSTOMERS_KEPT)
      this.packageOfCustomer.delete(this.packageOfCustomer.keys().next().value as number);
    this.packageOfCustomer.set(customerId, owner.pkg.id);
    return owner;
  }

  private async assertRoomFor(organizationId: number, owner: Owner): Promise<void> {
    const count = await this.deps.websites.countByCustomer(organizationId, owner.customer.id);
    if (count >= owner.pkg.limits.maxWebsites) {
      throw notAllowed(
        `The package "${owner.pkg.displayName}" allows ${owner.pkg.limits.maxWebsites} website(s) per customer (maxWebsites).`,
        [{ path: 'customerId', message: 'the customer has reached its package’s maxWebsites' }],
      );
    }
  }

  /**
   * Stores a website through `write` once the channels it lists are known to exist and to cover
   * its customer, with the channels locked so none goes away in between.
   */
  private async withListedChannels(website: WebsiteDocument, write: () => Promise<void>): Promise<void> {
    const listed = website.notificationChannelIds;
    if (listed.length === 0) return write();
    await this.deps.channels.withChannelsLocked(website.organizationId, async () => {
      const scopes = await this.deps.channels.customerScopes(website.organizationId, listed);
      const invalid = listedChannelProblems(listed, website.customerId, scopes);
      if (invalid.length > 0)
        throw invalidInput(
          `Invalid notificationChannelIds: ${invalid.map((e) => e.path).join(', ')}`,
          invalid,
        );
      await write();
    });
  }

  /** The website as reads show it: from memory while its revision is unchanged (as lists read it). */
  async get(organizationId: number, ref: string): Promise<WebsiteDocument> {
    return this.found(ref, (id) => this.deps.cache.get(organizationId, id));
  }

  /** The website as stored now: what a write under its lock starts from. */
  private stored(organizationId: number, ref: string): Promise<WebsiteDocument> {
    return this.found(ref, (id) => this.deps.websites.findByRef(organizationId, { id }));
  }

  private async found(
    ref: string,
    read: (id: number) => Promise<WebsiteDocument | null>,
  ): Promise<WebsiteDocument> {
    const parsed = parseWebsiteRef(ref);
    const id = await this.deps.websites.idOf(parsed);
    return this.holding(parsed, ref, id === null ? null : await read(id));
  }

  /** The website read for `ref` once it is known to be the one `ref` names (404 otherwise). */
  private holding(
    parsed: ReturnType<typeof parseWebsiteRef>,
    ref: string,
    website: WebsiteDocument | null,
  ): WebsiteDocument {
    // A publicId's lookup entry can outlive a crash: the website read must still hold it.
    if (!website || ('publicId' in parsed && website.publicId !== parsed.publicId))
      throw notFound(`No website ${ref}`);
    if ('publicId' in parsed) this.deps.websites.confirmPublicId(website);
    return website;
  }

  /** The organization's websites, or one customer's (404 when it is not the organization's). */
  /**
   * A page of the organization's websites (of one customer, holding `query` in its name or URL):
   * the websites and the id the next page starts after (null: none after).
   */
  async list(
    organizationId: number,
    options: {
      customerId?: number | undefined;
      afterId?: number | undefined;
      limit?: number | undefined;
      query?: string | undefined;
    },
  ): Promise<WebsitePage> {
    if (
      options.customerId !== undefined &&
      !(await this.deps.customers.findById(organizationId, options.customerId))
    )
      throw notFound(`No customer ${options.customerId}`);
    if (options.query !== undefined)
      return this.searchPages.search(organizationId, { ...options, query: options.query });
    const websites = await this.deps.websites.listPage(organizationId, options, (org, ids) =>
      this.deps.cache.getMany(org, ids),
    );
    const last = websites.at(-1);
    return {
      websites,
      nextAfterId: options.limit !== undefined && websites.length === options.limit && last ? last.id : null,
    };
  }

  /** One website: a batch of one (`WebsiteBatch.createOne`), so it is judged and written as a batch is. */
  create(organizationId: number, input: BatchItem): Promise<WebsiteDocument> {
    return this.batch.createOne(organizationId, input);
  }

  /**
   * The seed's two rules: customerId, name and url all present → full update; otherwise partial.
   * Returns the website as it was (read under its lock: what the write replaced) and as stored.
   *
   * Each MongoDB round trip costs FerretDB ~1–3 ms, so what does not depend on the website read
   * goes beside it: the owner (of the customer it moves to, or had when this process last saw it: a
   * guess checked against the read), the fleet when it may move, and the runs of the name and URL
   * sent for the search index; what follows the write (the index's old runs, the schedule) goes
   * together.
   */
  async update(
    organizationId: number,
    publicId: string,
    input: WebsiteInput,
  ): Promise<{ before: WebsiteDocument; website: WebsiteDocument }> {
    const parsed = parseWebsiteRef(publicId);
    const id = await this.deps.websites.idOf(parsed);
    if (id === null) throw notFound(`No website ${publicId}`);
    const full = input.customerId !== undefined && input.name !== undefined && input.url !== undefined;
    // Only these may move it to other regions: any other change keeps its placement, so the fleet
    // (a scan of the monitoring nodes on FerretDB) is not read; the fleet watcher follows the fleet.
    const mayMove =
      full || input.customerId !== undefined || input.paused !== undefined || input.regions !== undefined;
    const guessedCustomer = input.customerId ?? this.deps.cache.kept(organizationId, id)?.customerId;
    const likelyOwner =
      guessedCustomer === undefined ? null : this.owner(organizationId, guessedCustomer).catch(() => null);
    const fleet = mayMove ? this.deps.scheduling.servingRegions() : null;
    // Awaited under the lock; a lock not taken must not leave its failure unhandled.
    fleet?.catch(() => undefined);
    return this.deps.mutex.withLock(websiteLock(id), async () => {
      const [current] = await Promise.all([
        this.deps.websites
          .findByRef(organizationId, { id })
          .then((website) => this.holding(parsed, publicId, website)),
        // Before the write: the index may hold too much (a search reads and matches), never too little.
        this.deps.search.widenSent(organizationId, id, { name: input.name, url: input.url }),
      ]);
      const customerId = input.customerId ?? current.customerId;
      const guessed = await likelyOwner;
      const owner =
        guessed?.customer.id === customerId ? guessed : await this.owner(organizationId, customerId);
      const serving = fleet ? await fleet : ('as placed' as const);
      const moved = customerId !== current.customerId;
      if (moved) await this.assertRoomFor(organizationId, owner);
      const settings = buildWebsiteSettings({
        websiteId: id,
        current,
        input,
        full,
        pkg: owner.pkg,
        secrets: this.deps.secrets,
        guard: this.deps.guard,
      });
      const updated: WebsiteDocument = { ...current, ...settings, updatedAt: new Date() };
      if (updated.escalationPolicyId !== current.escalationPolicyId) {
        const invalid = await policyProblems(this.deps.policies, organizationId, updated.escalationPolicyId);
        if (invalid.length > 0) throw invalidInput('Invalid escalationPolicyId', invalid);
      }
      // The runs it no longer has leave once it is stored, beside its revision's bump.
      await this.withListedChannels(updated, () =>
        this.deps.websites.replace(updated, () =>
          this.deps.search.narrow(organizationId, id, current, updated),
        ),
      );
      if (moved) await this.deps.websites.moveCount(id, current.customerId, customerId);
      // A changed request is checked at once: the user wants to see what it gives now.
      await this.deps.scheduling.sync(updated, owner.customer, owner.pkg, {
        serving,
        firstCheck: { where: requestChanged(current, updated) ? 'all' : 'new' },
      });
      return { before: current, website: updated };
    });
  }

  async delete(organizationId: number, publicId: string): Promise<void> {
    const { id } = await this.get(organizationId, publicId);
    await this.deps.mutex.withLock(websiteLock(id), async () => {
      const website = await this.stored(organizationId, publicId);
      // MongoDB first: a scheduler left behind finds no website and is removed by the reconciler.
      await this.deps.websites.delete(website);
      await this.deps.search.narrow(organizationId, website.id, website, null);
      await this.deps.scheduling.unschedule(website);
      await this.deps.afterDelete?.(website);
    });
  }

  async checkConfig(
    organizationId: number,
    ref: string,
  ): Promise<{ website: WebsiteDocument; pkg: PackageDocument }> {
    const website = await this.get(organizationId, ref);
    return { website, pkg: (await this.owner(organizationId, website.customerId)).pkg };
  }

  async patchCheckConfig(
    organizationId: number,
    ref: string,
    patch: CheckConfigPatch,
  ): Promise<{ website: WebsiteDocument; pkg: PackageDocument }> {
    const { id } = await this.get(organizationId, ref);
    return this.deps.mutex.withLock(websiteLock(id), async () => {
      const website = await this.stored(organizationId, ref);
      const { pkg } = await this.owner(organizationId, website.customerId);
      const merged = mergeCheckConfig(website.checkConfig, patch, (f) => includesFeature(pkg, f));
      if (!merged.ok) {
        const { invalid, forbidden } = merged;
        if (invalid.length > 0)
          throw invalidInput(
            `Invalid check configuration: ${invalid.map((e) => e.path).join(', ')}`,
            invalid,
          );
        throw notAllowed(
          `The package "${pkg.displayName}" does not include: ${forbidden.map((f) => f.feature).join(', ')}`,
          forbidden.map(({ path, feature }) => ({
            path,
            message: lackedFeature(feature),
          })),
        );
      }
      const updated: WebsiteDocument = { ...website, checkConfig: merged.config, updatedAt: new Date() };
      await this.deps.websites.replace(updated);
      return { website: updated, pkg };
    });
  }

  countByCustomer(organizationId: number, customerId: number): Promise<number> {
    return this.deps.websites.countByCustomer(organizationId, customerId);
  }

  async rescheduleCustomer(organizationId: number, customerId: number): Promise<void> {
    await rescheduleWebsitesOf(this.deps, await this.owner(organizationId, customerId));
  }
}
