import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { type MessagePort, parentPort } from 'node:worker_threads';
import { untilAborted } from '../probe/index.js';
import { answerRequests } from '../runtime/index.js';
import { type AuditAnswer, type AuditRequest, auditPage } from './lighthouse-audit.js';

/** What the process's thread is asked: an audit (its cancel port moved with it), or to say when it is quiet. */
export type LighthouseThreadRequest =
  | { kind: 'audit'; audit: AuditRequest; cancel: MessagePort }
  | { kind: 'settled' };
export type LighthouseThreadAnswer = AuditAnswer | null;

/** As the journeys' browser: Lighthouse's own work yields the cores to the worker's event loop. */
const THREAD_NICENESS = 10;
/** Once Chromium is killed, how long Lighthouse may take to give up, past the end of its load wait. */
const SETTLE_MS = 10_000;

/**
 * Lighthouse's thread: its audits' processing (traces, audits, the report: seconds of CPU a run)
 * runs here, so the worker's thread keeps its checks on time. One audit at a time: an ended one
 * goes on until Lighthouse gives up, and the next waits for it (Lighthouse keeps process-wide
 * state, and lab figures drift when runs compete for the CPU).
 */
if (!parentPort) throw new Error('lighthouse.thread runs as a worker thread');
try {
  // Linux names a thread's own id in /proc/thread-self; Chromium, started from here, inherits it.
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), THREAD_NICENESS);
} catch {
  // Not Linux, or not allowed: best effort.
}
let settling: Promise<unknown> = Promise.resolve();
await answerRequests<LighthouseThreadRequest, LighthouseThreadAnswer>(parentPort, async (request) => {
  await settling;
  if (request.kind === 'settled') return { answer: null };
  const cancel = new AbortController();
  request.cancel.once('message', () => cancel.abort());
  try {
    const { answer, audit } = await auditPage(request.audit, cancel.signal);
    settling = audit
      ? untilAborted(audit, AbortSignal.timeout(request.audit.loadWaitMs + SETTLE_MS)).catch(() => undefined)
      : Promise.resolve();
    return { answer };
  } finally {
    request.cancel.close();
  }
});
