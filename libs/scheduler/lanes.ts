/**
 * Where a kind's checks queue in a worker: each lane has its own due set per region and its own
 * concurrency (`WORKER_LANE_<NAME>_CONCURRENCY`; the browser's `WORKER_BROWSER_CONCURRENCY`), so a
 * saturated lane (checks that wait seconds by design) never delays another lane's schedule. A
 * worker claims no more browser journeys than its browser plays at once: the others stay due for
 * any worker with a free slot. The site lane (crawls and Lighthouse: minutes each) is one
 * wide by default, so a worker runs one at a time (`WORKER_LANE_SITE_CONCURRENCY`).
 */
export const LANES = ['http', 'fast', 'slow', 'browser', 'site'] as const;
export type Lane = (typeof LANES)[number];
/** The lanes of the monitors beside a website's own HTTP check (their due sets keyed as `regionDueKey`'s). */
export type IntervalLane = Exclude<Lane, 'http'>;
export const INTERVAL_LANES = LANES.filter((lane): lane is IntervalLane => lane !== 'http');
