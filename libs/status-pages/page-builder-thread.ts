import { type MessagePort, Worker } from 'node:worker_threads';
import type { BuiltPage, PageBuilder, PageBuildRequest } from './page-builder.js';
import { type PackedPage, packedPage, unpackedPage } from './shared-pages.js';

interface BuiltMessage extends PackedPage {
  madeAt: number;
}

type ToBuilder = { id: number; request: PageBuildRequest } | { close: true };
type FromBuilder = { id: number; built: BuiltMessage } | { id: number; error: string };

/** A build not answered within this fails and its thread is replaced. */
const BUILD_TIMEOUT_MS = 60_000;
/** A thread that does not stop within this after it was asked to is terminated. */
const CLOSE_TIMEOUT_MS = 5_000;
/** Starts a TypeScript entry (sources run in development and tests). */
const TYPESCRIPT_THREAD = new URL('../runtime/typescript-thread.mjs', import.meta.url);

/**
 * Serves builds asked through `port` with `builder`, in the thread that owns it; resolves when
 * asked to close (after the builds under way).
 */
export function servePageBuilds(port: MessagePort, builder: PageBuilder): Promise<void> {
  return new Promise((resolve) => {
    const underWay = new Set<Promise<void>>();
    port.on('message', (message: ToBuilder) => {
      if ('close' in message) {
        port.removeAllListeners('message');
        void Promise.allSettled(underWay).then(() => resolve());
        return;
      }
      const answer = async (): Promise<FromBuilder> => {
        try {
          const built = await builder.build(message.request);
          return { id: message.id, built: { madeAt: built.madeAt, ...(await packedPage(built.page)) } };
        } catch (error) {
          return { id: message.id, error: error instanceof Error ? error.message : String(error) };
        }
      };
      const done: Promise<void> = answer().then((reply) => {
        port.postMessage(reply);
        underWay.delete(done);
      });
      underWay.add(done);
    });
  });
}

/**
 * Builds pages on a thread of their own, started at the first build: a build reads hundreds of
 * documents, renders ~0.5 MB of HTML and keeps months of rollups in memory, and on the API's
 * thread its CPU and garbage collection held every other request up by up to ~150 ms. A thread
 * that fails or exits fails the builds under way and is started again by the next one.
 */
export class ThreadPageBuilder implements PageBuilder {
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    {
      worker: Worker;
      timer: NodeJS.Timeout;
      resolve(built: BuiltPage): void;
      reject(error: Error): void;
    }
  >();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: { entry: URL; workerData: Record<string, unknown> }) {}

  build(request: PageBuildRequest): Promise<BuiltPage> {
    if (this.closed) return Promise.reject(new Error('the status page builder is closed'));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // A build that never answers (a stalled connection, a blocked thread) would hold its slot
      // for good: it fails, and the thread is replaced.
      const timer = setTimeout(() => {
        this.settle(id)?.reject(
          new Error(`the status page builder did not answer within ${BUILD_TIMEOUT_MS / 1000} s`),
        );
        void worker.terminate();
      }, BUILD_TIMEOUT_MS);
      this.pending.set(id, { worker, timer, resolve, reject });
      worker.postMessage({ id, request } satisfies ToBuilder);
    });
  }

  /** The build's waiter, no longer waiting. */
  private settle(id: number) {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    return waiting;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const { entry, workerData } = this.options;
    const worker = entry.pathname.endsWith('.ts')
      ? new Worker(TYPESCRIPT_THREAD, {
          workerData: { ...workerData, typescriptEntry: entry.href },
          execArgv: [],
        })
      : new Worker(entry, { workerData, execArgv: [] });
    worker.on('message', (message: FromBuilder) => {
      const waiting = this.settle(message.id);
      if (!waiting) return;
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve({ madeAt: message.built.madeAt, page: unpackedPage(message.built) });
    });
    // Only this thread's builds fail with it: a replacement may already have others.
    const gone = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.pending) if (waiting.worker === worker) this.settle(id)?.reject(error);
    };
    worker.on('error', gone);
    worker.on('messageerror', (error) => {
      gone(error);
      void worker.terminate();
    });
    worker.on('exit', (code) => gone(new Error(`the status page builder thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ close: true } satisfies ToBuilder);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}
