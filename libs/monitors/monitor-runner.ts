import { randomBytes } from 'node:crypto';
import { type CustomerWithPackage, isMonitored } from '../customers/index.js';
import { isMongoUnavailable, type MongoHealth, withinDeadline } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import { lighthouseThresholdsSchema } from '../lighthouse/index.js';
import type { Logger } from '../logging/index.js';
import {
  CHECK_PATH_MONGO_TIMEOUT_MS,
  type MonitorStateRepository,
  type MonitorTransitions,
  monitorKey,
} from '../monitoring/index.js';
import { includesFeature } from '../packages/index.js';
import type { ProbeOptions } from '../probe/index.js';
import { RevisedMemory, type Revisions } from '../redis/index.js';
import {
  type DueMember,
  type DueSet,
  type IntervalLane,
  nextCheckAfterRun,
  nextCheckAt,
} from '../scheduler/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { SiteHealthRecorder, SiteRunBoard } from '../site-health/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import type { PingJobData } from './heartbeat-pings.js';
import {
  checkRegionsOf,
  heartbeatAt,
  type JourneyRunning,
  kindTerms,
  type LighthouseRunning,
  pingVerdict,
} from './kinds/index.js';
import type { IntervalMonitor, MonitorDocument, MonitorRepository } from './monitor.repository.js';
import {
  type HeardTimes,
  type KeptMonitorEntry,
  type KeptResults,
  MonitorCommitter,
  type Subject,
} from './monitor-committer.js';
import { heartbeatRules, PUSH_REGION } from './monitor-evaluation.js';
import { type Gathered, gather } from './monitor-gather.js';
import type { MonitorSummaries } from './monitor-summaries.js';
import { keepRunArtifacts, type RunArtifacts } from './run-artifacts.js';
import type { RunTallyRecorder } from './run-tallies.js';
import { runsPerCheck } from './site-run-requests.js';

const DAY_MS = 86_400_000;
/** A missed heartbeat is evaluated again this often while down (reminders, a recovery's deadline). */
const DOWN_REEVALUATE_MS = 60_000;
/** A deadline whose heartbeat's ping waits in the buffer to be decided: judged again this soon. */
const UNDECIDED_PING_REEVALUATE_MS = 5_000;
/** Not monitored (paused …): looked at again this often. */
const QUIET_REEVALUATE_MS = 30_000;
/** Beyond a check's own timeout, how long its claim holds before another worker may take it. */
const LEASE_MARGIN_MS = 30_000;
const CLAIM_BATCH = 100;
/** How long a claimed heartbeat deadline is held before another worker may judge it. */
const DEADLINE_LEASE_MS = 2 * LEASE_MARGIN_MS;
/** Interval monitors' configurations kept in memory at most, and re-read after this long whatever their revision. */
const CONFIGURATIONS_KEPT = 100_000;
const CONFIGURATION_MAX_AGE_MS = 6 * 3_600_000;

export interface MonitorRunnerDependencies {
  repository: MonitorRepository;
  websites: { get(organizationId: number, websiteId: number): Promise<WebsiteDocument | null> };
  owner(website: WebsiteDocument): Promise<CustomerWithPackage | null>;
  states: MonitorStateRepository;
  transitions: MonitorTransitions;
  deadlines: DueSet;
  /** This worker's region's interval checks, one due set per lane (claimed by the worker's lanes). */
  due: Record<IntervalLane, DueSet>;
  region: string;
  probe: ProbeOptions;
  dnsResolvers: readonly string[];
  recheckDelayMs: number;
  summaries: MonitorSummaries;
  /** Opens a probe check's sealed credentials to run it. */
  secrets: SecretBox;
  /** Each monitor's revision (`monitorRevisions`): a kept configuration is used while it holds. */
  revisions: Revisions;
  pending: KeptResults;
  /** Whether MongoDB answers now: while it does not, results and MongoDB's part of decisions wait. */
  mongo: Pick<MongoHealth, 'available'>;
  logger: Logger;
  /** The process's browser for journeys (none: browser checks are not run by this worker). */
  journeys?: JourneyRunning | undefined;
  /** Where runs' files go (a journey's screenshots and trace). */
  artifacts?: Pick<RunArtifacts, 'store'> | undefined;
  /** Where journeys' committed runs are counted (client reports' success rates and step medians). */
  tallies?: Pick<RunTallyRecorder, 'add'> | undefined;
  /** The process's Lighthouse (none: Lighthouse checks are not run by this worker). */
  lighthouse?: LighthouseRunning | undefined;
  /** Aborted when the worker stops: a crawl or Lighthouse run ends early and is run again elsewhere. */
  stopping?: AbortSignal | undefined;
  /** Where site-health runs' findings and scores are kept, and their news told. */
  siteHealth?: Pick<SiteHealthRecorder, 'record' | 'forget'> | undefined;
  /** Site-health runs' progress, read by the API (a run on request). */
  siteRuns?: Pick<SiteRunBoard, 'start' | 'progress' | 'finish' | 'count'> | undefined;
}

