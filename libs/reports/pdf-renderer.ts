import { type Browser, chromium } from 'playwright-core';
import { OrganizationShare } from '../fair-share/index.js';
import type { Logger } from '../logging/index.js';
import { descendantsOf, lowerPriorityOfNewChildren } from '../runtime/index.js';
import type { PaperSize } from './report-html.js';

/** Pages printed at once, and printed reports that may wait for one (past that: 503, retry). */
const PRINTING_AT_ONCE = 2;
const WAITING_AT_MOST = 20;
/** A print of a large report (200 websites) takes about this long: Retry-After before any is timed. */
const TYPICAL_PRINT_MS = 3_000;
/** A report not printed within this is given up (and its page closed). */
const PRINT_TIMEOUT_MS = 30_000;
/** Chromium's processes run at this niceness (0 is the API's): below the API's own requests. */
const PRINTER_NICENESS = 10;

/**
 * Reports as PDF, printed by headless Chromium from their HTML: the same page the app shows, its
 * charts vector, its text selectable. One browser per process, started at the first report and
 * reused (started again if it dies); at most two pages at once, each in its own context with
 * JavaScript off and the network cut (the page is self-contained). Its queue is served in turn
 * across organizations, and one organization has at most `perOrganization` reports in it (429
 * past that), so one filling it makes another's report wait for one print more at most.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | null = null;
  private readonly printing: OrganizationShare;

  constructor(
    private readonly options: {
      executablePath: string;
      logger: Logger;
      /** PDFS_PER_ORGANIZATION: printing or waiting. */
      perOrganization: number;
    },
  ) {
    this.printing = new OrganizationShare({
      name: 'PDFs',
      perOrganization: options.perOrganization,
      capacity: PRINTING_AT_ONCE,
      maxWaiting: WAITING_AT_MOST,
      resource: 'the report printer',
      typicalMs: TYPICAL_PRINT_MS,
    });
  }

  private start(): Promise<Browser> {
    if (!this.browser) {
      const before = descendantsOf(process.pid);
      const launching = chromium
        .launch({
          executablePath: this.options.executablePath,
          // Root in containers has no user namespaces for Chromium's sandbox.
          args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
        })
        .then((browser) => {
          // Printing is CPU-heavy and can wait a moment; the API's requests should not wait for it.
          lowerPriorityOfNewChildren(before, PRINTER_NICENESS);
          return browser;
        });
      this.browser = launching;
      launching.then(
        (browser) =>
          browser.on('disconnected', () => {
            this.options.logger.warn(
              'the report printer (Chromium) stopped; the next report starts it again',
            );
            if (this.browser === launching) this.browser = null;
          }),
        (error: unknown) => {
          this.options.logger.error(
            {
              err: error instanceof Error ? error.message : String(error),
              executablePath: this.options.executablePath,
            },
            'the report printer (Chromium) did not start: set CHROMIUM_PATH',
          );
          if (this.browser === launching) this.browser = null;
        },
      );
    }
    return this.browser;
  }

  /** Throws the refusal (429, or 503 when the queue is full) a print asked for now would get: asked before its report is built. */
  assertRoom(organizationId: number): void {
    this.printing.assertRoom(organizationId);
  }

  /**
   * The page printed on `paper`, backgrounds and all, in the organization's turn; given up (its
   * page closed) after PRINT_TIMEOUT_MS.
   */
  render(html: string, paper: PaperSize, organizationId: number): Promise<Buffer> {
    return this.printing.run(organizationId, async () => {
      const browser = await this.start();
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      let timer: NodeJS.Timeout | undefined;
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(PRINT_TIMEOUT_MS);
        // page.pdf has no timeout of its own: closing the context ends a print that runs too long.
        const expired = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            void context.close().catch(() => undefined);
            reject(new Error(`the report did not print within ${PRINT_TIMEOUT_MS / 1000} s`));
          }, PRINT_TIMEOUT_MS);
        });
        const printed = (async () => {
          await page.setContent(html, { waitUntil: 'load' });
          return page.pdf({ format: paper, printBackground: true, preferCSSPageSize: true });
        })();
        return await Promise.race([printed, expired]);
      } finally {
        clearTimeout(timer);
        await context.close().catch(() => undefined);
      }
    });
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => null);
    this.browser = null;
    await browser?.close().catch(() => undefined);
  }
}
