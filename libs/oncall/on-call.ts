import { type Layer, RotationClock } from './rotation.js';

const DAY_MS = 86_400_000;
/** How far `onCallAt` and `nextHandoff` look either way before they call a span open-ended. */
const LOOKUP_HORIZON_DAYS = 366;

export interface Schedule {
  /** IANA zone whose wall clock the handoffs follow. */
  timezone: string;
  /** In order of precedence: a later layer wins over an earlier one while it has someone on. */
  layers: readonly Layer[];
}

/** Someone covering a span: wins over every layer. */
export interface Override {
  id?: number;
  userId: number;
  from: Date;
  to: Date;
}

/** Where a shift comes from: a layer's turn, or an override. */
export type ShiftSource = { kind: 'layer'; layer: number } | { kind: 'override'; overrideId: number | null };

export interface Shift {
  userId: number;
  from: Date;
  to: Date;
  source: ShiftSource;
}

export interface OnCall {
  userId: number;
  /** Since when they have been on call without a break; null: for longer than the lookup horizon. */
  since: Date | null;
  /** Until when; null: beyond the lookup horizon (no end in sight). */
  until: Date | null;
}

export interface Handoff {
  now: OnCall | null;
  /** The next person other than `now` to be on call, and when; null: no one within the horizon. */
  next: { userId: number; at: Date } | null;
}

export interface LookupOptions {
  /**
   * People no longer on call (removed from the organization): their turns are a gap in their
   * layer, through which an earlier layer shows, and their overrides no longer count.
   */
  isAway?: (userId: number) => boolean;
}

/** A span someone holds, before precedence: `rank` orders sources (overrides above layers, later above earlier). */
interface Piece {
  userId: number;
  from: number;
  to: number;
  rank: number;
  source: ShiftSource;
}

/** A schedule prepared for lookups: each layer's clock made once. */
class Resolver {
  private readonly clocks: Array<RotationClock | null>;

  constructor(
    private readonly schedule: Schedule,
    private readonly overrides: readonly Override[],
    private readonly isAway: (userId: number) => boolean,
  ) {
    this.clocks = schedule.layers.map((layer) =>
      layer.participants.length > 0 ? new RotationClock(schedule.timezone, layer.rotation) : null,
    );
  }

  /** Who is on call at `at` by precedence alone (no span): the lookup the escalation engine makes. */
  who(at: number): number | null {
    for (let i = this.overrides.length - 1; i >= 0; i--) {
      const override = this.overrides[i] as Override;
      if (override.from.getTime() <= at && at < override.to.getTime() && !this.isAway(override.userId))
        return override.userId;
    }
    for (let layer = this.clocks.length - 1; layer >= 0; layer--) {
      const turn = this.clocks[layer]?.turnAt(at);
      if (!turn) continue;
      const participants = (this.schedule.layers[layer] as Layer).participants;
      const userId = participants[turn.index % participants.length] as number;
      if (!this.isAway(userId)) return userId;
    }
    return null;
  }

  /** Every span someone holds within [from, to), before precedence. */
  private pieces(from: number, to: number): Piece[] {
    const pieces: Piece[] = [];
    this.clocks.forEach((clock, layer) => {
      if (!clock) return;
      const participants = (this.schedule.layers[layer] as Layer).participants;
      const source: ShiftSource = { kind: 'layer', layer };
      // One participant holds the whole layer: one piece, not a turn per day for a year.
      if (participants.length === 1) {
        const userId = participants[0] as number;
        const start = Math.max(from, clock.start);
        const end = Math.min(to, clock.end);
        if (start < end && !this.isAway(userId))
          pieces.push({ userId, from: start, to: end, rank: layer, source });
        return;
      }
      for (const turn of clock.turnsBetween(from, to)) {
        const userId = participants[turn.index % participants.length] as number;
        if (!this.isAway(userId))
          pieces.push({
            userId,
            from: Math.max(from, turn.from),
            to: Math.min(to, turn.to),
            rank: layer,
            source,
          });
      }
    });
    this.overrides.forEach((override, index) => {
      const start = Math.max(from, override.from.getTime());
      const end = Math.min(to, override.to.getTime());
      if (start < end && !this.isAway(override.userId))
        pieces.push({
          userId: override.userId,
          from: start,
          to: end,
          rank: this.clocks.length + index,
          source: { kind: 'override', overrideId: override.id ?? null },
        });
    });
    return pieces;
  }

