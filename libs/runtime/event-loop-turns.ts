import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work a long task does in one go, at most, before other requests' callbacks get a turn. */
export const WORK_SLICE_MS = 5;

/**
 * A long CPU-bound task (an export written, an import's rows judged) cut into slices of the event
 * loop: `pause()` between items lets the callbacks waiting meanwhile (other requests' I/O, timers)
 * run once `sliceMs` of work went by since the last turn, so a short request waits for a slice,
 * not for the whole task.
 */
export class EventLoopTurns {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = WORK_SLICE_MS) {}

  /** At once within a slice; past it, after the event loop's next turn. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}

/** Each item mapped by `map`, in order, with a turn of the event loop whenever a slice of work went by. */
export async function mapInTurns<T, R>(
  items: readonly T[],
  map: (item: T, index: number) => R,
  turns = new EventLoopTurns(),
): Promise<R[]> {
  const mapped: R[] = [];
  for (const [index, item] of items.entries()) {
    mapped.push(map(item, index));
    await turns.pause();
  }
  return mapped;
}
