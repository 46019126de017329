import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import type { EventPayload } from '../events/index.js';
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

  constructor(db: Db) {
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

  /** Takes the step `at` if it is the one due and nobody took it: the run as taken, or null. */
  claim(incidentId: string, at: StepPosition, now: Date): Promise<EscalationRun | null> {
    return this.runs.findOneAndUpdate(
      { _id: incidentId, state: 'active', 'next.round': at.round, 'next.step': at.step, sending: null },
      { $set: { next: null, sending: { ...at, since: now } } },
      { returnDocument: 'after' },
    );
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
    const sent = { _id: incidentId, 'sending.round': at.round, 'sending.step': at.step };
    await this.runs.updateOne(
      { ...sent, state: 'active' },
      {
        $set: { sending: null, next, ...(next ? {} : { state: 'exhausted' as const, endedAt: now }) },
        $addToSet: { paged: { $each: [...paged] } },
      },
    );
    await this.runs.updateOne(sent, { $set: { sending: null }, $addToSet: { paged: { $each: [...paged] } } });
  }

  /** Ends an active run (acknowledged or resolved): the run as it was, or null when it was not active. */
  async stop(
    incidentId: string,
    state: 'acknowledged' | 'resolved',
    now: Date,
  ): Promise<EscalationRun | null> {
    // Most recoveries have no run: one read by primary key (a filter with more than `_id` scans the
    // collection on FerretDB 1.24) tells, before the compare-and-set.
    const found = await this.runs.findOne({ _id: incidentId });
    if (!found || (found.state !== 'active' && found.state !== 'exhausted')) return null;
    return this.runs.findOneAndUpdate(
      { _id: incidentId, state: { $in: ['active', 'exhausted'] } },
      { $set: { state, next: null, endedAt: now } },
      { returnDocument: 'before' },
    );
  }

  /** Active runs whose next step is due by `by`, and steps left half-sent since before `stalledBefore`. */
  async due(
    by: Date,
    stalledBefore: Date,
    limit: number,
  ): Promise<{ due: EscalationRun[]; stalled: EscalationRun[] }> {
    const active = await this.runs
      .find({ state: 'active' })
      .limit(limit * 4)
      .toArray();
    return {
      due: active.filter((run) => run.next && run.next.dueAt <= by).slice(0, limit),
      stalled: active.filter((run) => run.sending && run.sending.since < stalledBefore).slice(0, limit),
    };
  }

  /** Takes over a half-sent step (its claimer died): whether this caller did. */
  async takeOver(run: EscalationRun, now: Date): Promise<boolean> {
    if (!run.sending) return false;
    const done = await this.runs.updateOne(
      { _id: run._id, 'sending.since': run.sending.since },
      { $set: { 'sending.since': now } },
    );
    return done.modifiedCount > 0;
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
