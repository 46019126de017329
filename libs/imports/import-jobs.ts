import type { Db } from 'mongodb';
import { urlKey } from '../as-code/index.js';
import type { CustomerDocument, CustomerWithPackage } from '../customers/index.js';
import { isDuplicateKey, nextId, TenantCollection, WITHOUT_MONGO_ID } from '../db/index.js';
import { DomainError, errorMessage, type FieldError, invalidInput, tooMany } from '../errors/index.js';
import type { ExportDocument } from '../exports/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import { backgroundTurns } from '../runtime/index.js';
import type { BatchItem, BatchItemOutcome, WebsiteDocument } from '../websites/index.js';
import { type CheckPorts, importChecks, type PendingCheck } from './check-import.js';
import type { PlacementSite } from './check-placement.js';
import { type ConfigurationPorts, importConfiguration } from './configuration-import.js';
import { type ImportFormat, type ImportJobDocument, runningRefusal } from './import-job.js';
import { emptyReport } from './import-report.js';
import { toCheck } from './source-check.js';
import { type SourceMonitor, toWebsite } from './source-monitor.js';

export {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportJobDocument,
  type MonitorFormat,
} from './import-job.js';

const IMPORTS = 'imports';
const importKey = (id: number) => `import/${id}`;
const runningKey = (organizationId: number) => `running/${organizationId}`;
const runLock = (organizationId: number) => `import-run:${organizationId}`;
/** Websites judged (and written) per batch, in one go on the event loop: 250 held it ~17 ms, 100 ~7, 50 ~3.5 (past the background slice). */
const CHUNK = 25;
const PROGRESS_SAVE_MS = 500;
/** A running import whose process stopped saying anything this long ago was interrupted. */
export const IMPORT_STALE_MS = 120_000;

/**
 * Where the monitors go: one customer (checks without a website of their host to `attachTo`, one
 * of its websites), or each monitor's own (read from the source).
 */
export type ImportTarget = { customerId: number; attachTo: PlacementSite | null } | { byMonitor: true };

/** Imports of other tools' monitors as websites, run in the API process, their progress stored. */
export class ImportJobs {
  private readonly jobs: TenantCollection<ImportJobDocument>;
  /** Each organization's import running in this process: a refusal reads no job (~100 KB of report). */
  private readonly runningHere = new Map<number, ImportJobDocument>();

  constructor(
    private readonly db: Db,
    private readonly deps: {
      /** The organization's customers (to find a monitor's customer by name or id). */
      customers(organizationId: number): Promise<CustomerDocument[]>;
      owner(organizationId: number, customerId: number): Promise<CustomerWithPackage | null>;
      /** The customer's websites (to skip the URLs it has). */
      websitesOf(organizationId: number, customerId: number): Promise<WebsiteDocument[]>;
      /** The organization's website by id or public id (none: a `DomainError`). */
      website(organizationId: number, ref: string): Promise<WebsiteDocument>;
      /** What checks (monitors of other kinds than HTTP) are made through. */
      checks: CheckPorts;
      createMany(
        organizationId: number,
        items: readonly BatchItem[],
        options: { dryRun: boolean; partial: boolean; planned?: ReadonlyMap<number, number> },
      ): Promise<BatchItemOutcome[]>;
      /** What a `webmon-json` import makes things with. */
      configuration: ConfigurationPorts;
      /**
       * Claims and releases of an organization's run, one at a time across processes: a claim
       * names its job before the job is stored, and FerretDB's conditional replace and delete
       * each read before they write, so two at once could both take the marker.
       */
      mutex: Pick<RedisMutex, 'withLock'>;
      logger: Logger;
    },
  ) {
    this.jobs = new TenantCollection(db.collection<ImportJobDocument>(IMPORTS));
  }

  /** The import, as stored; a running one its process stopped telling about reads as failed. */
  async get(organizationId: number, id: number): Promise<ImportJobDocument | null> {
    const job = await this.jobs.findOneByKey(organizationId, importKey(id), WITHOUT_MONGO_ID);
    if (job?.status !== 'running' || Date.now() - job.updatedAt.getTime() < IMPORT_STALE_MS) return job;
    return {
      ...job,
      status: 'failed',
      error: 'interrupted (its API process stopped): run it again; what it wrote is found and not duplicated',
    };
  }

