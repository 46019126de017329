import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import type { EventPayload } from '../events/index.js';
import type { RedisMutex } from '../locks/index.js';
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

export class EscalationRuns {
  private readonly runs: Collection<EscalationRun>;
  private readonly sends: Collection<{ _id: string; at: Date }>;

  constructor(
    db: Db,
    /** One writer of a run at a time (its reads and writes are by primary key alone). */
    private readonly mutex: Pick<RedisMutex, 'withLock'>,
  ) {
    this.runs = db.collection<EscalationRun>(ESCALATION_RUNS);
    this.sends = db.collection(ESCALATION_SENDS);
  }

  /** Starts the incident's run unless it has one: whether this call started it. */
  async start(run: EscalationRun): Promise<boolean> {
    try {
      await this.runs.insertOne(run);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  find(incidentId: string): Promise<EscalationRun | null> {
    return this.runs.findOne({ _id: incidentId });
  }

  /**
   * Changes the incident's run under its lock: read and written by primary key alone (a filter
   * with more than `_id` scans the whole collection on FerretDB 1.24: every claim of a busy minute
   * read every run). `change` answers the fields to set (null: none) and what the caller gets.
   */
  private async changed<T>(
    incidentId: string,
    change: (run: EscalationRun) => { set: Partial<EscalationRun> | null; answer: T } | null,
  ): Promise<T | null> {
    return this.mutex.withLock(`escalation-run:${incidentId}`, async () => {
      const run = await this.runs.findOne({ _id: incidentId });
      const outcome = run && change(run);
      if (!outcome) return null;
      if (outcome.set) await this.runs.updateOne({ _id: incidentId }, { $set: outcome.set });
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

  /** Ends an active run (acknowledged or resolved): the run as it was, or null when it was not active. */
  stop(incidentId: string, state: 'acknowledged' | 'resolved', now: Date): Promise<EscalationRun | null> {
    return this.changed(incidentId, (run) =>
      run.state === 'active' || run.state === 'exhausted'
        ? { set: { state, next: null, endedAt: now }, answer: run }
        : null,
    );
  }

  /** Active runs whose next step is due by `by`, and steps left half-sent since before `stalledBefore`. */
  async due(
    by: Date,
    stalledBefore: Date,
    limit: number,
  ): Promise<{ due: EscalationRun[]; stalled: EscalationRun[] }> {
    return {
      due: await this.runs
        .find({ state: 'active', 'next.dueAt': { $lte: by } })
        .limit(limit)
        .toArray(),
      stalled: await this.runs
        .find({ state: 'active', 'sending.since': { $lt: stalledBefore } })
        .limit(limit)
        .toArray(),
    };
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
      await this.sends.insertOne({ _id: key, at: now });
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

  /** An organization deleted: its runs go. */
  async deleteOfOrganization(organizationId: number): Promise<void> {
    await this.runs.deleteMany({ organizationId });
  }
}
