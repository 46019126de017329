import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { TEST_PASSWORD } from './people.js';

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

/** axe-core's own file, injected into pages (nothing downloaded). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now, as
 * `rule: target` lines (empty when none). Evaluated through the browser's debugger protocol, so
 * the page's own CSP (no inline script) needs no exception.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
  })))`)) as Array<{ id: string; impact: string | null; targets: string[] }>;
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/** Saves a full-page screenshot at artifacts/screenshots/app-<name>.png and answers the page's serious accessibility violations. */
export async function lookedAt(page: Page, name: string): Promise<string[]> {
  await page.screenshot({ path: join(SCREENSHOTS, `app-${name}.png`), fullPage: true });
  return seriousAxeViolations(page);
}

/** True when the page is no wider than the window (nothing scrolls sideways). */
export async function fitsTheWidth(page: Page): Promise<boolean> {
  return (await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')) as boolean;
}

/**
 * The labels of stacked table cells (a table read on a phone) taller than their cell: such a label
 * runs into the next row. Answers each as "label: value" so a failure names the cell.
 */
export async function labelsOutgrowingTheirCells(page: Page): Promise<string[]> {
  return (await page.evaluate(`[...document.querySelectorAll('table.stack td[data-label]')]
    .filter((cell) => cell.offsetParent !== null)
    .filter((cell) => {
      const style = getComputedStyle(cell);
      const content = cell.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
      // Not a number (a label not laid out as a box) counts as outgrowing: the check must measure.
      return !(parseFloat(getComputedStyle(cell, '::before').height) <= content + 1);
    })
    .slice(0, 5)
    .map((cell) => cell.dataset.label + ': ' + cell.textContent.trim().slice(0, 40))`)) as string[];
}

/**
 * Signs in through the app's own form at `base` (`next`: where the app should go after). The
 * caller waits for what the page it expects shows.
 */
export async function signInThroughForm(
  page: Page,
  base: string,
  email: string,
  options: { password?: string; next?: string } = {},
): Promise<void> {
  await page.goto(`${base}/sign-in${options.next ? `?next=${options.next}` : ''}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(options.password ?? TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
