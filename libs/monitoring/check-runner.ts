import { ObjectId } from 'mongodb';
import { certificateSummary, type Evidence, evaluate } from '../checks/index.js';
import { type CustomerWithPackage, isMonitored } from '../customers/index.js';
import {
  type BatchInserter,
  isDuplicateKey,
  isMongoUnavailable,
  type MongoHealth,
  withinDeadline,
} from '../db/index.js';
import type { EventKind } from '../events/index.js';
import type { PackageDocument } from '../packages/index.js';
import type { ProbeOptions } from '../probe/index.js';
import { type CheckJobData, isStale } from '../scheduler/index.js';
import type { SecretBox } from '../secrets/index.js';
import { effectiveIntervalSeconds, type WebsiteCache, type WebsiteDocument } from '../websites/index.js';
import type { CheckFeed } from './check-feed.js';
import { type DomainExpiryLookup, observeWebsite, withinPackage } from './check-observation.js';
import { decisionRules } from './decision-rules.js';
import { type EvidenceBodyGate, failureEvidence } from './failure-evidence.js';
import { afterResult } from './monitor-decisions.js';
import { inMaintenanceAt, type MonitorStateDocument, monitorKey } from './monitor-state.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import type { DurableEffects, MongoWrites, MonitorTransitions } from './monitor-transition.js';
import type { PendingRecords } from './pending-records.js';
import { type CheckResultDocument, failuresOf, summaryOf } from './result.repository.js';
import { type CommitSteps, commitResult, writeKept } from './result-commit.js';
import type { RollupRecorder } from './rollups.js';
import type { Health } from './status-machine.js';

/** Where it was before what a check looks at moved to check-observation.ts (its unit test reads it here). */

const DAY_MS = 86_400_000;

/**
 * Every MongoDB operation on the check path gives up after this long, well inside the monitor
 * lock's 15 s TTL (which its holder renews meanwhile): a stalled MongoDB makes the check's result
 * and decision wait in the worker, not the check.
 */
export const CHECK_PATH_MONGO_TIMEOUT_MS = 10_000;

/** What a result led to: the website's confirmed health after it, and the events it told. */
export interface CheckDecision {
  health: Health;
  told: EventKind[];
}

/** A result with what it led to (null: it waits for MongoDB to be decided, or was decided before). */
interface Recorded {
  result: CheckResultDocument;
  recheckSoon: boolean;
  decision: CheckDecision | null;
}

/** What a check came to; `intervalMs` is the website's effective interval where it was read. */
export type RunOutcome =
  | { ran: false; reason: string; intervalMs?: number }
  | ({ ran: true; intervalMs: number } & Recorded);

/** A check made, waiting to be recorded (result stored, status decided). */
export interface PendingRecord {
  /** Its monitor's key (`monitorKey`): the website's own HTTP check. */
  key: string;
  websiteId: number;
  website: WebsiteDocument;
  pkg: PackageDocument;
  /**
   * With its `_id` fixed before the first try, so a retried insert cannot store it twice, and
   * `inMaintenance` settled from the monitor state read before it is stored.
   */
  result: CheckResultDocument & { _id: ObjectId };
  /** The result is in MongoDB. */
  stored: boolean;
  /** Whether `result.inMaintenance` is settled (from the state read before it was first stored). */
  settled: boolean;
  /**
   * Set when it was decided while MongoDB was away (on the hot state in Redis, under the monitor
   * lock): what MongoDB still owes for that decision, written after the result. Null: it waits to
   * be decided.
   */
  decided: { effects: DurableEffects | null } | null;
  /** What a failing check saw (its alert carries it). */
  evidence?: Evidence;
}

/**
 * One check of one website from one region: the I/O (probe, extra lookups the enabled checks
 * need), then the pure evaluation and status decision, then storage. A failed check is data in
 * the result; an exception here means infrastructure trouble and the job is retried.
 */
