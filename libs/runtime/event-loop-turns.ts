import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Background work done in one turn of the event loop, at most, before other requests' callbacks
 * run: the longest a short request's step waits behind every export and import of the process.
 */
export const WORK_SLICE_MS = 2;

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

  constructor(private readonly sliceMs = WORK_SLICE_MS) {}

  /** At once within the slice; past it, after the event loop's next turn (every task the same one). */
  async pause(): Promise<void> {
    if (this.turning === null && performance.now() - this.sliceStart < this.sliceMs) return;
    // The first task back after the turn opens the next slice; the others find it spent again
    // as soon as that task's slice is over and wait for the turn after.
    this.turning ??= nextTurn().then(() => {
      this.turning = null;
      this.sliceStart = performance.now();
    });
    await this.turning;
  }
}

/**
 * The process's background work: every export and import pauses on it, so together they hold the
 * event loop for one slice a turn (the loop is one per process, so is its budget).
 */
export const backgroundTurns = new EventLoopTurns();

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
