import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { Claimed, DueMember, DueSet, PutBack } from './due-set.js';
import type { Lane } from './lanes.js';

/** What a lane of a worker runs: its region's due set, how many at once, and one check. */
export interface LaneWork {
  set: DueSet;
  concurrency: number;
  /**
   * How long a claimed member is held before another worker may take it: a dead worker's checks
   * are taken over after this; a live worker renews the leases of the checks it runs.
   */
  leaseMs: number;
  /**
   * Runs one due member; answers when it is next due (epoch ms), or null when it no longer belongs
   * in the set (its monitor or website is gone).
   */
  run(member: DueMember, plannedAt: number): Promise<number | null>;
}

export interface DueLanesOptions {
  logger: Logger;
  /** The longest a lane sleeps: members producers add sooner than its next due one wait at most this. @defaultValue 1000 */
  maxSleepMs?: number;
  /**
   * The shortest time between two claims of a lane while nothing is overdue: due members are taken
   * a few at a time, not in one round trip each. @defaultValue 20
   */
  batchWindowMs?: number;
}

/** The most claimed in one round trip. */
const CLAIM_BATCH = 100;
/** When a run fails, the member is looked at again this much later (the lease would be longer). */
const RETRY_AFTER_FAILURE_MS = 30_000;

/**
 * The one scheduling loop of a worker, for every kind: each lane claims from its region's due set
 * only as many members as it has free slots (the rest wait in Redis, not in memory), runs them,
 * and puts each back at its next time with its next claim. It sleeps until the earliest member is
 * due (at most `maxSleepMs`), or until a slot frees when it was full, so a full lane never delays
 * another and checks start within a few milliseconds of their time.
 */
export function startDueLanes(
  lanes: Partial<Record<Lane, LaneWork>>,
  options: DueLanesOptions,
): { stop(): Promise<void> } {
  // A failing claim is told once per streak for all lanes: Redis away fails every lane every
  // second, and its outage is logged already.
  const failingLanes = new Set<Lane>();
  const claims: ClaimOutcomes = {
    failed(lane, error) {
      if (failingLanes.size === 0)
        options.logger.warn(
          { err: errorMessage(error), lanes: Object.keys(lanes) },
          'due checks not claimed (Redis away?); tried again every second',
        );
      failingLanes.add(lane);
    },
    succeeded(lane) {
      failingLanes.delete(lane);
    },
  };
  const loops = (Object.entries(lanes) as Array<[Lane, LaneWork]>).map(([lane, work]) =>
    startLane(lane, work, options, claims),
  );
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}

interface ClaimOutcomes {
  failed(lane: Lane, error: unknown): void;
  succeeded(lane: Lane): void;
}

function startLane(lane: Lane, work: LaneWork, options: DueLanesOptions, claims: ClaimOutcomes) {
  const maxSleepMs = options.maxSleepMs ?? 1000;
  const batchWindowMs = options.batchWindowMs ?? 20;
  const running = new Set<Promise<void>>();
  // What this worker holds under a lease, renewed while it runs (a lease's score changes with it).
  const held = new Set<Claimed>();
  let finished: PutBack[] = [];
  let pumping = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  let lastClaimAt = 0;

  const wake = (at: number) => {
    if (stopped || at >= wakeAt) return;
    if (timer) clearTimeout(timer);
    wakeAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        wakeAt = Number.POSITIVE_INFINITY;
        void pump();
      },
      Math.max(0, at - Date.now()),
    );
  };

  const start = (claimed: Claimed) => {
    const run: Promise<void> = work
      .run(claimed.member, claimed.plannedAt)
      .catch((error: unknown) => {
        options.logger.warn(
          {
            err: errorMessage(error),
            lane,
            monitor: `${claimed.member.kind}:${claimed.member.monitorId}`,
          },
          'check not made; tried again later',
        );
        return Date.now() + RETRY_AFTER_FAILURE_MS;
      })
      .then((nextAt) => {
        held.delete(claimed);
        finished.push({ claimed, nextAt });
        running.delete(run);
        // Put back soon (its next time may be near: a re-check), and a freed slot takes what is due.
        wake(Math.min(lastClaimAt + batchWindowMs, nextAt ?? Number.POSITIVE_INFINITY));
      });
    held.add(claimed);
    running.add(run);
  };

  const pump = async () => {
    if (pumping || stopped) return;
    pumping = true;
    let next = Date.now() + maxSleepMs;
    try {
      const free = work.concurrency - running.size;
      const returning = finished;
      finished = [];
      const now = Date.now();
      lastClaimAt = now;
      // Leases half gone are renewed (put back at a new lease, only where still this worker's).
      const renewed = now + work.leaseMs;
      const renewals = [...held].filter((claimed) => claimed.lease - now < work.leaseMs / 2);
      const limit = Math.max(0, Math.min(free, CLAIM_BATCH));
      const { claimed, nextAt } = await work.set
        .exchange(
          [...returning, ...renewals.map((c) => ({ claimed: c, nextAt: renewed }))],
          now,
          limit,
          work.leaseMs,
        )
        .catch((error) => {
          finished.push(...returning);
          throw error;
        });
      for (const renewal of renewals) renewal.lease = renewed;
      claims.succeeded(lane);
      // Claimed as the worker stops: put back at once, as due as they were.
      if (stopped) finished.push(...claimed.map((c) => ({ claimed: c, nextAt: c.plannedAt })));
      else for (const member of claimed) start(member);
      // As many as one round trip takes: more may be due. Fewer than the free slots: nothing else is
      // due yet. Full: a finishing run wakes the lane.
      if (claimed.length === CLAIM_BATCH) next = Date.now();
      else if (claimed.length < limit && nextAt !== null)
        next = Math.min(next, Math.max(nextAt, now + batchWindowMs));
    } catch (error) {
      claims.failed(lane, error);
    } finally {
      pumping = false;
      wake(next);
    }
  };

  wake(Date.now());
  return {
    /** Lets the runs in hand finish and puts them back. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // A claim in flight first: what it takes is put back below, not started.
      while (pumping) await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.all([...running]);
      if (finished.length > 0)
        await work.set
          .exchange(finished, Date.now(), 0, work.leaseMs)
          .catch((error: unknown) =>
            options.logger.warn(
              { err: errorMessage(error), lane },
              'finished checks not put back; their leases end and they are taken again',
            ),
          );
    },
  };
}
