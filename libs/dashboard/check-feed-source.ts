import { Cluster } from 'ioredis';
import type { Logger } from '../logging/index.js';
import { checkFeedChannel, feedMessage } from '../monitoring/index.js';
import { type Redis, redisReady } from '../redis/index.js';
import type { ChangeSource } from './overview-streams.js';

/**
 * The workers' check feed as the overview's streams' source: one subscriber connection per process
 * (a duplicate of `redis`), each message parsed once. When the connection comes back after a loss,
 * changes may have been missed: `lost` tells the streams to read their overview again.
 */
export function redisCheckFeed(redis: Redis, prefix: string, logger: Logger): ChangeSource {
  return async ({ deliver, lost }) => {
    // Both clients can duplicate themselves; their overloads do not unite into one callable type.
    const subscriber: Redis = redis instanceof Cluster ? redis.duplicate() : redis.duplicate();
    try {
      await redisReady(subscriber);
      await subscriber.subscribe(checkFeedChannel(prefix));
    } catch (error) {
      subscriber.disconnect();
      throw error;
    }
    let dropped = false;
    subscriber.on('message', (_channel: string, text: string) => {
      const parsed = feedMessage.safeParse(readJson(text));
      if (parsed.success) deliver(parsed.data);
      else logger.warn({ text: text.slice(0, 200) }, 'a feed message of another shape was left out');
    });
    subscriber.on('close', () => {
      dropped = true;
    });
    // Once per outage: the client reconnects (and subscribes again) by itself.
    subscriber.on('error', (error: Error) => {
      if (!dropped)
        logger.warn({ err: error.message }, 'the overview streams lost the check feed: reconnecting');
      dropped = true;
    });
    subscriber.on('ready', () => {
      if (!dropped) return;
      dropped = false;
      logger.info('the overview streams hear the check feed again; open overviews read theirs again');
      lost();
    });
    return {
      close: async () => {
        subscriber.disconnect();
      },
    };
  };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