/** A Lighthouse check's thresholds as stored (none: nothing is a breach). */
const thresholdsOf = (monitor: IntervalMonitor) => {
  const parsed = lighthouseThresholdsSchema.safeParse(
    'settings' in monitor ? monitor.settings.thresholds : undefined,
  );
  return parsed.success ? parsed.data : {};
};

const memberOf = (monitor: MonitorDocument): DueMember => ({
  kind: monitor.kind,
  monitorId: monitor.id,
  organizationId: monitor.organizationId,
  websiteId: monitor.websiteId,
});

/**
 * The worker's side of heartbeats, DNS and port checks: pings taken from the queue, heartbeats'
 * deadlines and the region's DNS and port checks claimed from their due sets; every verdict goes
 * through the status machine and the one transition path, as a website's HTTP result does.
 */
export class MonitorRunner {
  /** Interval monitors' configurations, kept while their revision holds: checks go on through a MongoDB stall. */
  private readonly configurations: RevisedMemory<MonitorDocument>;

  /** Where every verdict goes: state, incident, timeline, events, and the buffer while MongoDB is away. */
  private readonly committer: MonitorCommitter;

  constructor(private readonly deps: MonitorRunnerDependencies) {
    this.committer = new MonitorCommitter(deps);
    this.configurations = new RevisedMemory(deps.revisions, CONFIGURATIONS_KEPT, CONFIGURATION_MAX_AGE_MS);
  }

  private async subjectOf(monitor: MonitorDocument): Promise<Subject | null> {
    const website = await this.deps.websites.get(monitor.organizationId, monitor.websiteId);
    if (!website) return null;
    const owner = await this.deps.owner(website);
    if (!owner) return null;
    const monitored =
      !website.paused &&
      isMonitored(owner.customer.status) &&
      includesFeature(owner.pkg, kindTerms(monitor.kind).feature);
    return { website, owner, monitored };
  }

  private async monitorOf(member: DueMember): Promise<MonitorDocument | null> {
    const monitor = await this.deps.repository.findById(member.organizationId, member.monitorId);
    return monitor && monitor.kind === member.kind && monitor.websiteId === member.websiteId ? monitor : null;
  }

