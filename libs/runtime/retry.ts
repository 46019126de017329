import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';

export interface RetryOptions {
  /** Said in the log while waiting, e.g. "MongoDB at 127.0.0.1:27017". */
  what: string;
  logger: Logger;
  signal?: AbortSignal;
  /** @defaultValue 5000 */
  maxDelayMs?: number;
}

/**
 * Calls `attempt` until it succeeds, backing off up to `maxDelayMs`, logging each failure; used at
 * start so that a process waits for its servers instead of crashing when they come up later.
 */
export async function retryUntilReady<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const maxDelayMs = options.maxDelayMs ?? 5000;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      options.signal?.throwIfAborted();
      const delayMs = Math.min(250 * 2 ** tries, maxDelayMs);
      options.logger.warn(
        { err: errorMessage(error), tries, retryInMs: delayMs },
        `waiting for ${options.what}`,
      );
      await sleep(delayMs, undefined, { signal: options.signal });
    }
  }
}
