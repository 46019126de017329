import type { CustomerWithPackage } from '../customers/index.js';
import { type MongoHealth, withinDeadline } from '../db/index.js';
import type { SiteHealthNews } from '../events/index.js';
import {
  afterResult,
  CHECK_PATH_MONGO_TIMEOUT_MS,
  type CommitSteps,
  commitResult,
  type DecisionRules,
  type DurableEffects,
  type EventDetails,
  inMaintenanceAt,
  isRecordRetryable,
  type KeptEntries,
  type MongoWrites,
  type MonitorOutcome,
  type MonitorStateDocument,
  type MonitorStateRepository,
  type MonitorTransitions,
  monitorKey,
  writeKept,
} from '../monitoring/index.js';
import type { Revisions } from '../redis/index.js';
import { siteHealthEventKinds } from '../site-health/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { type DnsVerdict, dnsEvents } from './kinds/index.js';
import type {
  HeartbeatDocument,
  MonitorDocument,
  MonitorLogEntry,
  MonitorRepository,
} from './monitor.repository.js';
import {
  heartbeatRules,
  intervalCheckRules,
  type MonitorVerdict,
  PUSH_REGION,
  verdictSummary,
} from './monitor-evaluation.js';
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

/** The times a ping says a heartbeat was heard at (each only moves forward when written). */
export type HeardTimes = Partial<Pick<HeartbeatDocument, 'lastSuccessAt' | 'lastStartAt' | 'lastFailureAt'>>;

/**
 * A verdict of a monitor waiting to be committed: an interval check's gathered result (see
 * `MonitorRunner.checkDue`) or a heartbeat's ping (`MonitorRunner.onPing`).
 */
export interface PendingMonitorRecord {
  /** Its monitor's key (`monitorKey`): the order its results are kept and written in. */
  key: string;
  websiteId: number;
  monitor: MonitorDocument;
  subject: Subject;
  gathered: Omit<Gathered, 'result' | 'seen' | 'site'>;
  /** Its log entry, named (`once`) so a retried write cannot store it twice. */
  log: MonitorLogEntry & { once: string };
  /** A ping's times, written with its log entry (before the decision, so a deadline read after sees them). */
  heard?: HeardTimes;
  /** The numbers of its log an insert of it was tried under (a retry looks there for it first). */
  tried: number[];
  /**
   * Its first write, given up on after `STORE_WAIT_MS` but perhaps still on its way (its number
   * not chosen yet): a retry waits for it to settle before looking, or both would land.
   */
  writing?: Promise<void>;
  /** Its log entry is in MongoDB. */
  stored: boolean;
  /** Set when decided while MongoDB was away: what MongoDB still owes for it. Null: waits to be decided. */
  decided: { effects: DurableEffects | null } | null;
}

/**
 * A heartbeat's missed deadline decided on the hot state while MongoDB did not answer: it has no
 * result to store, only what MongoDB owes for the decision (its state, incident, events).
 */
export interface KeptDeadlineDecision {
  key: string;
  websiteId: number;
  /** When the deadline was judged (the decision's time). */
  judgedAt: Date;
  stored: true;
  decided: { effects: DurableEffects };
}

/** What a monitor keeps in the worker's buffer: a result, or a deadline's decision. */
export type KeptMonitorEntry = PendingMonitorRecord | KeptDeadlineDecision;

/** Whether a kept entry is a monitor's (else an HTTP check's result). */
export function isKeptMonitorEntry(entry: object): entry is KeptMonitorEntry {
  return 'log' in entry || 'judgedAt' in entry;
}

/** Where results wait while MongoDB cannot take them: one buffer with the HTTP checks', in order per monitor. */
export type KeptResults = KeptEntries<KeptMonitorEntry>;

/** What a verdict is decided with. */
interface DecisionFacts {
  region: string;
  at: Date;
  rules: DecisionRules & { reminderIntervalMinutes: number };
  trigger: string;
  events?: (outcome: MonitorOutcome) => MonitorOutcome['events'];
  details?: Partial<EventDetails>;
}

