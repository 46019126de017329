import type { CustomerWithPackage } from '../customers/index.js';
import { type MongoHealth, withinDeadline } from '../db/index.js';
import {
  afterResult,
  CHECK_PATH_MONGO_TIMEOUT_MS,
  type DecisionRules,
  type DurableEffects,
  type EventDetails,
  inMaintenanceAt,
  isRecordRetryable,
  type MongoWrites,
  type MonitorStateDocument,
  type MonitorStateRepository,
  type MonitorSubject,
  type MonitorTransitions,
} from '../monitoring/index.js';
import type { Revisions } from '../redis/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import type {
  IntervalMonitor,
  MonitorDocument,
  MonitorLogEntry,
  MonitorRepository,
} from './monitor.repository.js';
import { dnsEvents, intervalCheckRules, type MonitorVerdict, verdictSummary } from './monitor-evaluation.js';
import type { Gathered } from './monitor-gather.js';
import type { MonitorSummaries } from './monitor-summaries.js';

/** How long a fresh result's write is waited for before it is kept for later (MongoDB stalled). */
const STORE_WAIT_MS = 2_000;

/** Who is checked, and whether it is meant to be now. */
export interface Subject {
  website: WebsiteDocument;
  owner: CustomerWithPackage;
  monitored: boolean;
}

/** A gathered result of an interval monitor waiting to be committed (see `MonitorRunner.commit`). */
export interface PendingMonitorRecord {
  /** Its monitor's key (`monitorKey`): the order its results are kept and written in. */
  key: string;
  websiteId: number;
  monitor: IntervalMonitor;
  subject: Subject;
  gathered: Gathered;
  /** Its log entry, named (`once`) so a retried write cannot store it twice. */
  log: MonitorLogEntry & { once: string };
  /** The numbers of its log an insert of it was tried under (a retry looks there for it first). */
  tried: number[];
  /** Its log entry is in MongoDB. */
  stored: boolean;
  /** Set when decided while MongoDB was away: what MongoDB still owes for it. Null: waits to be decided. */
  decided: { effects: DurableEffects | null } | null;
}

/** Where results wait while MongoDB cannot take them: one buffer with the HTTP checks', in order per monitor. */
export interface KeptResults {
  add(entry: PendingMonitorRecord): void;
  holds(key: string): boolean;
  holdsUndecided(key: string): boolean;
}

export interface MonitorCommitterDependencies {
  repository: MonitorRepository;
  /** Bumped when a DNS check's memory is written (workers keep its configuration by revision). */
  revisions: Pick<Revisions, 'bump'>;
  states: MonitorStateRepository;
  transitions: MonitorTransitions;
  summaries: MonitorSummaries;
  recheckDelayMs: number;
  pending: KeptResults;
  /** Whether MongoDB answers now: while it does not, results and MongoDB's part of decisions wait. */
  mongo: Pick<MongoHealth, 'available'>;
}

/**
 * The one way a monitor's verdict becomes state, incident, timeline and events: decided by the
 * pure status machine under the monitor's lock, written by the transition path, and kept in the
 * worker's buffer (with the HTTP checks' results) while MongoDB cannot take it.
 */
export class MonitorCommitter {
  constructor(private readonly deps: MonitorCommitterDependencies) {}

  /** A verdict through the status machine and the transition path (under the monitor's lock). */
  async decide(
    monitor: MonitorDocument,
    subject: Subject,
    verdict: MonitorVerdict,
    facts: {
      region: string;
      at: Date;
      rules: DecisionRules & { reminderIntervalMinutes: number };
      trigger: string;
      /** Under the lock, before deciding (what the monitor remembers moves with its state). */
      before?: (state: MonitorStateDocument) => Promise<void>;
      events?: (outcome: ReturnType<typeof afterResult>) => ReturnType<typeof afterResult>['events'];
      details?: Partial<EventDetails>;
      /** Where MongoDB's part goes (see `MonitorTransitions.run`); now unless said. */
      mongoWrites?: () => MongoWrites;
      /** A kept result decided once MongoDB answers: one an earlier try decided already is not decided again. */
      replay?: boolean;
    },
  ): Promise<{ recheckSoon: boolean; kept: DurableEffects | null }> {
    const { website } = subject;
    const websiteState = await this.deps.states.load(website.organizationId, website.id);
    const subjectOf: MonitorSubject = {
      organizationId: website.organizationId,
      id: website.id,
      publicId: website.publicId,
      name: website.name,
      url: website.url,
      customerId: website.customerId,
      monitor: { kind: monitor.kind, id: monitor.id, name: monitor.name },
    };
    const done = await this.deps.transitions.run(
      subjectOf,
      async (state) => {
        const decidedUpTo = state.regions[facts.region]?.lastResultAt ?? Number.NEGATIVE_INFINITY;
        if (facts.replay && decidedUpTo >= facts.at.getTime()) return { result: false, plan: null };
        await facts.before?.(state);
        const outcome = afterResult(
          state,
          {
            region: facts.region,
            status: verdict.status,
            startedAt: facts.at,
            inMaintenance: inMaintenanceAt(websiteState, facts.at),
            checks: verdict.checks,
            cause: verdict.cause,
          },
          facts.rules,
        );
        const told = facts.events ? { ...outcome, events: facts.events(outcome) } : outcome;
        return {
          result: told.recheckSoon,
          plan: {
            trigger: facts.trigger,
            at: facts.at,
            outcome: told,
            details: {
              result: verdictSummary(verdict, facts.region, facts.at),
              ...facts.details,
            },
          },
        };
      },
      facts.mongoWrites ?? 'now',
    );
    if (!done.refused)
      await this.deps.summaries.write(website.id, {
        kind: monitor.kind,
        id: monitor.id,
        name: monitor.name,
        health: done.state.health,
      });
    return { recheckSoon: done.refused ? false : done.result, kept: done.kept };
  }

