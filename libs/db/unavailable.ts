import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

/** True when the error means MongoDB cannot be reached now (as opposed to a bad query). */
export function isMongoUnavailable(error: unknown): boolean {
  return (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    // A deadline (`timeoutMS`) passed without an answer: a stalled server, as far as we can tell.
    error instanceof MongoOperationTimeoutError ||
    // insertMany reports a connection lost mid-batch as a bulk error carrying the network error.
    (error instanceof MongoBulkWriteError &&
      error.errorResponse !== error &&
      isMongoUnavailable(error.errorResponse))
  );
}

/** A read given up after its deadline (`withinDeadline`): MongoDB stalled, as far as we can tell. */
export class MongoDeadlineError extends MongoOperationTimeoutError {
  constructor(what: string, ms: number) {
    super(`${what}: MongoDB did not answer within ${ms} ms`);
  }

  override get name(): string {
    return 'MongoDeadlineError';
  }
}

/**
 * `work`, or a `MongoDeadlineError` after `ms`: for reads whose driver call has no deadline of its
 * own (a stalled server answers nothing and errors nothing). The read itself goes on unheeded.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MongoDeadlineError(what, ms)), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
