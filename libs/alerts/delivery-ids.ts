import type { Db } from 'mongodb';
import { upsertRacingFirstWriters } from '../db/index.js';
import { type Redis, redisScript } from '../redis/index.js';

/** Ids reserved in MongoDB at a time: one MongoDB write per this many deliveries. */
const RESERVED_AT_ONCE = 1000;

/**
 * The next id, if the reservation covers it (else its negation: a reservation is due first).
 * KEYS: the sequence's hash (its counter and reserved ceiling: evicted or lost together).
 */
const NEXT_SCRIPT = redisScript(`
local n = redis.call('HINCRBY', KEYS[1], 'counter', 1)
local ceiling = tonumber(redis.call('HGET', KEYS[1], 'ceiling') or '0')
if n <= ceiling then return n end
return -n
`);

/**
 * A reservation of ids (base, ceiling] made in MongoDB: the ceiling moves up to `ceiling`, never
 * down. A sequence Redis lost (no ceiling) starts past `base`: every id up to it may have been
 * handed out already. Otherwise every id handed out came from the counter, and reservations made
 * at once by several processes join up (no gap). KEYS: the sequence's hash. ARGV: base, ceiling.
 */
const RESERVED_SCRIPT = redisScript(`
local ceiling = redis.call('HGET', KEYS[1], 'ceiling')
if not ceiling then
  local counter = tonumber(redis.call('HGET', KEYS[1], 'counter') or '0')
  if counter < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'counter', ARGV[1]) end
end
if tonumber(ceiling or '0') < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'ceiling', ARGV[2]) end
return 1
`);

/**
 * Delivery ids, in the order deliveries are made across every process: handed out by a Redis
 * counter (one script a delivery, where the MongoDB counter took a read-and-write and a claim
 * insert each, a tenth of the notifier's requests), within ranges reserved a thousand at a time
 * in MongoDB's `counters` document. MongoDB's counter is always at or past every id handed out,
 * so a Redis that lost its counter starts again above it: no id is handed out twice.
 */
export class DeliveryIds {
  private readonly keys: [string];
  /** The reservation under way in this process: those who need one meanwhile wait for it. */
  private reserving: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    prefix: string,
    private readonly sequence = 'deliveries',
  ) {
    this.keys = [`${prefix}:ids:${sequence}`];
  }

  async next(): Promise<number> {
    for (;;) {
      const n = Number(await NEXT_SCRIPT.run(this.redis, this.keys, []));
      if (n > 0) return n;
      this.reserving ??= this.reserve().finally(() => {
        this.reserving = null;
      });
      await this.reserving;
    }
  }

  /** A thousand more ids reserved in MongoDB, then allowed in Redis. */
  private async reserve(): Promise<void> {
    const counters = this.db.collection<{ _id: string; seq: number }>('counters');
    const reserved = await upsertRacingFirstWriters(() =>
      counters.findOneAndUpdate(
        { _id: this.sequence },
        { $inc: { seq: RESERVED_AT_ONCE } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    if (!reserved) throw new Error(`counter ${this.sequence} was not returned by findOneAndUpdate`);
    await RESERVED_SCRIPT.run(this.redis, this.keys, [reserved.seq - RESERVED_AT_ONCE, reserved.seq]);
  }
}
