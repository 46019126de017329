import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logging/index.js';
import { answerRequests } from '../runtime/index.js';
import { ChromiumPrinter, PRINTER_NICENESS } from './chromium-printer.js';
import type { PrintAnswer, PrinterThreadData, PrintRequest } from './pdf-renderer.js';

/**
 * The report printer's thread (see PdfRenderer): playwright's client of Chromium runs here, so the
 * report's HTML going out and the PDF coming back (multi-MB JSON messages, the PDF base64-encoded)
 * are encoded, decoded and written on this thread, not the API's.
 */
if (!parentPort) throw new Error('chromium-printer.thread runs as a worker thread');
// This thread's share of a print (the PDF's JSON and base64, the HTML sent) yields to the API's
// thread as Chromium does; Chromium, started from here, inherits it. Linux names a thread's own
// id in /proc/thread-self; elsewhere the thread keeps the process's priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), PRINTER_NICENESS);
} catch {
  // Not Linux, or not allowed: best effort.
}
const { executablePath, printTimeoutMs, logLevel, logFormat } = workerData as PrinterThreadData;
const logger = createLogger('printer', logLevel, logFormat === 'pretty' ? 'pretty' : undefined);
const printer = new ChromiumPrinter({ executablePath, logger, printTimeoutMs });
await answerRequests<PrintRequest, PrintAnswer>(parentPort, async ({ html, paper }) => {
  const printed = await printer.print(html, paper);
  // A PDF's bytes have an ArrayBuffer of their own (Node pools only small buffers): it moves to
  // the API's thread as it is; a view into a larger one is copied out first.
  const pdf =
    printed.buffer instanceof ArrayBuffer &&
    printed.byteOffset === 0 &&
    printed.byteLength === printed.buffer.byteLength
      ? printed.buffer
      : new Uint8Array(printed).buffer;
  return { answer: { pdf }, transfer: [pdf] };
});
await printer.close();
