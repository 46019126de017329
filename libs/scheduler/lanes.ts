/**
 * Where a kind's checks queue in a worker: each lane has its own due set per region and its own
 * concurrency (`WORKER_LANE_<NAME>_CONCURRENCY`), so a saturated lane (checks that wait seconds by
 * design) never delays another lane's schedule.
 */
export const LANES = ['http', 'fast', 'slow'] as const;
export type Lane = (typeof LANES)[number];
/** The lanes of the monitors beside a website's own HTTP check (their due sets keyed as `regionDueKey`'s). */
export type IntervalLane = Exclude<Lane, 'http'>;
