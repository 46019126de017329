import type { Collection, Db } from 'mongodb';
import { BatchInserter, type CollectionIndexes, isDuplicateKey, WriteBehind } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import type { EventPayload } from '../events/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import type { Redis } from '../redis/index.js';
import type { PolicySnapshot, StepPosition } from './escalation-plan.js';

export type RunState = 'active' | 'acknowledged' | 'resolved' | 'exhausted';

/** One incident's escalation, as stored (`_id`: the incident's id: one run per incident). */
export interface EscalationRun {
  _id: string;
  organizationId: number;
  websiteId: number;
  /** The down event that started it: what each step's messages say. */
  event: EventPayload;
  policy: PolicySnapshot;
  state: RunState;
  /** The step due next and when (null: none: the run ended, or a step is being sent). */
  next: (StepPosition & { dueAt: Date }) | null;
  /** A step claimed and being sent: finished by its claimer, or by the sweep after a crash. */
  sending: (StepPosition & { since: Date }) | null;
  /** People a step paged: told of the recovery or acknowledgement where their methods want it. */
  paged: number[];
  startedAt: Date;
  endedAt: Date | null;
  /** Counts its changes: MongoDB's copy is behind Redis's when its revision is lower. */
  revision?: number;
}

export const ESCALATION_RUNS = 'escalation_runs';
/** One document per send of a step: inserted before the send, so no send is made twice. */
export const ESCALATION_SENDS = 'escalation_sends';

export const runIndexes: CollectionIndexes[] = [
  {
    collection: ESCALATION_RUNS,
    indexes: [
      { key: { state: 1, 'next.dueAt': 1 }, name: 'state_due' },
      { key: { endedAt: 1 }, name: 'ended' },
    ],
  },
  { collection: ESCALATION_SENDS, indexes: [{ key: { at: 1 }, name: 'time' }] },
];

/** How long an active run's copy stays in Redis after its last change (then MongoDB's is read). */
const ACTIVE_KEPT_MS = 6 * 3_600_000;
/** An ended run is read again only by a late event of its incident. */
const ENDED_KEPT_MS = 15 * 60_000;
/** How long a change waits to share MongoDB's write with others (a run changes 3–5 times in its first minutes). */
const WRITE_DELAY_MS = 500;

/** A run as its Redis copy holds it (JSON: its dates as strings). */
function revived(json: string): EscalationRun {
  const run = JSON.parse(json) as EscalationRun;
  const date = (value: unknown) => new Date(value as string);
  return {
    ...run,
    startedAt: date(run.startedAt),
    endedAt: run.endedAt === null ? null : date(run.endedAt),
    next: run.next && { ...run.next, dueAt: date(run.next.dueAt) },
    sending: run.sending && { ...run.sending, since: date(run.sending.since) },
  };
}

/**
 * Escalation runs: each run's current version in Redis, where its claims, finishes and stops read
 * and write it, and MongoDB's copy written behind it, many runs to a request (a run was read five
 * times and rewritten four in its first minute, each a large document, and FerretDB decodes and
 * rewrites it whole every time). MongoDB's copy is a moment behind; it is what the sweep finds
 * lost steps in and what a run is read from when Redis no longer has it (expired, lost).
 */
export class EscalationRuns {
  private readonly runs: Collection<EscalationRun>;
  private readonly sends: Collection<{ _id: string; at: Date }>;
  /** Runs started at once share one insertMany (a group commit). */
  private readonly starts: BatchInserter<EscalationRun>;
  /** Sends recorded at once (every page of many steps) share one insertMany. */
  private readonly sent: BatchInserter<{ _id: string; at: Date }>;
  private readonly writes: WriteBehind<EscalationRun>;

  constructor(
    db: Db,
    private readonly deps: {
      redis: Redis;
      prefix: string;
      /** One writer of a run at a time. */
      mutex: Pick<RedisMutex, 'withLock'>;
      logger: Logger;
    },
  ) {
    this.runs = db.collection<EscalationRun>(ESCALATION_RUNS);
    this.sends = db.collection(ESCALATION_SENDS);
    this.starts = new BatchInserter(this.runs, { flushEveryMs: 0 });
    this.sent = new BatchInserter(this.sends, { flushEveryMs: 0 });
    this.writes = new WriteBehind(this.runs, {
      delayMs: WRITE_DELAY_MS,
      onFailure: (error, documents) =>
        deps.logger.warn(
          { err: errorMessage(error), runs: documents },
          'escalation runs not written to MongoDB yet; tried again',
        ),
    });
  }

  private keyOf(incidentId: string): string {
    return `${this.deps.prefix}:escalation-run:${incidentId}`;
  }

  /** The run's new version: in Redis now, in MongoDB a moment later. */
  private async keep(changed: EscalationRun): Promise<void> {
    const run = { ...changed, revision: (changed.revision ?? 0) + 1 };
    const keptMs = run.state === 'active' ? ACTIVE_KEPT_MS : ENDED_KEPT_MS;
    await this.deps.redis.set(this.keyOf(run._id), JSON.stringify(run), 'PX', keptMs);
    this.writes.put(run);
  }