  private get markers() {
    return this.db.collection<{ _id: string; jobId: number }>(IMPORTS);
  }

  /**
   * The organization's running import, by its marker: one runs at a time (429 naming it, with
   * when it may end). Asked before a request's file is read, and again when the run is claimed.
   */
  async assertNoneRunning(organizationId: number): Promise<{ jobId: number } | null> {
    const here = this.runningHere.get(organizationId);
    if (here) throw runningRefusal(here);
    const marker = await this.markers.findOne({ _id: runningKey(organizationId) });
    const holder = marker && (await this.get(organizationId, marker.jobId));
    if (holder?.status === 'running') throw runningRefusal(holder);
    return marker;
  }

  /**
   * Claims the organization's one running import for `jobId` (a marker document by `_id`, under the
   * run's lock): two at once would each miss what the other is making. A marker whose job stopped
   * is taken over.
   */
  private async claimRun(organizationId: number, jobId: number): Promise<void> {
    const _id = runningKey(organizationId);
    try {
      await this.markers.insertOne({ _id, jobId });
      return;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const marker = await this.assertNoneRunning(organizationId);
    const taken = await this.markers.replaceOne({ _id, jobId: marker?.jobId ?? -1 }, { jobId });
    if (taken.modifiedCount !== 1)
      throw tooMany('Another import started just now: wait for it to end', 'imports-per-organization', 5);
  }

  private async releaseRun(organizationId: number, jobId: number): Promise<void> {
    await this.markers.deleteOne({ _id: runningKey(organizationId), jobId });
  }

  /** The website `attachTo` names, which must be the target customer's (400 naming `attachTo`). */
  async attachSite(organizationId: number, ref: string, customerId: number): Promise<PlacementSite> {
    const website = await this.deps.website(organizationId, ref).catch((error: unknown) => {
      // Not found, or not a website reference at all: either way attachTo names none.
      if (error instanceof DomainError && error.kind !== 'internal') return null;
      throw error;
    });
    if (website?.customerId === customerId)
      return { id: website.id, publicId: website.publicId, name: website.name, url: website.url };
    throw invalidInput(`No website ${ref} of customer ${customerId} to attach monitors to`, [
      {
        path: 'attachTo',
        message: website
          ? `website ${ref} is another customer's: choose one of customer ${customerId}`
          : `no website ${ref} in your organization`,
      },
    ]);
  }

  /** Stores the job and runs it in the background (`done` resolves when it ends: tests and shutdown). */
  start(
    organizationId: number,
    input: {
      format: ImportFormat;
      monitors: SourceMonitor[];
      target: ImportTarget;
      dryRun: boolean;
    },
  ): Promise<{ job: ImportJobDocument; done: Promise<void> }> {
    return this.launch(organizationId, input.format, input.dryRun, input.monitors.length, (job) =>
      this.run(job, input.monitors, input.target),
    );
  }

  /** An export (`webmon-json`) imported as a job: what the organization lacks is made, by key. */
  startConfiguration(
    organizationId: number,
    input: { exported: ExportDocument; dryRun: boolean; mayCreatePackages: boolean },
  ): Promise<{ job: ImportJobDocument; done: Promise<void> }> {
    return this.launch(organizationId, 'webmon-json', input.dryRun, 0, async (job) => {
      let savedAt = 0;
      await importConfiguration(organizationId, input.exported, {
        dryRun: input.dryRun,
        mayCreatePackages: input.mayCreatePackages,
        ports: this.deps.configuration,
        report: job.report,
        progress: async (done, total) => {
          job.progress = { done, total };
          // Progress is stored every half second (a batch of 1,000 websites tells 1,000 times).
          if (Date.now() - savedAt < PROGRESS_SAVE_MS && done < total) return;
          savedAt = Date.now();
          await this.save(job);
        },
      });
    });
  }

  private async launch(
    organizationId: number,
    format: ImportFormat,
    dryRun: boolean,
    total: number,
    work: (job: ImportJobDocument) => Promise<void>,
  ): Promise<{ job: ImportJobDocument; done: Promise<void> }> {
    const now = new Date();
    const id = await nextId(this.db, IMPORTS);
    const job: ImportJobDocument = {
      id,
      organizationId,
      format,
      dryRun,
      status: 'running',
      progress: { done: 0, total },
      report: emptyReport(),
      error: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    await this.deps.mutex.withLock(runLock(organizationId), async () => {
      await this.claimRun(organizationId, id);
      await this.jobs.insertOne({ ...job, _id: importKey(job.id) } as ImportJobDocument);
      this.runningHere.set(organizationId, job);
    });
    const outcome = work(job).then(
      (): ImportJobDocument => ({ ...job, status: 'succeeded', finishedAt: new Date() }),
      (error: unknown): ImportJobDocument => {
        const message = errorMessage(error);
        this.deps.logger.error({ importId: job.id, err: message }, 'import failed');
        return { ...job, status: 'failed', error: message, finishedAt: new Date() };
      },
    );
    // The claim is released before the end is stored: whoever reads "succeeded" may start the next import.
    const ended = outcome.then(async (final) => {
      await this.deps.mutex
        .withLock(runLock(organizationId), () => this.releaseRun(organizationId, job.id))
        .catch(() => undefined);
      if (this.runningHere.get(organizationId) === job) this.runningHere.delete(organizationId);
      await this.save(final).catch((error: unknown) =>
        this.deps.logger.error({ importId: job.id, err: errorMessage(error) }, 'import end not stored'),
      );
    });
    return { job, done: ended };
  }

  private async save(job: ImportJobDocument): Promise<void> {
    job.updatedAt = new Date();
    await this.jobs.collection.replaceOne({ _id: importKey(job.id) } as never, job);
  }

  private async run(job: ImportJobDocument, monitors: readonly SourceMonitor[], target: ImportTarget) {
    const { organizationId } = job;
    const { report } = job;
    const customerOf = await this.customerResolver(organizationId, target);
    const owners = new Map<number, CustomerWithPackage | null>();
    /** Each customer's websites (ascending ids), then those this import makes: where checks go. */
    const sites = new Map<number, PlacementSite[]>();
    const known = new Map<number, Map<string, number | null>>();
    const pending: Array<{ monitor: SourceMonitor; item: BatchItem }> = [];
    const pendingChecks: PendingCheck[] = [];
    const said = (monitor: SourceMonitor) => ({
      source: monitor.source,
      name: monitor.name,
      url: monitor.url,
    });
    for (const monitor of monitors) {
      // Thousands of monitors mapped in one go would hold the event loop: other requests go between.
      await backgroundTurns.pause();
      const customer = customerOf(monitor);
      if ('problem' in customer) {
        report.invalid.push({ ...said(monitor), errors: [{ path: 'customer', message: customer.problem }] });
        continue;
      }
      if (!owners.has(customer.id))
        owners.set(customer.id, await this.deps.owner(organizationId, customer.id));
      const owner = owners.get(customer.id);
      if (!owner) {
        report.invalid.push({
          ...said(monitor),
          errors: [{ path: 'customer', message: `No customer ${customer.id}` }],
        });
        continue;
      }
      let urls = known.get(customer.id);
      if (!urls) {
        const websites = (await this.deps.websitesOf(organizationId, customer.id)).sort(
          (a, b) => a.id - b.id,
        );
        sites.set(customer.id, websites);
        urls = new Map(websites.map((website) => [urlKey(website.url), website.id]));
        known.set(customer.id, urls);
      }
      const bounds = { minIntervalSeconds: owner.pkg.limits.minCheckIntervalSeconds };
      if (monitor.kind.type === 'check') {
        const mapped = toCheck(monitor, bounds);
        if (mapped.ok) pendingChecks.push({ monitor, owner, mapped });
        else report.invalid.push({ ...said(monitor), errors: mapped.errors });
        continue;
      }
      const mapped = toWebsite(monitor, bounds);
      if (!mapped.ok) {
        const sourceType = monitor.kind.type === 'unsupported' ? monitor.kind.sourceType : 'http';
        report.unsupported.push({ ...said(monitor), sourceType, reason: mapped.reason });
        continue;
      }
      const key = urlKey(mapped.item.url);
      if (urls.has(key)) {
        report.duplicates.push({ ...said(monitor), websiteId: urls.get(key) ?? null });
        continue;
      }
      urls.set(key, null);
      if (mapped.adjusted.length > 0) report.adjusted.push({ ...said(monitor), changes: mapped.adjusted });
      pending.push({ monitor, item: { ...mapped.item, customerId: customer.id } });
    }
    job.progress.done = monitors.length - pending.length - pendingChecks.length;
    await this.save(job);
    let savedAt = Date.now();
    // A dry run stores nothing: each chunk counts the websites the chunks before it would make.
    const planned = new Map<number, number>();
    for (let start = 0; start < pending.length; start += CHUNK) {
      await backgroundTurns.pause();
      const chunk = pending.slice(start, start + CHUNK);
      const outcomes = await this.deps.createMany(
        organizationId,
        chunk.map(({ item }) => item),
        { dryRun: job.dryRun, partial: true, ...(job.dryRun ? { planned } : {}) },
      );
      for (const [i, outcome] of outcomes.entries()) {
        const { monitor, item } = chunk[i] as (typeof chunk)[number];
        if (outcome.status === 'valid') planned.set(item.customerId, (planned.get(item.customerId) ?? 0) + 1);
        if (outcome.status === 'created' && outcome.website)
          report.created.push({
            ...said(monitor),
            websiteId: outcome.website.id,
            publicId: outcome.website.publicId,
          });
        else if (outcome.status === 'valid') report.wouldCreate.push(said(monitor));
        else report.invalid.push({ ...said(monitor), errors: unprefixed(outcome.errors) });
        if (outcome.status !== 'invalid')
          sites.get(item.customerId)?.push({
            id: outcome.website?.id ?? null,
            publicId: outcome.website?.publicId ?? null,
            name: item.name,
            url: item.url,
          });
      }
      job.progress.done += chunk.length;
      // Stored every half second, as the checks' progress: each save rewrites the whole report.
      if (Date.now() - savedAt >= PROGRESS_SAVE_MS) {
        savedAt = Date.now();
        await this.save(job);
      }
    }
    await importChecks({
      organizationId,
      dryRun: job.dryRun,
      pending: pendingChecks,
      sitesOf: (customerId) => sites.get(customerId) ?? [],
      attachTo: 'attachTo' in target ? target.attachTo : null,
      ports: this.deps.checks,
      report,
      progress: async () => {
        job.progress.done += 1;
        if (Date.now() - savedAt < PROGRESS_SAVE_MS) return;
        savedAt = Date.now();
        await this.save(job);
      },
    });
  }

  /** How a monitor's customer is found: the one given, or the source's name (or id) among the organization's. */
  private async customerResolver(
    organizationId: number,
    target: ImportTarget,
  ): Promise<(monitor: SourceMonitor) => { id: number } | { problem: string }> {
    if ('customerId' in target) return () => ({ id: target.customerId });
    const customers = await this.deps.customers(organizationId);
    const byName = new Map(customers.map((customer) => [customer.name.trim().toLowerCase(), customer.id]));
    const ids = new Set(customers.map((customer) => customer.id));
    return (monitor) => {
      const named = monitor.customer?.trim() ?? '';
      if (!named) return { problem: 'the customer column is empty' };
      const id = byName.get(named.toLowerCase()) ?? (ids.has(Number(named)) ? Number(named) : undefined);
      return id === undefined ? { problem: `no customer named "${named}" in your organization` } : { id };
    };
  }
}

/** An item's errors as the batch names them (`items.3.url`), for the import's report (`url`). */
function unprefixed(errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => ({ ...error, path: error.path.replace(/^items\.\d+\.?/, '') }));
}
