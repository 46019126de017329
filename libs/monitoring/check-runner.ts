import { ObjectId } from 'mongodb';
import {
  type CheckConfig,
  certificateSummary,
  type Evidence,
  evaluate,
  type Observation,
} from '../checks/index.js';
import { type CustomerWithPackage, isMonitored } from '../customers/index.js';
import {
  type BatchInserter,
  isDuplicateKey,
  isMongoUnavailable,
  type MongoHealth,
  withinDeadline,
} from '../db/index.js';
import type { EventKind } from '../events/index.js';
import { LockTimeoutError } from '../locks/index.js';
import { includesFeature, type PackageDocument } from '../packages/index.js';
import { type ProbeOptions, type ProbeRequest, probeHttp } from '../probe/index.js';
import { type CheckJobData, isStale } from '../scheduler/index.js';
import type { SecretBox } from '../secrets/index.js';
import {
  CHECK_FEATURES,
  effectiveIntervalSeconds,
  mtlsKeyContext,
  openRequest,
  type WebsiteCache,
  type WebsiteDocument,
} from '../websites/index.js';
import { decisionRules } from './decision-rules.js';
import { type EvidenceBodyGate, failureEvidence, type SentRequest } from './failure-evidence.js';
import { afterResult } from './monitor-decisions.js';
import { inMaintenanceAt, type MonitorStateDocument, monitorKey } from './monitor-state.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import type { DurableEffects, MongoWrites, MonitorTransitions } from './monitor-transition.js';
import type { PendingRecords } from './pending-records.js';
import { type CheckResultDocument, failuresOf, summaryOf } from './result.repository.js';
import type { RollupRecorder } from './rollups.js';
import type { Health } from './status-machine.js';

/** Looks up when a domain expires (RDAP, then WHOIS). */
export type DomainExpiryLookup = (hostname: string) => Promise<Observation['domain']>;

const MIN_BODY_CAP = 10 * 1024 * 1024;
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

export type RunOutcome = { ran: false; reason: string } | ({ ran: true } & Recorded);

/** A check made, waiting to be recorded (result stored, status decided). */
export interface PendingRecord {
  /** Its monitor's key (`monitorKey`): the website's own HTTP check. */
  key: string;
  websiteId: number;
  website: WebsiteDocument;
  pkg: PackageDocument;
  /** With its `_id` fixed before the first try, so a retried insert cannot store it twice. */
  result: CheckResultDocument & { _id: ObjectId };
  /**
   * Set when it was decided while MongoDB was away (on the hot state in Redis, under the monitor
   * lock): what MongoDB still owes for that decision, written after the result. Null: it waits to
   * be decided.
   */
  decided: { effects: DurableEffects | null } | null;
  /** What a failing check saw (its alert carries it). */
  evidence?: Evidence;
}

/** MongoDB cannot take the record now (gone, stalled, or a lock held by a record stuck in it). */
export function isRecordRetryable(error: unknown): boolean {
  return isMongoUnavailable(error) || error instanceof LockTimeoutError;
}

/** Checks the package no longer includes are off, whatever the stored configuration says. */
function withinPackage(config: CheckConfig, pkg: PackageDocument): CheckConfig {
  const limited = { ...config };
  for (const [key, feature] of Object.entries(CHECK_FEATURES) as Array<
    [keyof typeof CHECK_FEATURES, (typeof CHECK_FEATURES)[keyof typeof CHECK_FEATURES]]
  >) {
    if (!includesFeature(pkg, feature)) limited[key] = false;
  }
  if (!includesFeature(pkg, 'assertions')) limited.assertions = [];
  return limited;
}

/**
 * What the HTTPS redirect check asks, without following: an `https://` website's host and path over
 * plain HTTP on its standard port (80: a visitor typing the bare name), or an `http://` website's
 * own URL.
 */