  /** A ping from the queue: kept in the heartbeat's log, its time remembered, its verdict decided. */
  async onPing(ping: PingJobData): Promise<void> {
    const member = {
      kind: 'heartbeat',
      monitorId: ping.heartbeatId,
      organizationId: ping.organizationId,
      websiteId: ping.websiteId,
    };
    // Through a MongoDB outage, from the copy this worker last read (the ping is decided all the same).
    const heartbeat = await this.configurationOf(member);
    if (heartbeat?.kind !== 'heartbeat') return;
    const subject = await this.subjectOf(heartbeat);
    if (!subject) return;
    const at = new Date(ping.at);
    const retentionDays = subject.owner.pkg.limits.resultRetentionDays;
    const log = {
      organizationId: heartbeat.organizationId,
      monitorId: heartbeat.id,
      kind: 'heartbeat' as const,
      at,
      retainUntil: new Date(at.getTime() + retentionDays * DAY_MS),
      once: randomBytes(8).toString('base64url'),
      ping: {
        kind: ping.kind,
        exitCode: ping.exitCode,
        body: ping.body,
        bodyTruncated: ping.bodyTruncated,
        address: ping.address,
      },
    };
    const heard: HeardTimes =
      ping.kind === 'success'
        ? { lastSuccessAt: at }
        : ping.kind === 'start'
          ? { lastStartAt: at }
          : { lastFailureAt: at };
    if (ping.kind !== 'start' && subject.monitored) {
      // One committer for every kind: the log entry and the ping's times stored first, then the
      // pure decision on the hot state; while MongoDB is away both wait in the worker's buffer.
      await this.committer.commit(
        {
          key: monitorKey(heartbeat.websiteId, { kind: 'heartbeat', id: heartbeat.id }),
          websiteId: heartbeat.websiteId,
          monitor: heartbeat,
          subject,
          gathered: { at, verdict: pingVerdict({ ...ping, kind: ping.kind }), details: {} },
          log,
          heard,
          tried: [],
          stored: false,
          decided: null,
        },
        { replay: false },
      );
    } else {
      // Nothing to decide: kept when MongoDB answers (the ping's job is retried until it does).
      await this.deps.repository.appendLog(log);
      await this.deps.repository.heard(heartbeat, heard);
    }
    // From what was read and this ping (no second read): a later ping taken elsewhere meanwhile
    // at worst makes this deadline early, and a deadline is judged again from the stored heartbeat.
    const [field, time] = Object.entries(heard)[0] as [keyof HeardTimes, Date];
    const known = heartbeat[field];
    const after = { ...heartbeat, [field]: known && known > time ? known : time };
    await this.deps.deadlines.schedule(member, heartbeatAt(after, new Date()).deadline);
  }

  /** Heartbeats whose deadline has passed: late unless a ping came meanwhile. */
  async sweepDeadlines(now = new Date()): Promise<number> {
    const due = await this.deps.deadlines.claim(now.getTime(), CLAIM_BATCH, DEADLINE_LEASE_MS);
    await Promise.all(
      due.map(({ member }) =>
        this.deadline(member, now).catch((error: unknown) =>
          this.deps.logger.warn(
            { err: errorMessage(error), heartbeatId: member.monitorId },
            'heartbeat deadline not evaluated; tried again when its claim ends',
          ),
        ),
      ),
    );
    return due.length;
  }

  /**
   * A heartbeat whose deadline came, as stored (its ping times move without a revision); while
   * MongoDB does not answer, the copy this worker holds. That copy's ping times may be old, but its
   * deadline in Redis moved with every ping any worker took meanwhile: a deadline that came is one
   * no ping moved, so the heartbeat is late all the same and is decided on the hot state now.
   */
  private async heartbeatOf(member: DueMember): Promise<MonitorDocument | null> {
    const kept = this.configurations.kept(member.monitorId);
    // Known away (the health watch): no read to wait 10 s for.
    if (kept && !this.deps.mongo.available) return kept;
    try {
      return await withinDeadline(
        this.monitorOf(member),
        CHECK_PATH_MONGO_TIMEOUT_MS,
        `heartbeat ${member.monitorId}`,
      );
    } catch (error) {
      if (!kept || !isMongoUnavailable(error)) throw error;
      return kept;
    }
  }

  private async deadline(member: DueMember, now: Date): Promise<void> {
    const heartbeat = await this.heartbeatOf(member);
    if (heartbeat?.kind !== 'heartbeat') {
      await this.deps.deadlines.remove(member);
      return;
    }
    const subject = await this.subjectOf(heartbeat);
    if (!subject) {
      await this.deps.deadlines.schedule(member, now.getTime() + QUIET_REEVALUATE_MS);
      return;
    }
    if (!subject.monitored) {
      await this.deps.repository.heard(heartbeat, { quietSince: now });
      await this.deps.deadlines.schedule(member, now.getTime() + QUIET_REEVALUATE_MS);
      return;
    }
    const { deadline, verdict } = heartbeatAt(heartbeat, now);
    if (!verdict) {
      await this.deps.deadlines.schedule(member, deadline);
      return;
    }
    const decided = await this.committer.decideDeadline(heartbeat, subject, verdict, {
      region: PUSH_REGION,
      at: now,
      rules: heartbeatRules(subject.owner.pkg),
      trigger: `deadline:${now.getTime()}`,
    });
    // A ping of it waits in the buffer to be decided: the deadline is judged again after it.
    await this.deps.deadlines.schedule(
      member,
      now.getTime() + (decided ? DOWN_REEVALUATE_MS : UNDECIDED_PING_REEVALUATE_MS),
    );
  }

