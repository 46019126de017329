import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/**
 * Background work done in one turn of the event loop, at most, before other requests' callbacks
 * run: the longest a short request's step waits behind every export and import of the process.
 */
export const WORK_SLICE_MS = 2;

/**
 * While other work is waiting, the share of the thread's time background work may take: after a
 * slice whose turn found others' callbacks to run, it rests a slice's length. One slice a turn alone
 * let two exports at once hold 60 % of the API's thread (and of the cores FerretDB answers other
 * tenants on); with no one else's work in the turn, it does not rest (an export alone is as quick).
 */
export const BACKGROUND_SHARE = 0.5;

/**
 * A turn that cost this much CPU ran someone else's callbacks: the thread is wanted. CPU, not
 * wall time: a process the machine's scheduler set aside for a moment did nobody's work.
 */
const OTHERS_WAITING_MS = 0.5;

/**
 * How long after others' callbacks the slices keep resting: a request's steps come back one by
 * one (its reads' answers), each of which should find the thread free, not only its first.
 */
const OTHERS_RECENT_MS = 50;

/**
 * Long CPU-bound tasks (exports written, imports' rows judged) cut into slices of the event loop:
 * `pause()` between items lets the callbacks waiting meanwhile (other requests' I/O, timers) run
 * once `sliceMs` of work went by since the last turn. The tasks sharing one `EventLoopTurns` share
 * the slice: two exports at once take one slice a turn between them, not one each, so what other
 * requests wait does not grow with the background tasks under way.
 */
export class EventLoopTurns {
  private sliceStart = performance.now();
  private turning: Promise<void> | null = null;
  private othersSeenAt = Number.NEGATIVE_INFINITY;

  /** `share`: of the thread's time, what the slices may take (1: a slice every turn, no rest). */
  constructor(
    private readonly sliceMs = WORK_SLICE_MS,
    private readonly share = 1,
  ) {}

  /** At once within the slice; past it, after the event loop's next turn (every task the same one). */
  async pause(): Promise<void> {
    if (this.turning === null && performance.now() - this.sliceStart < this.sliceMs) return;
    // The first task back after the turn opens the next slice; the others find it spent again
    // as soon as that task's slice is over and wait for the turn after.
    this.turning ??= this.rest().then(() => {
      this.turning = null;
      this.sliceStart = performance.now();
    });
    await this.turning;
  }

  /**
   * The next turn; while others' callbacks ran in a turn of late and the share is under 1, then a
   * rest of a slice's length scaled by the share. A slice's length, not the time since it began,
   * which also holds the waits for reads between items and any idle time before the slice.
   */
  private async rest(): Promise<void> {
    const cpuBefore = process.cpuUsage();
    await nextTurn();
    const now = performance.now();
    const { user, system } = process.cpuUsage(cpuBefore);
    if ((user + system) / 1000 >= OTHERS_WAITING_MS) this.othersSeenAt = now;
    if (this.share >= 1 || now - this.othersSeenAt >= OTHERS_RECENT_MS) return;
    await sleep(Math.max(1, this.sliceMs * (1 / this.share - 1)));
  }
}

/**
 * The process's background work: every export and import pauses on it, so together they hold the
 * event loop for one slice a turn, and at most half its time while others wait (the loop is one per
 * process, so is its budget).
 */
export const backgroundTurns = new EventLoopTurns(WORK_SLICE_MS, BACKGROUND_SHARE);

/** Each item mapped by `map`, in order, with a turn of the event loop whenever a slice of work went by. */
export async function mapInTurns<T, R>(
  items: readonly T[],
  map: (item: T, index: number) => R,
  turns = backgroundTurns,
): Promise<R[]> {
  const mapped: R[] = [];
  for (const [index, item] of items.entries()) {
    mapped.push(map(item, index));
    await turns.pause();
  }
  return mapped;
}
