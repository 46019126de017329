import type { MessagePort } from 'node:worker_threads';
import { answerRequests, RequestThread } from '../runtime/index.js';
import type { BuiltPage, PageBuilder, PageBuildRequest } from './page-builder.js';
import { type PackedPage, packedPage, unpackedPage } from './shared-pages.js';

interface BuiltMessage extends PackedPage {
  madeAt: number;
}

/** A build not answered within this fails and its thread is replaced. */
const BUILD_TIMEOUT_MS = 60_000;

/**
 * Serves builds asked through `port` with `builder`, in the thread that owns it; resolves when
 * asked to close (after the builds under way).
 */
export function servePageBuilds(port: MessagePort, builder: PageBuilder): Promise<void> {
  return answerRequests<PageBuildRequest, BuiltMessage>(port, async (request) => {
    const built = await builder.build(request);
    return { answer: { madeAt: built.madeAt, ...(await packedPage(built.page)) } };
  });
}

/**
 * Builds pages on a thread of their own, started at the first build: a build reads hundreds of
 * documents, renders ~0.5 MB of HTML and keeps months of rollups in memory, and on the API's
 * thread its CPU and garbage collection held every other request up by up to ~150 ms. A thread
 * that fails or exits fails the builds under way and is started again by the next one.
 */
export class ThreadPageBuilder implements PageBuilder {
  private readonly thread: RequestThread<PageBuildRequest, BuiltMessage>;

  constructor(options: { entry: URL; workerData: Record<string, unknown> }) {
    this.thread = new RequestThread({
      ...options,
      name: 'the status page builder',
      answerTimeoutMs: BUILD_TIMEOUT_MS,
    });
  }

  async build(request: PageBuildRequest): Promise<BuiltPage> {
    const built = await this.thread.ask(request);
    return { madeAt: built.madeAt, page: unpackedPage(built) };
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