  /**
   * One due check of this region's lane (`startDueLanes` claims it): gathered, then committed on
   * the one transition path. Answers when it is next due (null: it leaves the lane's set).
   */
  async checkDue(member: DueMember, lane: IntervalLane): Promise<number | null> {
    const monitor = await this.intervalMonitorOf(member);
    if (!monitor) return null;
    // In another lane's set (a worker of an older version put it there): moved to its own, once.
    const own = kindTerms(monitor.kind).lane;
    if (own !== lane) {
      if (own !== 'http') await this.deps.due[own].scheduleIfAbsent(member, Date.now());
      return null;
    }
    const subject = await this.subjectOf(monitor);
    // Its website no longer checked here (paused, moved, gone): the reconciliation puts it back where it is.
    if (
      !subject?.monitored ||
      !checkRegionsOf(monitor.kind, subject.website.scheduledRegions).includes(this.deps.region)
    )
      return null;
    const { pkg } = subject.owner;
    // Its files kept first: the result then names them only where they can be read.
    const gathered = await keepRunArtifacts(
      this.deps,
      monitor,
      own === 'site' ? await this.siteRun(monitor, subject) : await gather(monitor, pkg, this.deps),
      pkg.limits.resultRetentionDays,
    );
    const { recheckSoon } = await this.committer.commit(
      {
        key: monitorKey(monitor.websiteId, { kind: monitor.kind, id: monitor.id }),
        websiteId: monitor.websiteId,
        monitor,
        subject,
        gathered,
        log: {
          organizationId: monitor.organizationId,
          monitorId: monitor.id,
          kind: monitor.kind,
          at: gathered.at,
          retainUntil: new Date(gathered.at.getTime() + pkg.limits.resultRetentionDays * DAY_MS),
          once: randomBytes(8).toString('base64url'),
          result: gathered.result,
        },
        tried: [],
        stored: false,
        decided: null,
      },
      { replay: false },
    );
    this.deps.tallies?.add(monitor, gathered);
    const now = Date.now();
    if (recheckSoon) return now + this.deps.recheckDelayMs;
    return nextCheckAfterRun(monitor.id, monitor.intervalSeconds * 1000, gathered.at.getTime(), now);
  }

  /**
   * A site-health run (a crawl, a Lighthouse check): under the id a request gave it (its progress
   * shown), counted on its website's day, and what it found kept and compared before its result is
   * committed, its news told with it. Its whole findings never reach the result or the buffer.
   */
  private async siteRun(monitor: IntervalMonitor, subject: Subject): Promise<Gathered> {
    const { siteRuns, siteHealth } = this.deps;
    const startedAt = new Date();
    const runId = siteRuns ? await siteRuns.start(monitor.id, startedAt) : undefined;
    try {
      await siteRuns?.count(monitor.kind, monitor.websiteId, runsPerCheck(monitor), startedAt);
      const { site, ...gathered } = await gather(
        monitor,
        subject.owner.pkg,
        this.deps,
        runId && siteRuns
          ? { runId, onProgress: (progress) => siteRuns.progress(runId, progress) }
          : undefined,
      );
      const news =
        site && siteHealth
          ? await siteHealth.record(
              {
                organizationId: monitor.organizationId,
                customerId: subject.website.customerId,
                websiteId: monitor.websiteId,
                monitorId: monitor.id,
              },
              site,
              {
                at: gathered.at,
                retentionDays: subject.owner.pkg.limits.resultRetentionDays,
                thresholds: monitor.kind === 'lighthouse' ? thresholdsOf(monitor) : undefined,
              },
            )
          : null;
      if (runId)
        await siteRuns?.finish(
          monitor.id,
          runId,
          {
            status: gathered.verdict.status,
            cause: gathered.verdict.cause,
            summary: gathered.seen.evidence,
            error: null,
          },
          new Date(),
        );
      return news ? { ...gathered, siteNews: news } : gathered;
    } catch (error) {
      if (runId)
        await siteRuns
          ?.finish(
            monitor.id,
            runId,
            { status: null, cause: null, summary: null, error: errorMessage(error) },
            new Date(),
          )
          .catch(() => undefined);
      throw error;
    }
  }

