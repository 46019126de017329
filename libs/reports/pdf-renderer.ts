import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../config/index.js';
import { OrganizationShare } from '../fair-share/index.js';
import { RequestThread } from '../runtime/index.js';
import type { ReportBranding } from './report-html.js';
import type { PaperSize } from './report-style.js';
import type { ClientReport } from './report-view.js';

/** Pages printed at once, and printed reports that may wait for one (past that: 503, retry). */
const PRINTING_AT_ONCE = 2;
const WAITING_AT_MOST = 20;
/** A print of a large report (200 websites) takes about this long: Retry-After before any is timed. */
const TYPICAL_PRINT_MS = 3_000;
/** A report not printed within this is given up (and its page closed). */
const PRINT_TIMEOUT_MS = 30_000;
/**
 * A printer thread silent for this long is stuck, and replaced: past a print's own timeout and
 * Chromium's start (playwright gives that as long again).
 */
const PRINTER_SILENT_MS = 2 * PRINT_TIMEOUT_MS + 10_000;
/** The printer thread's entry, compiled as this file is (`.ts` from the sources, `.js` in builds). */
const PRINTER_THREAD = new URL(
  `./chromium-printer.thread${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

/**
 * A report's page: its HTML as already made, or the report and its branding, rendered to HTML on
 * the printer's thread (200 websites' page is ~150 ms of rendering, kept off the API's thread).
 */
export type ReportPage = { html: string } | { report: ClientReport; branding: ReportBranding };

/** What the API's thread asks the printer's: the page printed as PDF, or only rendered as HTML. */
export interface PrintRequest {
  output: 'pdf' | 'html';
  page: ReportPage;
  paper: PaperSize;
}

/** The PDF or the HTML (UTF-8), its bytes moved from the printer's thread, not copied. */
export interface PrintAnswer {
  bytes: ArrayBuffer;
}

/** What the printer's thread is started with. */
export interface PrinterThreadData {
  executablePath: string;
  printTimeoutMs: number;
  logLevel: AppConfig['LOG_LEVEL'];
  logFormat: AppConfig['LOG_FORMAT'];
}

/**
 * Reports as PDF, printed by headless Chromium from their HTML: the same page the app shows, its
 * charts vector, its text selectable. Chromium is driven from a thread of its own
 * (chromium-printer.thread.ts, started at the first report): playwright's client sends the
 * report's HTML and receives the PDF base64-encoded as multi-MB JSON messages, and on the API's
 * thread their encoding, decoding and pipe writes held other requests up by hundreds of
 * milliseconds; the report's page is rendered there too. The share stays here: at most two pages
 * printed at once, served in turn across organizations, one organization with at most
 * `perOrganization` reports in it (429 past that).
 */
export class PdfRenderer {
  private readonly printing: OrganizationShare;
  private readonly printer: RequestThread<PrintRequest, PrintAnswer>;

  constructor(
    options: Omit<PrinterThreadData, 'printTimeoutMs'> & {
      /** PDFS_PER_ORGANIZATION: printing or waiting. */
      perOrganization: number;
    },
  ) {
    const { perOrganization, ...thread } = options;
    this.printing = new OrganizationShare({
      name: 'PDFs',
      perOrganization,
      capacity: PRINTING_AT_ONCE,
      maxWaiting: WAITING_AT_MOST,
      resource: 'the report printer',
      typicalMs: TYPICAL_PRINT_MS,
    });
    this.printer = new RequestThread({
      entry: PRINTER_THREAD,
      workerData: { ...thread, printTimeoutMs: PRINT_TIMEOUT_MS } satisfies PrinterThreadData,
      name: 'the report printer',
      answerTimeoutMs: PRINTER_SILENT_MS,
    });
  }

  /** Throws the refusal (429, or 503 when the queue is full) a print asked for now would get: asked before its report is built. */
  assertRoom(organizationId: number): void {
    this.printing.assertRoom(organizationId);
  }

  /**
   * The page printed on `paper`, backgrounds and all, in the organization's turn; given up (its
   * page closed) after PRINT_TIMEOUT_MS.
   */
  render(page: ReportPage, paper: PaperSize, organizationId: number): Promise<Buffer> {
    return this.printing.run(organizationId, async () => {
      const { bytes } = await this.printer.ask({ output: 'pdf', page, paper });
      return Buffer.from(bytes);
    });
  }

  /** The report's page as HTML (UTF-8), rendered on the printer's thread; Chromium is not involved. */
  async html(page: Extract<ReportPage, { report: ClientReport }>, paper: PaperSize): Promise<Buffer> {
    const { bytes } = await this.printer.ask({ output: 'html', page, paper });
    return Buffer.from(bytes);
  }

  /** Lets the prints under way finish, then closes Chromium and its thread. */
  close(): Promise<void> {
    return this.printer.close();
  }
}