  /**
   * Who is on call through [from, to), after precedence: shifts in order, a shift ending where
   * the person or the source changes (`bySource`) or only where the person does.
   */
  timeline(from: number, to: number, bySource: boolean): Shift[] {
    const pieces = this.pieces(from, to);
    const cuts = [...new Set([from, to, ...pieces.flatMap((piece) => [piece.from, piece.to])])].sort(
      (a, b) => a - b,
    );
    const shifts: Shift[] = [];
    for (let c = 0; c + 1 < cuts.length; c++) {
      const start = cuts[c] as number;
      const end = cuts[c + 1] as number;
      let winner: Piece | null = null;
      for (const piece of pieces)
        if (piece.from <= start && end <= piece.to && (!winner || piece.rank > winner.rank)) winner = piece;
      if (!winner) continue;
      const last = shifts.at(-1);
      if (
        last &&
        last.to.getTime() === start &&
        last.userId === winner.userId &&
        (!bySource || sameSource(last.source, winner.source))
      )
        last.to = new Date(end);
      else
        shifts.push({
          userId: winner.userId,
          from: new Date(start),
          to: new Date(end),
          source: winner.source,
        });
    }
    return shifts;
  }

  /**
   * The shift running at `at`, merged across sources, with its true bounds: looked for in a
   * window that widens until the shift ends inside it, up to the horizon (beyond it: null).
   */
  onCallAt(at: number): OnCall | null {
    if (this.who(at) === null) return null;
    const horizon = LOOKUP_HORIZON_DAYS * DAY_MS;
    for (let reach = 8 * DAY_MS; ; reach = Math.min(reach * 4, horizon)) {
      const from = at - reach;
      const to = at + reach;
      const shift = this.timeline(from, to, false).find((s) => s.from.getTime() <= at && at < s.to.getTime());
      if (!shift) return null;
      const since = shift.from.getTime() > from ? shift.from : null;
      const until = shift.to.getTime() < to ? shift.to : null;
      if ((since && until) || reach >= horizon) return { userId: shift.userId, since, until };
    }
  }

  /** The first shift of someone other than `userId` from `after` on, within the horizon. */
  nextOther(after: number, userId: number | null): { userId: number; at: Date } | null {
    const limit = after + LOOKUP_HORIZON_DAYS * DAY_MS;
    for (let from = after, reach = 8 * DAY_MS; from < limit; from += reach, reach *= 4) {
      const to = Math.min(from + reach, limit);
      const other = this.timeline(from, to, false).find((shift) => shift.userId !== userId);
      if (other) return { userId: other.userId, at: other.from };
    }
    return null;
  }
}

const sameSource = (a: ShiftSource, b: ShiftSource): boolean =>
  a.kind === 'layer'
    ? b.kind === 'layer' && a.layer === b.layer
    : b.kind === 'override' && a.overrideId === b.overrideId;

const never = () => false;

/** Overrides in the order they were made (ids ascending): among overlapping ones the last made wins. */
const resolverOf = (schedule: Schedule, overrides: readonly Override[], options: LookupOptions) =>
  new Resolver(schedule, overrides, options.isAway ?? never);

/** Who is on call at `at` (an override, else the last layer with someone on), without the span. */
export function whoIsOnCallAt(
  schedule: Schedule,
  overrides: readonly Override[],
  at: Date,
  options: LookupOptions = {},
): number | null {
  return resolverOf(schedule, overrides, options).who(at.getTime());
}

/** Who is on call at `at`, since when and until when (without a break, whatever the source). */
export function onCallAt(
  schedule: Schedule,
  overrides: readonly Override[],
  at: Date,
  options: LookupOptions = {},
): OnCall | null {
  return resolverOf(schedule, overrides, options).onCallAt(at.getTime());
}

/** Who is on call at `at`, and who takes over next (the next person other than them) and when. */
export function nextHandoff(
  schedule: Schedule,
  overrides: readonly Override[],
  at: Date,
  options: LookupOptions = {},
): Handoff {
  const resolver = resolverOf(schedule, overrides, options);
  const now = resolver.onCallAt(at.getTime());
  if (now && now.until === null) return { now, next: null };
  return { now, next: resolver.nextOther(now?.until?.getTime() ?? at.getTime(), now?.userId ?? null) };
}

/**
 * Who is on call through [from, to): shifts in order, cut where the person or the source changes
 * (a calendar shows overrides apart); gaps where no one is on.
 */
export function shiftsBetween(
  schedule: Schedule,
  overrides: readonly Override[],
  from: Date,
  to: Date,
  options: LookupOptions = {},
): Shift[] {
  return resolverOf(schedule, overrides, options).timeline(from.getTime(), to.getTime(), true);
}

/** One person's time on call through [from, to), each stretch without a break one shift (a calendar feed). */
export function shiftsOf(
  schedule: Schedule,
  overrides: readonly Override[],
  userId: number,
  from: Date,
  to: Date,
  options: LookupOptions = {},
): Shift[] {
  return resolverOf(schedule, overrides, options)
    .timeline(from.getTime(), to.getTime(), false)
    .filter((shift) => shift.userId === userId);
}