export function plainHttpUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return parsed.href;
  parsed.protocol = 'http:';
  parsed.port = '';
  return parsed.href;
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
    if (website.paused || !isMonitored(customer.status)) return { ran: false, reason: 'not monitored' };
    if (isStale(plannedAt, Date.now(), effectiveIntervalSeconds(website, pkg) * 1000))
      return { ran: false, reason: 'stale' };

    const config = withinPackage(website.checkConfig, pkg);
    const { observation, sent } = await this.observe(website, config);
    const now = new Date();
    const { status, checks } = evaluate(observation, { config, alerting: pkg.alerting, now });
    const result: CheckResultDocument = {
      organizationId: website.organizationId,
      websiteId: website.id,
      region: job.region,
      nodeId: this.deps.nodeId,
      startedAt: observation.startedAt,
      status,
      inMaintenance: false, // settled under the monitor lock, from the monitor state
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
      decided: null,
      ...(evidence ? { evidence } : {}),
    };
    const { pending } = this.deps;
    // An earlier result of this website waits to be decided: this one is decided after it.
    if (!pending.holdsUndecided(entry.key)) {
      try {
        return { ran: true, ...(await this.record(entry, { replay: false })) };
      } catch (error) {
        // No hot state to decide on while MongoDB is away (or its lock held by a stalled record).
        if (!isRecordRetryable(error)) throw error;
      }
    }
    pending.add(entry);
    return { ran: true, result, recheckSoon: false, decision: null };
  }

  /** Records a kept result (see `PendingRecords`): stored, then decided or its decision's effects written. */
  async recordKept(entry: PendingRecord): Promise<void> {
    if (!entry.decided) {
      await this.record(entry, { replay: true });
      return;
    }
    await this.store(entry.result, 'now');
    if (entry.decided.effects) await this.deps.transitions.applyKept(entry.decided.effects);
  }

  /**
   * Fills the website cache and the hot monitor states of these websites in bulk (a worker's
   * start), so the first interval does not cost a MongoDB read or two per website.
   */
  async warmUp(websiteIds: readonly number[]): Promise<{ websites: number; states: number }> {
    const websites = await this.deps.websites.prime(websiteIds);
    return { websites: websites.length, states: await this.deps.states.prime(websites) };
  }

  /** What the check saw, and the request it sent (its secrets opened: evidence blanks them). */
  private async observe(
    website: WebsiteDocument,
    config: CheckConfig,
  ): Promise<{ observation: Observation; sent: SentRequest }> {
    // Secret headers and body are opened here, for the probe and the evidence, and nowhere else.
    const { headers, body, originBound } = openRequest(website, this.deps.secrets);
    const request: ProbeRequest = {
      url: website.url,
      method: website.httpMethod,
      headers,
      body,
      originBound,
      followRedirects: website.followRedirects,
      maxRedirects: website.maxRedirects,
      cookieHandling: website.cookieHandling,
      clientCertificate:
        website.mtlsEnabled && website.mtlsClientCert && website.mtlsClientKey
          ? {
              cert: website.mtlsClientCert,
              key: this.deps.secrets.open(website.mtlsClientKey, mtlsKeyContext(website.id)),
            }
          : null,
      timeoutMs: website.timeoutSeconds * 1000,
      maxBodyBytes: Math.max(config.maxPageSize ?? 0, MIN_BODY_CAP),
    };
    const plainHttp = async () => {
      const answer = await probeHttp(
        {
          ...request,
          url: plainHttpUrl(website.url),
          method: 'GET',
          body: null,
          followRedirects: false,
          clientCertificate: null,
          maxBodyBytes: 64 * 1024,
        },
        this.deps.probe,
      );
      return { status: answer.httpStatus, location: answer.location, error: answer.error };
    };
    const [main, httpsRedirect, domain] = await Promise.all([
      probeHttp(request, this.deps.probe),
      config.checkHttpsRedirectEnabled ? plainHttp() : Promise.resolve(null),
      config.checkDomainExpiryEnabled
        ? this.deps.domainExpiry(new URL(website.url).hostname)
        : Promise.resolve(null),
    ]);
    const { location: _location, ...observation } = main;
    return { observation: { ...observation, httpsRedirect, domain }, sent: { headers, body } };
  }

  /**
   * Stores the result, then decides the status, incident and events it leads to (so a status is
   * never visible before the result behind it), on the monitor transition path. While MongoDB is
   * away (or a result of the website waits in the buffer) the decision is made on the hot state
   * all the same, and the result and MongoDB's part of the decision are kept in the buffer.
   */
  private async record(entry: PendingRecord, options: { replay: boolean }): Promise<Recorded> {
    const { website, pkg } = entry;
    const { pending, transitions } = this.deps;
    // A replay from the buffer writes to MongoDB or fails (it stays in the buffer); a fresh check
    // keeps what MongoDB cannot take now, behind what of this website waits already.
    /** The regions of an incident this result resolved: their next failure (a new incident's first) keeps a body soon. */
    let recovered: string[] = [];
    let mongoWrites: MongoWrites = options.replay
      ? 'now'
      : pending.holds(entry.key)
        ? 'defer'
        : 'defer-if-away';
    const done = await transitions.run(
      website,
      async (state) => {
        const result = { ...entry.result, inMaintenance: inMaintenanceAt(state, entry.result.startedAt) };
        const stored = mongoWrites !== 'defer' && (await this.store(result, mongoWrites));
        if (!stored) mongoWrites = 'defer';
        const decided = { result, stored, recheckSoon: false, told: [] as EventKind[] };
        // A kept result an earlier try already decided (its region's track is at or past it).
        const decidedUpTo = state.regions[result.region]?.lastResultAt ?? Number.NEGATIVE_INFINITY;

        if (options.replay && decidedUpTo >= result.startedAt.getTime())
          return { result: decided, plan: null };
        const outcome = afterResult(
          state,
          {
            ...result,
            id: entry.result._id.toHexString(),
            cause: result.status === 'down' ? failuresOf(result).join('; ') : null,
          },
          decisionRules(website, pkg, {
            recheckDelayMs: this.deps.recheckDelayMs,
            reportingRegion: result.region,
          }),
        );
        recovered = outcome.incident === 'resolve' ? Object.keys(outcome.state.regions) : [];
        return {
          result: { ...decided, recheckSoon: outcome.recheckSoon, told: outcome.events.map((e) => e.type) },
          plan: {
            trigger: `result:${result.region}:${result.startedAt.getTime()}`,
            at: result.startedAt,
            outcome,
            details: {
              result: summaryOf(result),
              // A down told now carries what it saw (reminders do not repeat it).
              ...(outcome.events.some((e) => e.type === 'website.down' && !e.reminder) && entry.evidence
                ? { evidence: await this.alertEvidence(entry, entry.evidence, outcome.state) }
                : {}),
              ...(outcome.events.some((e) => e.type.startsWith('ssl.')) ? { ssl: result.ssl } : {}),
            },
          },
        };
      },
      () => mongoWrites,
    );
    const { result, stored, recheckSoon, told } = done.result;
    if (!done.refused)
      for (const region of recovered) await this.deps.evidence.gate.reopen(website.id, region);
    if (!stored || done.kept) pending.add({ ...entry, result, decided: { effects: done.kept } });
    const decision = done.refused ? null : { health: done.state.health, told };
    return { result, recheckSoon: done.refused ? false : recheckSoon, decision };
  }

  /**
   * The evidence a down alert carries: this result's, or, when its body was left out (one body per
   * website, region and 5 minutes), the region's first failure's, which kept it. Read within the
   * check path's bound; any trouble reading it leaves this result's.
   */
  private async alertEvidence(
    entry: PendingRecord,
    own: Evidence,
    state: MonitorStateDocument,
  ): Promise<Evidence> {
    const first = state.regions[entry.result.region]?.firstDownResultId;
    if (own.body?.kind !== 'omitted' || !first || first === entry.result._id.toHexString()) return own;
    const { organizationId, websiteId } = entry.result;
    const found = await withinDeadline(
      this.deps.evidence.read(organizationId, websiteId, first),
      CHECK_PATH_MONGO_TIMEOUT_MS,
      `evidence of result ${first}`,
    ).catch(() => null);
    return found?.body && found.body.kind !== 'omitted' ? found : own;
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
