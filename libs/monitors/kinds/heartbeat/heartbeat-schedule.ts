import { CronExpressionParser } from 'cron-parser';
import { errorMessage } from '../../../errors/index.js';

/** When a job pings: every `periodSeconds`, or at a cron expression's slots in a time zone. */
export type HeartbeatSchedule = { periodSeconds: number } | { cron: string; timezone: string };

/** What a heartbeat's deadline is computed from. */
export interface HeartbeatTiming {
  schedule: HeartbeatSchedule;
  graceSeconds: number;
  /** A run started (`/start`) and not finished this long after is late (null: no bound). */
  maxRunSeconds: number | null;
}

/** What was heard from the job. */
export interface HeartbeatPings {
  createdAt: Date;
  lastSuccessAt: Date | null;
  lastStartAt: Date | null;
  /** When it was last seen not monitored (paused): a resumed heartbeat counts from then. */
  quietSince?: Date | null;
}

/** What the deadline counts from: the last success (the creation before the first), or a later pause. */
export function countedFrom(pings: HeartbeatPings): Date {
  const since = pings.lastSuccessAt ?? pings.createdAt;
  return pings.quietSince && pings.quietSince > since ? pings.quietSince : since;
}

/** Why a cron expression is refused, in words (null: it is one we run). */
export function cronProblem(cron: string, timezone: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5)
    return 'must have five fields: minute, hour, day of month, month, day of week (e.g. "30 2 * * *")';
  try {
    CronExpressionParser.parse(cron, { tz: timezone, strict: false }).next();
    return null;
  } catch (error) {
    return `is not a cron expression we can run: ${errorMessage(error)}`;
  }
}

/** The expected ping times after `after`, at most `count` (DST-correct in the schedule's zone). */
export function expectedAfter(schedule: HeartbeatSchedule, after: Date, count: number): Date[] {
  if ('periodSeconds' in schedule)
    return Array.from(
      { length: count },
      (_, i) => new Date(after.getTime() + (i + 1) * schedule.periodSeconds * 1000),
    );
  const expression = CronExpressionParser.parse(schedule.cron, { currentDate: after, tz: schedule.timezone });
  return expression.take(count).map((slot) => slot.toDate());
}

/**
 * When the heartbeat is late unless the job pings: the next expected time after the last success
 * (after the creation before the first) plus the grace; sooner when a run started and `maxRunSeconds`
 * passes without its success.
 */
export function heartbeatDeadline(
  timing: HeartbeatTiming,
  pings: HeartbeatPings,
): { at: Date; reason: 'missed' | 'overran'; expectedAt: Date } {
  const [next] = expectedAfter(timing.schedule, countedFrom(pings), 1);
  const missed = new Date((next as Date).getTime() + timing.graceSeconds * 1000);
  const running =
    pings.lastStartAt !== null && (pings.lastSuccessAt === null || pings.lastStartAt > pings.lastSuccessAt);
  if (running && timing.maxRunSeconds !== null) {
    const overran = new Date((pings.lastStartAt as Date).getTime() + timing.maxRunSeconds * 1000);
    if (overran < missed) return { at: overran, reason: 'overran', expectedAt: next as Date };
  }
  return { at: missed, reason: 'missed', expectedAt: next as Date };
}
