import { dayNumber, instantOnDay, wallTimeAt } from './zoned-clock.js';

const HOUR_MS = 3_600_000;

/** How long a turn is: a calendar day or week in the schedule's zone, or exact elapsed hours. */
export type RotationLength = 'daily' | 'weekly' | { hours: number };

export interface Rotation {
  length: RotationLength;
  /** `HH:MM` on the schedule's wall clock: when one turn hands over to the next. */
  handoff: string;
  /** The layer starts at the first handoff at or after this instant. */
  startsAt: Date;
  /** The layer ends here (the turn then running is cut short); none: it goes on. */
  endsAt?: Date | null | undefined;
}

export interface Layer {
  /** Users in the order their turns come. */
  participants: readonly number[];
  rotation: Rotation;
}

/** One turn of a layer: the `index`th since the layer started (participant `index mod n`). */
export interface Turn {
  index: number;
  from: number;
  to: number;
}

/** `HH:MM` (00:00–23:59) as minutes of the day, or null. */
export function minuteOfDay(handoff: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(handoff);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/**
 * A layer's turns in a zone. The first turn starts at the first handoff at or after `startsAt`
 * (the zone's clocks showing `handoff`); each later one a length after the one before: for
 * daily and weekly lengths at `handoff` again one or seven calendar days later, so a
 * daylight-saving change does not move the handoff on the wall clock (that turn is an hour
 * shorter or longer); for `{hours}` exactly that many hours later, whatever the clocks show.
 */
export class RotationClock {
  /** The first turn's start (ms). */
  readonly start: number;
  readonly end: number;
  private readonly firstDay: number;
  private readonly minute: number;
  /** Calendar days a turn spans, or null for hour lengths. */
  private readonly days: number | null;
  private readonly hoursMs: number;

  constructor(
    private readonly zone: string,
    rotation: Rotation,
  ) {
    const minute = minuteOfDay(rotation.handoff);
    if (minute === null) throw new RangeError(`handoff must be HH:MM, not ${rotation.handoff}`);
    const { length } = rotation;
    this.minute = minute;
    this.days = length === 'daily' ? 1 : length === 'weekly' ? 7 : null;
    this.hoursMs = typeof length === 'object' ? length.hours * HOUR_MS : 0;
    if (this.days === null && !(this.hoursMs > 0)) throw new RangeError('a rotation lasts at least an hour');
    const startsAt = rotation.startsAt.getTime();
    let day = dayNumber(wallTimeAt(zone, startsAt));
    if (instantOnDay(zone, day, minute) < startsAt) day += 1;
    this.firstDay = day;
    this.start = instantOnDay(zone, day, minute);
    this.end = rotation.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;
  }

  /** Where turn `index` starts (before the layer's end is applied). */
  private boundary(index: number): number {
    if (this.days === null) return this.start + index * this.hoursMs;
    return instantOnDay(this.zone, this.firstDay + index * this.days, this.minute);
  }

  private turn(index: number): Turn {
    return { index, from: this.boundary(index), to: Math.min(this.boundary(index + 1), this.end) };
  }

  /** The index of the turn running at `at` (which must not be before the start). */
  private indexAt(at: number): number {
    if (this.days === null) return Math.floor((at - this.start) / this.hoursMs);
    const days = dayNumber(wallTimeAt(this.zone, at)) - this.firstDay;
    const index = Math.floor(days / this.days);
    // Before that day's handoff: still the turn before.
    return at < this.boundary(index) ? index - 1 : index;
  }

  /** The turn running at `at`, or null before the layer starts or after it ends. */
  turnAt(at: number): Turn | null {
    if (at < this.start || at >= this.end) return null;
    return this.turn(this.indexAt(at));
  }

  /** The turns overlapping [from, to), in order (the first and last as they are, not cut). */
  turnsBetween(from: number, to: number): Turn[] {
    const first = Math.max(from, this.start);
    const last = Math.min(to, this.end);
    if (first >= last) return [];
    const turns: Turn[] = [];
    for (let turn = this.turn(this.indexAt(first)); turn.from < last; turn = this.turn(turn.index + 1)) {
      turns.push(turn);
      if (turn.to >= this.end) break;
    }
    return turns;
  }
}