  /** An interval monitor's configuration (`configurationOf`); null for a heartbeat. */
  private async intervalMonitorOf(member: DueMember): Promise<IntervalMonitor | null> {
    if (member.kind === 'heartbeat') return null;
    const monitor = await this.configurationOf(member);
    return monitor && monitor.kind !== 'heartbeat' ? monitor : null;
  }

  /**
   * A monitor's configuration: from memory while its revision (a Redis read) is the one it was
   * read under, else from MongoDB; while MongoDB does not answer, the copy last read.
   */
  private async configurationOf(member: DueMember): Promise<MonitorDocument | null> {
    const revision = await this.deps.revisions.current(member.monitorId);
    const current = this.configurations.current(member.monitorId, revision);
    const kept = this.configurations.kept(member.monitorId);
    let monitor: MonitorDocument | null | undefined =
      current?.kind === member.kind && current.organizationId === member.organizationId ? current : undefined;
    if (monitor === undefined) {
      try {
        monitor = await withinDeadline(
          this.monitorOf(member),
          CHECK_PATH_MONGO_TIMEOUT_MS,
          `monitor ${member.monitorId}`,
        );
      } catch (error) {
        if (!kept || !isMongoUnavailable(error)) throw error;
        monitor = kept;
      }
      this.configurations.forget(member.monitorId);
      if (monitor) this.configurations.store(monitor, revision);
    }
    return monitor;
  }

  /** Records what was kept while MongoDB was away, a result or a deadline's decision (see `PendingRecords`). */
  recordKept(entry: KeptMonitorEntry): Promise<void> {
    return this.committer.recordKept(entry);
  }

  /**
   * Puts in Redis what MongoDB says belongs there (a start, a lost Redis, every few minutes): each
   * heartbeat's token and deadline, this region's DNS and port checks of websites checked here;
   * what belongs to a deleted website goes. What workers set already is kept.
   */
  async reconcile(tokens: {
    registerIfAbsent(hash: string, member: Omit<DueMember, 'kind'>): Promise<void>;
  }): Promise<{ monitors: number; removed: number }> {
    const monitors = await this.deps.repository.all();
    let removed = 0;
    const now = new Date();
    for (const monitor of monitors) {
      const member = memberOf(monitor);
      const website = await this.deps.websites.get(monitor.organizationId, monitor.websiteId);
      if (!website) {
        await this.deps.repository.delete(monitor);
        await this.deps.summaries.remove(monitor.websiteId, monitor);
        await this.deps.siteHealth?.forget({ organizationId: monitor.organizationId, monitorId: monitor.id });
        if (monitor.kind === 'heartbeat') await this.deps.deadlines.remove(member);
        else await this.dueSetOf(monitor.kind).remove(member);
        removed++;
        continue;
      }
      const state = await this.deps.states.load(monitor.organizationId, monitor.websiteId, {
        kind: monitor.kind,
        id: monitor.id,
      });
      await this.deps.summaries.write(monitor.websiteId, {
        kind: monitor.kind,
        id: monitor.id,
        name: monitor.name,
        health: state.health,
      });
      if (monitor.kind === 'heartbeat') {
        const { tokenHash, ...rest } = monitor;
        await tokens.registerIfAbsent(tokenHash, {
          monitorId: rest.id,
          organizationId: rest.organizationId,
          websiteId: rest.websiteId,
        });
        await this.deps.deadlines.scheduleIfAbsent(member, heartbeatAt(monitor, now).deadline);
      } else if (checkRegionsOf(monitor.kind, website.scheduledRegions).includes(this.deps.region)) {
        const everyMs = monitor.intervalSeconds * 1000;
        await this.dueSetOf(monitor.kind).scheduleIfAbsent(
          member,
          nextCheckAt(monitor.id, everyMs, now.getTime()),
        );
      }
    }
    return { monitors: monitors.length, removed };
  }

  private dueSetOf(kind: IntervalMonitor['kind']): DueSet {
    const { lane } = kindTerms(kind);
    if (lane === 'http') throw new Error(`a ${kind} monitor is not due in a monitor lane`);
    return this.deps.due[lane];
  }
}
