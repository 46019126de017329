import type { Logger } from '../logging/index.js';
import { type Mongo, pingMongo } from './mongo.js';

/** Whether MongoDB answers now, as the last ping found; told at once when it stops answering. */
export interface MongoHealth {
  readonly name: 'MongoDB';
  readonly available: boolean;
  /** Calls `listener` when MongoDB turns unavailable; returns the unsubscribe. */
  onLost(listener: () => void): () => void;
  /**
   * MongoDB answered a request of this process just now: while it is available the next ping is
   * skipped (a busy worker's own writes say as much, each ping costing FerretDB a request).
   */
  answered(): void;
  stop(): void;
}

/**
 * Pings MongoDB every `intervalMs`; a ping unanswered within `timeoutMs` marks it unavailable (a
 * stalled server answers nothing and errors nothing: only a deadline tells), the next answered one
 * available again. With the defaults a stall is known within 2.5 s.
 */
export function watchMongoHealth(
  mongo: Mongo,
  options: { logger: Logger; intervalMs?: number; timeoutMs?: number },
): MongoHealth {
  const listeners = new Set<() => void>();
  let available = true;
  let pinging = false;
  let answeredAt = 0;
  const intervalMs = options.intervalMs ?? 1000;
  const timer = setInterval(async () => {
    if (pinging || (available && Date.now() - answeredAt < intervalMs)) return;
    pinging = true;
    const answered = await pingMongo(mongo, options.timeoutMs ?? 1500);
    pinging = false;
    if (answered === available) return;
    available = answered;
    if (answered) options.logger.info('MongoDB answers again');
    else {
      options.logger.warn('MongoDB does not answer: requests that need it get 503 until it does');
      for (const listener of listeners) listener();
    }
  }, intervalMs);
  timer.unref();
  return {
    name: 'MongoDB',
    get available() {
      return available;
    },
    answered() {
      answeredAt = Date.now();
    },
    onLost(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      clearInterval(timer);
    },
  };
}