export class CheckRunner {
  constructor(
    private readonly deps: {
      websites: WebsiteCache;
      /** The website's customer and package (null: gone), as last read (see `LastReadCache`). */
      owner(website: WebsiteDocument): Promise<CustomerWithPackage | null>;
      secrets: SecretBox;
      states: MonitorStateRepository;
      transitions: MonitorTransitions;
      /** Stores results in batches; resolves once the result is in MongoDB. */
      results: BatchInserter<CheckResultDocument>;
      /** Told of each stored result (hourly rollups for status pages and badges). */
      rollups: Pick<RollupRecorder, 'add'>;
      /** Told of each decided check (the overview's bars and its live stream). */
      feed?: Pick<CheckFeed, 'told'>;
      probe: ProbeOptions;
      domainExpiry: DomainExpiryLookup;
      nodeId: string;
      /** The quick re-check's delay: part of how long a region's last result stays fresh. */
      recheckDelayMs: number;
      /** Where results wait while MongoDB cannot take them. */
      pending: Pick<PendingRecords<PendingRecord>, 'add' | 'holds' | 'holdsUndecided'>;
      /** Whether MongoDB answers now: while it does not, results and MongoDB's part of decisions wait. */
      mongo: Pick<MongoHealth, 'available'>;
      /** Failing results keep evidence; its body once per website, region and 5 minutes. */
      evidence: {
        gate: EvidenceBodyGate;
        /** A stored result's evidence (null: none): a down alert quotes the first failure's body. */
        read(organizationId: number, websiteId: number, resultId: string): Promise<Evidence | null>;
        stored(withBody: boolean, bytes: number): void;
        failed(error: unknown): void;
      };
    },
  ) {}

  /** `plannedAt`: when the check was due (epoch ms); one more than an interval late is dropped as stale. */
  async run(job: CheckJobData, plannedAt: number = Date.now()): Promise<RunOutcome> {
    const website = await this.deps.websites.get(job.organizationId, job.websiteId);
    if (!website) return { ran: false, reason: 'website deleted' };
    const owner = await this.deps.owner(website);
    if (!owner) return { ran: false, reason: 'customer or package missing' };
    const { customer, pkg } = owner;
    const intervalMs = effectiveIntervalSeconds(website, pkg) * 1000;
    if (website.paused || !isMonitored(customer.status))
      return { ran: false, reason: 'not monitored', intervalMs };
    if (isStale(plannedAt, Date.now(), intervalMs)) return { ran: false, reason: 'stale', intervalMs };

    const config = withinPackage(website.checkConfig, pkg);
    const { observation, sent } = await observeWebsite(website, config, this.deps);
    const now = new Date();
    const { status, checks } = evaluate(observation, { config, alerting: pkg.alerting, now });
    const result: CheckResultDocument = {
      organizationId: website.organizationId,
      websiteId: website.id,
      region: job.region,
      nodeId: this.deps.nodeId,
      startedAt: observation.startedAt,
      status,
      inMaintenance: false, // settled from the monitor state before it is stored
      httpStatus: observation.httpStatus,
      sizeBytes: observation.sizeBytes,
      truncated: observation.bodyTruncated,
      timings: observation.timings,
      redirects: observation.redirects,
      error: observation.error,
      checks,
      ssl: observation.tls && certificateSummary(observation.tls, now),
      retainUntil: new Date(observation.startedAt.getTime() + pkg.limits.resultRetentionDays * DAY_MS),
    };
    let evidence: Evidence | undefined;
    if (status !== 'up') {
      const { gate, stored, failed } = this.deps.evidence;
      // Evidence is a help, the result is the record: a result is stored without it, never lost for it.
      await failureEvidence({
        website,
        observation,
        status,
        region: job.region,
        nodeId: this.deps.nodeId,
        sent,
        gate,
      }).then((kept) => {
        Object.assign(result, kept.fields);
        evidence = kept.evidence;
        stored(kept.withBody, kept.fields.evidenceBytes ?? 0);
      }, failed);
    }
    const entry: PendingRecord = {
      key: monitorKey(website.id, null),
      websiteId: website.id,
      website,
      pkg,
      result: { ...result, _id: new ObjectId() },
      stored: false,
      settled: false,
      decided: null,
      ...(evidence ? { evidence } : {}),
    };
    return { ran: true, intervalMs, ...(await this.record(entry, { replay: false })) };
  }

  /** Records a kept result (see `PendingRecords`): stored, then decided or its decision's effects written. */
  async recordKept(entry: PendingRecord): Promise<void> {
    await writeKept(
      this.deps,
      entry,
      () => this.record(entry, { replay: true }),
      () => this.store(entry.result, 'now'),
    );
  }

  /**
   * Fills the website cache and the hot monitor states of these websites in bulk (a worker's
   * start), so the first interval does not cost a MongoDB read or two per website.
   */
  async warmUp(websiteIds: readonly number[]): Promise<{ websites: number; states: number }> {
    const websites = await this.deps.websites.prime(websiteIds);
    return { websites: websites.length, states: await this.deps.states.prime(websites) };
  }

