import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logging/index.js';
import { answerRequests } from '../runtime/index.js';
import { ChromiumPrinter, PRINTER_NICENESS } from './chromium-printer.js';
import type { PrintAnswer, PrinterThreadData, PrintRequest, ReportPage } from './pdf-renderer.js';
import { reportHtml } from './report-html.js';
import type { PaperSize } from './report-style.js';

/**
 * The report printer's thread (see PdfRenderer): the report's page is rendered here, and
 * playwright's client of Chromium runs here, so the report's HTML going out and the PDF coming back
 * (multi-MB JSON messages, the PDF base64-encoded) are encoded, decoded and written on this thread,
 * not the API's.
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
const htmlOf = (page: ReportPage, paper: PaperSize) =>
  'html' in page ? page.html : reportHtml(page.report, page.branding, paper);
/** Bytes of their own (Node pools only small buffers) move to the API's thread as they are; a view into a larger buffer is copied out first. */
const movable = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer instanceof ArrayBuffer &&
  bytes.byteOffset === 0 &&
  bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : new Uint8Array(bytes).buffer;
await answerRequests<PrintRequest, PrintAnswer>(parentPort, async ({ output, page, paper }) => {
  const html = htmlOf(page, paper);
  const bytes = movable(output === 'html' ? Buffer.from(html) : await printer.print(html, paper));
  return { answer: { bytes }, transfer: [bytes] };
});
await printer.close();