  /** Starts the incident's run unless it has one (MongoDB's insert decides): whether this call started it. */
  async start(run: EscalationRun): Promise<boolean> {
    try {
      await this.starts.insert(run);
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    await this.deps.redis.set(this.keyOf(run._id), JSON.stringify(run), 'PX', ACTIVE_KEPT_MS);
    return true;
  }

  /** The run's current version: Redis's, else the one waiting here to be written, else MongoDB's. */
  async find(incidentId: string): Promise<EscalationRun | null> {
    const json = await this.deps.redis.get(this.keyOf(incidentId));
    if (json !== null) return revived(json);
    return this.writes.waiting(incidentId) ?? (await this.runs.findOne({ _id: incidentId }));
  }

  /**
   * Changes the incident's run under its lock. `change` answers the fields to set (null: none) and
   * what the caller gets.
   */
  private async changed<T>(
    incidentId: string,
    change: (run: EscalationRun) => { set: Partial<EscalationRun> | null; answer: T } | null,
  ): Promise<T | null> {
    return this.deps.mutex.withLock(`escalation-run:${incidentId}`, async () => {
      const run = await this.find(incidentId);
      const outcome = run && change(run);
      if (!outcome) return null;
      if (outcome.set) await this.keep({ ...run, ...outcome.set });
      return outcome.answer;
    });
  }

  /** Takes the step `at` if it is the one due and nobody took it: the run as taken, or null. */
  claim(incidentId: string, at: StepPosition, now: Date): Promise<EscalationRun | null> {
    return this.changed(incidentId, (run) => {
      const due = run.state === 'active' && run.sending === null && run.next;
      if (!due || due.round !== at.round || due.step !== at.step) return null;
      const set = { next: null, sending: { ...at, since: now } };
      return { set, answer: { ...run, ...set } };
    });
  }

  /**
   * The step `at` is sent: the run waits for the next one (or, with none left, is exhausted); an
   * acknowledgement or recovery that came meanwhile keeps its state.
   */
  async finish(
    incidentId: string,
    at: StepPosition,
    next: (StepPosition & { dueAt: Date }) | null,
    paged: readonly number[],
    now: Date,
  ): Promise<void> {
    await this.changed(incidentId, (run) => {
      if (run.sending?.round !== at.round || run.sending.step !== at.step) return null;
      const everyone = [...new Set([...run.paged, ...paged])];
      if (run.state !== 'active') return { set: { sending: null, paged: everyone }, answer: true };
      return {
        set: { sending: null, paged: everyone, next, ...(next ? {} : { state: 'exhausted', endedAt: now }) },
        answer: true,
      };
    });
  }

  /**
   * Ends a run that is active or has run out of steps (acknowledged or resolved), and resolves an
   * acknowledged one when its website recovers (so the people paged hear of the recovery, as
   * without the acknowledgement): the run as it was, or null when there was nothing to end.
   */
  stop(incidentId: string, state: 'acknowledged' | 'resolved', now: Date): Promise<EscalationRun | null> {
    return this.changed(incidentId, (run) => {
      if (run.state === 'active' || run.state === 'exhausted')
        return { set: { state, next: null, endedAt: now }, answer: run };
      if (run.state === 'acknowledged' && state === 'resolved')
        return { set: { state, next: null, endedAt: run.endedAt ?? now }, answer: run };
      return null;
    });
  }

  /**
   * Active runs whose next step is due by `by`, and steps left half-sent since before `stalledBefore`.
   * MongoDB's copies name the candidates (an older version of an active run is always one, once
   * its time has passed); each is judged on its current version, and a copy found behind it (its
   * writer died before writing it) is written again.
   */
  async due(
    by: Date,
    stalledBefore: Date,
    limit: number,
  ): Promise<{ due: EscalationRun[]; stalled: EscalationRun[] }> {
    const candidates = [
      ...(await this.runs
        .find({ state: 'active', 'next.dueAt': { $lte: by } })
        .limit(limit)
        .toArray()),
      ...(await this.runs
        .find({ state: 'active', 'sending.since': { $lt: stalledBefore } })
        .limit(limit)
        .toArray()),
    ];
    const found = { due: [] as EscalationRun[], stalled: [] as EscalationRun[] };
    const judged = new Set<string>();
    for (const stored of candidates) {
      if (judged.has(stored._id)) continue;
      judged.add(stored._id);
      const run = (await this.find(stored._id)) ?? stored;
      if ((run.revision ?? 0) > (stored.revision ?? 0)) this.writes.put(run);
      if (run.state !== 'active') continue;
      if (run.next && run.next.dueAt <= by) found.due.push(run);
      else if (run.sending && run.sending.since < stalledBefore) found.stalled.push(run);
    }
    return found;
  }

  /** Takes over a half-sent step (its claimer died): whether this caller did. */
  async takeOver(run: EscalationRun, now: Date): Promise<boolean> {
    const since = run.sending?.since.getTime();
    const taken = await this.changed(run._id, (current) =>
      current.sending && current.sending.since.getTime() === since
        ? { set: { sending: { ...current.sending, since: now } }, answer: true }
        : null,
    );
    return taken === true;
  }

  /** Whether this send is still to be made (and is now recorded as made). */
  async firstSend(key: string, now: Date): Promise<boolean> {
    try {
      await this.sent.insert({ _id: key, at: now });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Retention: runs ended and sends made before `before`. */
  async deleteBefore(before: Date): Promise<number> {
    const runs = await this.runs.deleteMany({ endedAt: { $ne: null, $lt: before } });
    await this.sends.deleteMany({ at: { $lt: before } });
    return runs.deletedCount;
  }

  /** At shutdown: the runs' changes still waiting are written to MongoDB. */
  close(): Promise<void> {
    return this.writes.close();
  }
}
