// A worker thread's TypeScript entry, started from the sources (development, tests): Node 20
// applies no `--import tsx` to worker threads, so tsx's loader is registered here first.
// Compiled builds start their `.js` entries directly and never load this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.typescriptEntry);