  /**
   * Commits a gathered result: its log entry stored (outside the monitor's lock), then its verdict
   * decided and MongoDB's part written under the lock. While MongoDB is away (or a result of the
   * website waits already) the decision is made on the hot state all the same and what MongoDB
   * is owed waits in the worker's buffer, written in order once it answers (`recordKept`).
   */
  async commit(entry: PendingMonitorRecord, options: { replay: boolean }): Promise<{ recheckSoon: boolean }> {
    const { pending } = this.deps;
    // An earlier result of this website waits to be decided: this one is decided after it.
    if (!options.replay && pending.holdsUndecided(entry.key)) {
      pending.add(entry);
      return { recheckSoon: false };
    }
    let mongoWrites: MongoWrites = options.replay
      ? 'now'
      : pending.holds(entry.key)
        ? 'defer'
        : 'defer-if-away';
    if (!entry.stored && mongoWrites !== 'defer')
      entry.stored = await this.storeLog(entry, mongoWrites, options);
    if (!entry.stored) mongoWrites = 'defer';
    const { monitor, subject, gathered } = entry;
    const { pkg } = subject.owner;
    try {
      const done = await this.decide(monitor, subject, gathered.verdict, {
        region: gathered.result.region,
        at: gathered.at,
        rules: intervalCheckRules(monitor, subject.website.scheduledRegions, pkg, this.deps.recheckDelayMs),
        trigger: `result:${gathered.result.region}:${gathered.at.getTime()}`,
        details: gathered.details,
        mongoWrites: () => mongoWrites,
        replay: options.replay,
        ...(gathered.dns ? this.dnsFacts(monitor, gathered.dns) : {}),
      });
      if (!entry.stored || done.kept) pending.add({ ...entry, decided: { effects: done.kept } });
      return done;
    } catch (error) {
      // No hot state to decide on while MongoDB is away: kept, decided when it answers.
      if (options.replay || !isRecordRetryable(error)) throw error;
      pending.add(entry);
      return { recheckSoon: false };
    }
  }

  /** What a DNS check learned, judged again under the lock from the check as stored now (an accepted change). */
  private dnsFacts(check: IntervalMonitor, dns: NonNullable<Gathered['dns']>) {
    let verdict = dns.verdict;
    return {
      before: async () => {
        const stored = await this.deps.repository.findById(check.organizationId, check.id);
        if (stored?.kind !== 'dns') return;
        verdict = dns.judge(stored);
        const { learned, pendingChange } = verdict.memory;
        if (learned !== stored.learned || pendingChange !== stored.pendingChange) {
          await this.deps.repository.setDnsMemory(stored, verdict.memory);
          await this.deps.revisions.bump(stored.id);
        }
      },
      events: (outcome: ReturnType<typeof afterResult>) => dnsEvents(outcome.events, verdict),
    };
  }

  /**
   * Stores the result's log entry once (a retry looks for an earlier try that landed late); false
   * when MongoDB cannot take it now and `mongoWrites` lets it wait. A fresh result's write is
   * waited for `STORE_WAIT_MS` at most: a stalled MongoDB does not hold its decision back (should
   * the write land later, the kept copy's retry finds it).
   */
  private async storeLog(
    entry: PendingMonitorRecord,
    mongoWrites: MongoWrites,
    options: { replay: boolean },
  ): Promise<boolean> {
    if (mongoWrites === 'defer-if-away' && !this.deps.mongo.available) return false;
    try {
      if (options.replay) await this.deps.repository.appendLogOnce(entry.log, entry.tried);
      else
        await withinDeadline(
          this.deps.repository.appendLog(entry.log, {
            timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
            tried: (n) => entry.tried.push(n),
          }),
          STORE_WAIT_MS,
          `result of ${entry.log.kind} ${entry.log.monitorId}`,
        );
      return true;
    } catch (error) {
      if (mongoWrites === 'defer-if-away' && isRecordRetryable(error)) return false;
      throw error;
    }
  }

  /** Records a kept result (see `PendingRecords`): stored, then decided or its decision's effects written. */
  async recordKept(entry: PendingMonitorRecord): Promise<void> {
    if (!entry.decided) {
      await this.commit(entry, { replay: true });
      return;
    }
    if (!entry.stored) entry.stored = await this.storeLog(entry, 'now', { replay: true });
    if (entry.decided.effects) await this.deps.transitions.applyKept(entry.decided.effects);
  }
}
