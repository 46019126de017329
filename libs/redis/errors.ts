import type { Logger } from '../logging/index.js';

const UNAVAILABLE_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Command timed out',
  'Reached the max retries per request limit',
];
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTCONN']);

/** True when the error means Redis cannot be reached now (as opposed to a bad command). */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    (code !== undefined && UNAVAILABLE_CODES.has(code)) ||
    UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message))
  );
}

/**
 * An 'error' listener for BullMQ queues and workers: a lost connection is already told once by the
 * connection (see `createRedis`), so only other errors are logged. A queue without any listener
 * would print each reconnect attempt's error as raw text.
 */
export function logUnlessConnectionLost(logger: Logger, message: string): (error: Error) => void {
  return (error) => {
    if (!isRedisUnavailable(error)) logger.error({ err: error.message }, message);
  };
}

/**
 * A BullMQ queue's 'error' events are its connection's errors, told once by the connection itself
 * (`createRedis`); without a listener BullMQ prints each reconnect attempt's error as raw text.
 */
export function quietQueueErrors<T extends { on(event: 'error', listener: (error: Error) => void): unknown }>(
  queue: T,
): T {
  queue.on('error', () => undefined);
  return queue;
}