/**
 * A site-health run's news told beside what its verdict tells: one event per kind of news (new
 * broken links, new mixed content, scores under their thresholds), whatever the monitor's health.
 */
function siteEvents(outcome: MonitorOutcome, news: SiteHealthNews | null): MonitorOutcome['events'] {
  const health = outcome.state.health;
  return [
    ...outcome.events,
    ...siteHealthEventKinds(news).map((type) => ({ type, previousStatus: health, status: health })),
  ];
}

/** A DNS check's memory is judged again this often at most when other writers keep winning. */
const DNS_MEMORY_ATTEMPTS = 3;

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

  /**
   * A heartbeat's missed deadline through the status machine and the transition path: the
   * website's state read first (its maintenance), the pure decision and its writes under the
   * monitor's lock. While MongoDB does not answer, it is decided on the hot state all the same and
   * what MongoDB owes waits in the buffer (behind what of this monitor waits already), so the
   * deadline's event says when it was missed, not when MongoDB answered again. False: not decided
   * now, since a result of this monitor waits to be decided first (judge the deadline again later).
   */
  async decideDeadline(
    monitor: MonitorDocument,
    subject: Subject,
    verdict: MonitorVerdict,
    facts: DecisionFacts,
  ): Promise<boolean> {
    const key = monitorKey(monitor.websiteId, { kind: monitor.kind, id: monitor.id });
    const { pending, mongo } = this.deps;
    if (pending.holdsUndecided(key)) return false;
    const steps = await this.steps(monitor, subject, verdict, facts);
    const done = await this.deps.transitions.run(steps.subject, steps.decide, () =>
      pending.holds(key) || !mongo.available ? 'defer' : 'defer-if-away',
    );
    if (done.kept)
      pending.add({
        key,
        websiteId: monitor.websiteId,
        judgedAt: facts.at,
        stored: true,
        decided: { effects: done.kept },
      });
    await this.summarise(monitor, subject, done);
    return true;
  }

  /** How a verdict is decided (pure, under the lock), with what it needs read before. */
  private async steps(
    monitor: MonitorDocument,
    subject: Subject,
    verdict: MonitorVerdict,
    facts: DecisionFacts,
  ): Promise<Omit<CommitSteps<boolean>, 'store'>> {
    const { website } = subject;
    const websiteState = await this.deps.states.load(website.organizationId, website.id);
    return {
      subject: {
        organizationId: website.organizationId,
        id: website.id,
        publicId: website.publicId,
        name: website.name,
        url: website.url,
        customerId: website.customerId,
        monitor: { kind: monitor.kind, id: monitor.id, name: monitor.name },
      },
      region: facts.region,
      at: facts.at,
      decide: (state) => {
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
            details: { result: verdictSummary(verdict, facts.region, facts.at), ...facts.details },
          },
        };
      },
    };
  }

  /** The monitor's health where the website's views read it (after a decision that stood). */
  private async summarise(
    monitor: MonitorDocument,
    subject: Subject,
    done: { refused: boolean; state: MonitorStateDocument },
  ): Promise<void> {
    if (done.refused) return;
    await this.deps.summaries.write(subject.website.id, {
      kind: monitor.kind,
      id: monitor.id,
      name: monitor.name,
      health: done.state.health,
    });
  }

  /**
   * Commits a gathered result straight through (`commitResult`): a DNS check's memory settled and
   * the website's state read, its log entry stored (outside the monitor's lock), then its verdict
   * decided and MongoDB's part written under the lock. While MongoDB is away the decision is made
   * on the hot state all the same and what MongoDB is owed waits in the worker's buffer.
   */
  async commit(entry: PendingMonitorRecord, options: { replay: boolean }): Promise<{ recheckSoon: boolean }> {
    const { monitor, subject, gathered, log } = entry;
    const { pkg } = subject.owner;
    const region = log.result?.region ?? PUSH_REGION;
    const prepare = async (): Promise<CommitSteps<boolean>> => {
      const dns = gathered.dns ? await this.settleDnsMemory(monitor, gathered.dns) : null;
      const steps = await this.steps(monitor, subject, dns ?? gathered.verdict, {
        region,
        at: gathered.at,
        rules:
          monitor.kind === 'heartbeat'
            ? heartbeatRules(pkg)
            : intervalCheckRules(monitor, subject.website.scheduledRegions, pkg, this.deps.recheckDelayMs),
        trigger: log.ping
          ? `ping:${log.ping.kind}:${gathered.at.getTime()}`
          : `result:${region}:${gathered.at.getTime()}`,
        details: gathered.siteNews
          ? { ...gathered.details, siteHealth: gathered.siteNews }
          : gathered.details,
        ...(dns ? { events: (outcome: MonitorOutcome) => dnsEvents(outcome.events, dns) } : {}),
        ...(gathered.siteNews
          ? { events: (outcome: MonitorOutcome) => siteEvents(outcome, gathered.siteNews ?? null) }
          : {}),
      });
      return { ...steps, store: (mongoWrites) => this.storeLog(entry, mongoWrites, options) };
    };
    const done = await commitResult(this.deps, entry, prepare, options);
    if (!done) return { recheckSoon: false };
    await this.summarise(monitor, subject, done);
    return { recheckSoon: done.refused ? false : done.result };
  }

  /**
   * What a DNS check learned, judged again from the check as stored now (a change accepted
   * meanwhile) and written only over the memory it was judged from: should another region's check
   * or an acknowledgement have written first, it is judged again from theirs.
   */
  private async settleDnsMemory(
    check: MonitorDocument,
    dns: NonNullable<Gathered['dns']>,
  ): Promise<DnsVerdict> {
    let verdict = dns.verdict;
    for (let attempt = 0; attempt < DNS_MEMORY_ATTEMPTS; attempt++) {
      const stored = await this.deps.repository.findById(check.organizationId, check.id);
      if (stored?.kind !== 'dns') return verdict;
      verdict = dns.judge(stored);
      const { learned, pendingChange } = verdict.memory;
      if (learned === stored.learned && pendingChange === stored.pendingChange) return verdict;
      if (await this.deps.repository.setDnsMemory(stored, verdict.memory)) {
        await this.deps.revisions.bump(stored.id);
        return verdict;
      }
    }
    return verdict;
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
    const { repository } = this.deps;
    try {
      if (options.replay) {
        await entry.writing;
        await repository.appendLogOnce(entry.log, entry.tried);
      } else {
        const write = repository.appendLog(entry.log, {
          timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
          tried: (n) => entry.tried.push(n),
        });
        entry.writing = write.then(
          () => undefined,
          () => undefined,
        );
        await withinDeadline(write, STORE_WAIT_MS, `result of ${entry.log.kind} ${entry.log.monitorId}`);
      }
      // `$max`: written again on a retry, a ping's times never move back.
      if (entry.heard)
        await withinDeadline(
          repository.heard(entry.monitor, entry.heard),
          STORE_WAIT_MS,
          `ping times of heartbeat ${entry.monitor.id}`,
        );
      return true;
    } catch (error) {
      if (mongoWrites === 'defer-if-away' && isRecordRetryable(error)) return false;
      throw error;
    }
  }

  /** Records a kept entry (see `PendingRecords`): stored, then decided or its decision's effects written. */
  async recordKept(entry: KeptMonitorEntry): Promise<void> {
    if (!('log' in entry)) {
      await this.deps.transitions.applyKept(entry.decided.effects);
      return;
    }
    await writeKept(
      this.deps,
      entry,
      () => this.commit(entry, { replay: true }),
      () => this.storeLog(entry, 'now', { replay: true }),
    );
  }
}
