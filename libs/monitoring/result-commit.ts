import { isMongoUnavailable } from '../db/index.js';
import { LockTimeoutError } from '../locks/index.js';
import type { MonitorStateDocument } from './monitor-state.js';
import type {
  DurableEffects,
  MongoWrites,
  MonitorSubject,
  MonitorTransitions,
  TransitionPlan,
  TransitionResult,
} from './monitor-transition.js';

/** MongoDB cannot take the record now (gone, stalled, or a lock held by a record stuck in it). */
export function isRecordRetryable(error: unknown): boolean {
  return isMongoUnavailable(error) || error instanceof LockTimeoutError;
}

/** A gathered result on its way to MongoDB and the status machine (kept in the worker while MongoDB is away). */
export interface CommitEntry {
  /** Its monitor's key (`monitorKey`): the order its results are kept, decided and written in. */
  key: string;
  /** The result itself is in MongoDB. */
  stored: boolean;
  /** Set when decided while MongoDB was away: what MongoDB still owes for it. Null: waits to be decided. */
  decided: { effects: DurableEffects | null } | null;
}

/** Where results wait while MongoDB cannot take them: one buffer for every kind, in order per monitor. */
export interface KeptEntries<E extends CommitEntry> {
  add(entry: E): void;
  holds(key: string): boolean;
  holdsUndecided(key: string): boolean;
}

/** What committing one result takes: its store (I/O, outside the lock) and its decision (pure, under it). */
export interface CommitSteps<T> {
  subject: MonitorSubject;
  region: string;
  at: Date;
  /** Stores the result once; false when MongoDB cannot take it now and `mongoWrites` lets it wait. */
  store(mongoWrites: MongoWrites): Promise<boolean>;
  /** The status machine's decision on the monitor's state: pure and synchronous. */
  decide(state: MonitorStateDocument): { result: T; plan: TransitionPlan | null };
}

/**
 * The one way a gathered result of any kind is committed: stored outside the monitor's lock, then
 * decided and its state, incident, timeline and events written under it. While MongoDB is away (or
 * a result of the monitor waits already) the decision is made on the hot state all the same and
 * what MongoDB is owed waits in the buffer, written in order once it answers. Null: kept
 * undecided (decided when MongoDB answers), or a replay an earlier try had decided already.
 */
export async function commitResult<E extends CommitEntry, T>(
  deps: { transitions: MonitorTransitions; pending: KeptEntries<E> },
  entry: E,
  /** Reads what the decision needs (outside the lock) and answers the steps. */
  prepare: () => Promise<CommitSteps<T>>,
  options: { replay: boolean },
): Promise<TransitionResult<T> | null> {
  const { pending, transitions } = deps;
  // An earlier result of this monitor waits to be decided: this one is decided after it.
  if (!options.replay && pending.holdsUndecided(entry.key)) {
    pending.add(entry);
    return null;
  }
  // A replay from the buffer writes to MongoDB or fails (it stays in the buffer); a fresh result
  // keeps what MongoDB cannot take now, behind what of this monitor waits already.
  let mongoWrites: MongoWrites = options.replay
    ? 'now'
    : pending.holds(entry.key)
      ? 'defer'
      : 'defer-if-away';
  try {
    const steps = await prepare();
    if (!entry.stored && mongoWrites !== 'defer') entry.stored = await steps.store(mongoWrites);
    if (!entry.stored) mongoWrites = 'defer';
    let repeated = false;
    const done = await transitions.run(
      steps.subject,
      (state) => {
        // A kept result an earlier try already decided (its region's track is at or past it).
        const decidedUpTo = state.regions[steps.region]?.lastResultAt ?? Number.NEGATIVE_INFINITY;
        repeated = options.replay && decidedUpTo >= steps.at.getTime();
        return repeated ? { result: null, plan: null } : steps.decide(state);
      },
      () => mongoWrites,
    );
    if (!entry.stored || done.kept) pending.add({ ...entry, decided: { effects: done.kept } });
    return repeated ? null : (done as TransitionResult<T>);
  } catch (error) {
    // Nothing to decide on while MongoDB is away (or its lock held by a stalled record): kept.
    if (options.replay || !isRecordRetryable(error)) throw error;
    pending.add(entry);
    return null;
  }
}

/** Writes a kept result: stored, then decided, or its decision's effects written. */
export async function writeKept<E extends CommitEntry>(
  deps: { transitions: MonitorTransitions },
  entry: E,
  commit: () => Promise<unknown>,
  store: () => Promise<boolean>,
): Promise<void> {
  if (!entry.decided) {
    await commit();
    return;
  }
  if (!entry.stored) entry.stored = await store();
  if (entry.decided.effects) await deps.transitions.applyKept(entry.decided.effects);
}
