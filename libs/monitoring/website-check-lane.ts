import type { Logger } from '../logging/index.js';
import { type DueMember, type LaneWork, nextCheckAfterRun, nextCheckAt } from '../scheduler/index.js';
import type { CheckRunner, RunOutcome } from './check-runner.js';
import { type CheckResultDocument, failuresOf } from './result.repository.js';

/**
 * Why a check was dropped without probing. stale: it would start more than an interval after it
 * was due; overlap: the website's previous check in this worker still waits or runs (MongoDB slow,
 * every check slot taken), and that check covers this slot.
 */
export type DroppedCheckReason = 'stale' | 'overlap';

/** A website whose check did not say its interval (gone, its customer missing) is looked at again after this. */
const UNKNOWN_INTERVAL_RETRY_MS = 60_000;

export interface WebsiteChecksOptions {
  region: string;
  recheckDelayMs: number;
  runner: CheckRunner;
  logger: Logger;
  /** Told of every check dropped without probing (see `DroppedCheckReason`). */
  onDropped?: (reason: DroppedCheckReason) => void;
  /** Told of every check made: its result, and how long after it was due it started. */
  onChecked?: (result: CheckResultDocument, lagMs: number) => void;
}

/**
 * The HTTP lane's work: one website's check from this node's region, then when it is next due: at
 * its next slot, or soon when its result needs confirming (one quick re-check).
 */
export function websiteChecks(options: WebsiteChecksOptions): Pick<LaneWork, 'run'> {
  // Websites with a check running here: a check now or a re-check due while the previous one still
  // runs would probe the site twice in the same instant and store two results of one moment.
  const inFlight = new Set<number>();

  return {
    async run(member: DueMember, plannedAt: number): Promise<number | null> {
      const { websiteId, organizationId } = member;
      if (inFlight.has(websiteId)) {
        options.onDropped?.('overlap');
        return Date.now() + options.recheckDelayMs;
      }
      inFlight.add(websiteId);
      try {
        const outcome = await options.runner.run(
          { websiteId, organizationId, region: options.region },
          plannedAt,
        );
        const now = Date.now();
        if (!outcome.ran) {
          if (outcome.reason === 'stale') options.onDropped?.('stale');
          if (options.logger.isLevelEnabled('debug'))
            options.logger.debug(
              { websiteId, region: options.region, reason: outcome.reason },
              'check not made',
            );
          if (outcome.reason === 'website deleted') return null;
          return outcome.intervalMs === undefined
            ? now + UNKNOWN_INTERVAL_RETRY_MS
            : nextCheckAt(websiteId, outcome.intervalMs, now);
        }
        options.onChecked?.(outcome.result, outcome.result.startedAt.getTime() - plannedAt);
        // Built only when asked for: a check is cheap, and this line would be one per check.
        if (options.logger.isLevelEnabled('debug'))
          options.logger.debug(decisionLine(outcome), 'check decided');
        return outcome.recheckSoon
          ? now + options.recheckDelayMs
          : nextCheckAfterRun(websiteId, outcome.intervalMs, outcome.result.startedAt.getTime(), now);
      } finally {
        inFlight.delete(websiteId);
      }
    },
  };
}

/** A check's decision as LOG_LEVEL=debug shows it: no URL, header or body, only what was decided. */
function decisionLine({ result, decision, recheckSoon }: RunOutcome & { ran: true }) {
  return {
    websiteId: result.websiteId,
    region: result.region,
    status: result.status,
    httpStatus: result.httpStatus,
    totalMs: result.timings.total,
    failing: failuresOf(result),
    // null: the result waits in the worker for MongoDB, its decision comes when it is stored.
    health: decision?.health ?? null,
    told: decision?.told ?? [],
    recheckSoon,
  };
}
