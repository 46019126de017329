import { type Browser, chromium } from 'playwright-core';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { descendantsOf, lowerPriorityOfNewChildren } from '../runtime/index.js';
import type { PaperSize } from './report-style.js';

/** Chromium's processes run at this niceness (0 is the API's): below the API's own requests. */
export const PRINTER_NICENESS = 10;

/**
 * Pages printed as PDF by headless Chromium, in the printer's thread (see PdfRenderer): one
 * browser, started at the first print and reused (started again if it dies); each page in its own
 * context with JavaScript off and the network cut (the page is self-contained).
 */
export class ChromiumPrinter {
  private browser: Promise<Browser> | null = null;
  /** This process's children before Chromium started: the ones that are not Chromium's. */
  private notChromium: ReadonlySet<number> = new Set();

  constructor(
    private readonly options: {
      executablePath: string;
      logger: Logger;
      /** A page not printed within this is given up (and closed). */
      printTimeoutMs: number;
    },
  ) {}

  private start(): Promise<Browser> {
    if (!this.browser) {
      const before = descendantsOf(process.pid);
      this.notChromium = before;
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
            // Not when closed on purpose: `close` lets go of it first.
            if (this.browser !== launching) return;
            this.options.logger.warn(
              'the report printer (Chromium) stopped; the next report starts it again',
            );
            this.browser = null;
          }),
        (error: unknown) => {
          this.options.logger.error(
            {
              err: errorMessage(error),
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

  /** The page printed on `paper`, backgrounds and all; given up (its page closed) after `printTimeoutMs`. */
  async print(html: string, paper: PaperSize): Promise<Buffer> {
    const { printTimeoutMs } = this.options;
    const browser = await this.start();
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const page = await context.newPage();
      // Chromium sets its renderers' priority itself (0, or 5 in the background) as it starts
      // them, the page's included: it is put back below the API's.
      lowerPriorityOfNewChildren(this.notChromium, PRINTER_NICENESS);
      page.setDefaultTimeout(printTimeoutMs);
      // page.pdf has no timeout of its own: closing the context ends a print that runs too long.
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void context.close().catch(() => undefined);
          reject(new Error(`the report did not print within ${printTimeoutMs / 1000} s`));
        }, printTimeoutMs);
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
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => null);
    this.browser = null;
    await browser?.close().catch(() => undefined);
  }
}