  /**
   * Commits a check straight through: what the decision needs read first (the monitor state for
   * the result's maintenance flag, an earlier failure's evidence for a down alert), the result
   * stored, then the pure decision and its writes under the monitor lock (`commitResult`), so a
   * status is never visible before the result behind it. While MongoDB is away (or a result of the
   * website waits in the buffer) the decision is made on the hot state all the same, and the
   * result and MongoDB's part of the decision are kept in the buffer.
   */
  private async record(entry: PendingRecord, options: { replay: boolean }): Promise<Recorded> {
    const { website, pkg } = entry;
    const { pending, transitions } = this.deps;
    const waiting = { result: entry.result, recheckSoon: false, decision: null };
    const { result } = entry;
    const rules = decisionRules(website, pkg, {
      recheckDelayMs: this.deps.recheckDelayMs,
      reportingRegion: result.region,
    });
    const prepare = async () => {
      const state = await this.deps.states.load(website.organizationId, website.id);
      if (!entry.settled) {
        result.inMaintenance = inMaintenanceAt(state, result.startedAt);
        entry.settled = true;
      }
      return this.steps(entry, rules, await this.earlierEvidence(entry, state));
    };
    const done = await commitResult({ transitions, pending }, entry, prepare, options);
    if (!done || done.refused) return waiting;
    void this.deps.feed?.told(result, website, done.state);
    // The regions of an incident this result resolved: their next failure (a new incident's first) keeps a body soon.
    for (const region of done.result.recovered) await this.deps.evidence.gate.reopen(website.id, region);
    return {
      result,
      recheckSoon: done.result.recheckSoon,
      decision: { health: done.state.health, told: done.result.told },
    };
  }

  /** How a check's result is stored and decided (`commitResult`). */
  private steps(
    entry: PendingRecord,
    rules: ReturnType<typeof decisionRules>,
    earlier: { id: string; evidence: Evidence } | null,
  ): CommitSteps<{ recheckSoon: boolean; told: EventKind[]; recovered: string[] }> {
    const { result, website } = entry;
    const id = result._id.toHexString();
    return {
      subject: website,
      region: result.region,
      at: result.startedAt,
      store: (mongoWrites) => this.store(result, mongoWrites),
      decide: (state) => {
        const outcome = afterResult(
          state,
          { ...result, id, cause: result.status === 'down' ? failuresOf(result).join('; ') : null },
          rules,
        );
        const toldDown = outcome.events.some((e) => e.type === 'website.down' && !e.reminder);
        // A down told now carries what it saw (reminders do not repeat it): the region's first
        // failure's when this one's body was left out and that one is the first still.
        const first = outcome.state.regions[result.region]?.firstDownResultId;
        const evidence = earlier && earlier.id === first ? earlier.evidence : entry.evidence;
        return {
          result: {
            recheckSoon: outcome.recheckSoon,
            told: outcome.events.map((e) => e.type),
            recovered: outcome.incident === 'resolve' ? Object.keys(outcome.state.regions) : [],
          },
          plan: {
            trigger: `result:${result.region}:${result.startedAt.getTime()}`,
            at: result.startedAt,
            outcome,
            details: {
              result: summaryOf(result),
              ...(toldDown && evidence ? { evidence } : {}),
              ...(outcome.events.some((e) => e.type.startsWith('ssl.')) ? { ssl: result.ssl } : {}),
            },
          },
        };
      },
    };
  }

  /**
   * The evidence of the region's first failure, when this failing result's body was left out (one
   * body per website, region and 5 minutes) and a down may be told now: read before the lock,
   * within the check path's bound; any trouble reading it leaves this result's own.
   */
  private async earlierEvidence(
    entry: PendingRecord,
    state: MonitorStateDocument,
  ): Promise<{ id: string; evidence: Evidence } | null> {
    const first = state.regions[entry.result.region]?.firstDownResultId;
    if (state.health === 'down' || entry.evidence?.body?.kind !== 'omitted' || !first) return null;
    const { organizationId, websiteId } = entry.result;
    const found = await withinDeadline(
      this.deps.evidence.read(organizationId, websiteId, first),
      CHECK_PATH_MONGO_TIMEOUT_MS,
      `evidence of result ${first}`,
    ).catch(() => null);
    return found?.body && found.body.kind !== 'omitted' ? { id: first, evidence: found } : null;
  }

  /**
   * Stores a result once (one an earlier try stored is not stored or rolled up again); false when
   * MongoDB cannot take it now and `mongoWrites` lets it wait.
   */
  private async store(result: CheckResultDocument, mongoWrites: MongoWrites): Promise<boolean> {
    if (mongoWrites === 'defer-if-away' && !this.deps.mongo.available) return false;
    try {
      await this.deps.results.insert(result);
    } catch (error) {
      if (isDuplicateKey(error)) return true;
      if (mongoWrites === 'defer-if-away' && isMongoUnavailable(error)) return false;
      throw error;
    }
    this.deps.rollups.add(result);
    return true;
  }
}
