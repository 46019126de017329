import { type MessagePort, type TransferListItem, Worker } from 'node:worker_threads';
import { errorMessage } from '../errors/index.js';

/** What a thread's handler returns: the answer, and what of it moves to the asking thread rather than being copied. */
export interface ThreadAnswer<Answer> {
  answer: Answer;
  transfer?: readonly TransferListItem[];
}

type ToThread<Request> = { id: number; request: Request } | { close: true };
type FromThread<Answer> = { id: number; answer: Answer } | { id: number; error: string };

/** A thread that does not stop within this after it was asked to is terminated. */
const CLOSE_TIMEOUT_MS = 5_000;
/** Starts a TypeScript entry (sources run in development and tests). */
const TYPESCRIPT_THREAD = new URL('./typescript-thread.mjs', import.meta.url);

/**
 * Answers the requests asked through `port` with `handle`, in the thread that owns what it needs;
 * resolves when asked to close, after the requests under way were answered.
 */
export function answerRequests<Request, Answer>(
  port: MessagePort,
  handle: (request: Request) => Promise<ThreadAnswer<Answer>>,
): Promise<void> {
  return new Promise((resolve) => {
    const underWay = new Set<Promise<void>>();
    port.on('message', (message: ToThread<Request>) => {
      if ('close' in message) {
        port.removeAllListeners('message');
        void Promise.allSettled(underWay).then(() => resolve());
        return;
      }
      const done: Promise<void> = handle(message.request).then(
        ({ answer, transfer }) =>
          port.postMessage({ id: message.id, answer } satisfies FromThread<Answer>, transfer),
        (error: unknown) =>
          port.postMessage({
            id: message.id,
            error: errorMessage(error),
          } satisfies FromThread<Answer>),
      );
      void done.finally(() => underWay.delete(done));
      underWay.add(done);
    });
  });
}

export interface RequestThreadOptions {
  /** The thread's module: a `.ts` entry runs under tsx (sources), a `.js` one as it is (builds). */
  entry: URL;
  workerData: Record<string, unknown>;
  /** What the thread does, in errors: `the status page builder`. */
  name: string;
  /** A request not answered within this fails and its thread is replaced. */
  answerTimeoutMs: number;
  /** The thread does not keep the process alive by itself (one started by a library, never closed). */
  background?: boolean;
}

/**
 * Requests answered by a thread of their own (see `answerRequests`), started at the first one. A
 * thread that fails, exits or does not answer in time fails the requests under way and is
 * started again by the next one; `close` lets the ones under way finish.
 */
export class RequestThread<Request, Answer> {
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    {
      worker: Worker;
      timer: NodeJS.Timeout;
      resolve(answer: Answer): void;
      reject(error: Error): void;
    }
  >();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: RequestThreadOptions) {}

  ask(request: Request, transfer?: readonly TransferListItem[]): Promise<Answer> {
    const { name, answerTimeoutMs } = this.options;
    if (this.closed) return Promise.reject(new Error(`${name} is closed`));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // A request that never answers (a stalled connection, a blocked thread) would hold its
      // caller for good: it fails, and the thread is replaced.
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new Error(`${name} did not answer within ${answerTimeoutMs / 1000} s`));
        void worker.terminate();
      }, answerTimeoutMs);
      this.pending.set(id, { worker, timer, resolve, reject });
      worker.postMessage({ id, request } satisfies ToThread<Request>, transfer);
    });
  }

  /** The request's waiter, no longer waiting. */
  private settle(id: number) {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    return waiting;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const { entry, workerData, name } = this.options;
    const worker = entry.pathname.endsWith('.ts')
      ? new Worker(TYPESCRIPT_THREAD, {
          workerData: { ...workerData, typescriptEntry: entry.href },
          execArgv: [],
        })
      : new Worker(entry, { workerData, execArgv: [] });
    if (this.options.background) worker.unref();
    worker.on('message', (message: FromThread<Answer>) => {
      const waiting = this.settle(message.id);
      if (!waiting) return;
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve(message.answer);
    });
    // Only this thread's requests fail with it: a replacement may already have others.
    const gone = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.pending) if (waiting.worker === worker) this.settle(id)?.reject(error);
    };
    worker.on('error', gone);
    worker.on('messageerror', (error) => {
      gone(error);
      void worker.terminate();
    });
    worker.on('exit', (code) => gone(new Error(`${name} thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ close: true } satisfies ToThread<Request>);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}
