import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Where browser tests write their screenshots (kept after the run, ignored by git). */
export const SCREENSHOTS = join('artifacts', 'screenshots');

/**
 * Debian's chromium (scripts/setup.sh installs it; CHROMIUM_PATH names another), driven by
 * playwright-core: no browser is ever downloaded.
 */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Root in CI containers has no user namespaces for Chromium's sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}
