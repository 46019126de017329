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
