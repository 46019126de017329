import type { Page, Locator as PlaywrightLocator } from 'playwright-core';
import { isHttpUrl } from './journey-options.schema.js';
import type { CountOperator, JourneyStep, Locator, StepOf } from './journey-steps.schema.js';
import { describeMatch, matchesText, type TextMatch } from './text-match.js';

/* How each step of a journey is played on a page (I/O: playwright-core), and how a step reads in a run. */

/** A step that did not do what it says, in words a person acts on (never Playwright's call log). */
export class StepFailed extends Error {
  override name = 'StepFailed';
}

/** How often an `expect` step reads the page again until it holds or its timeout passes. */
const POLL_MS = 100;

type Role = Parameters<Page['getByRole']>[0];

/** The element(s) a locator names on the page, `nth` picked. */
export function located(page: Page, locator: Locator): PlaywrightLocator {
  const found = (() => {
    switch (locator.by) {
      case 'role':
        return page.getByRole(locator.role as Role, {
          ...(locator.name === undefined ? {} : { name: locator.name }),
          ...(locator.exact === undefined ? {} : { exact: locator.exact }),
        });
      case 'label':
        return page.getByLabel(locator.text, { exact: locator.exact ?? false });
      case 'text':
        return page.getByText(locator.text, { exact: locator.exact ?? false });
      case 'placeholder':
        return page.getByPlaceholder(locator.text, { exact: locator.exact ?? false });
      case 'altText':
        return page.getByAltText(locator.text, { exact: locator.exact ?? false });
      case 'title':
        return page.getByTitle(locator.text, { exact: locator.exact ?? false });
      case 'testId':
        return page.getByTestId(locator.id);
      case 'css':
        return page.locator(locator.selector);
    }
  })();
  if (locator.nth === undefined) return found;
  return locator.nth === -1 ? found.last() : found.nth(locator.nth);
}

/** A locator as a step's outcome names it: `button "Add to basket"`, `label "Email"`, `css #cart`. */
export function describeLocator(locator: Locator): string {
  const which =
    locator.nth === undefined ? '' : locator.nth === -1 ? ' (the last)' : ` (no. ${locator.nth + 1})`;
  switch (locator.by) {
    case 'role':
      return `${locator.role}${locator.name === undefined ? '' : ` ${JSON.stringify(locator.name)}`}${which}`;
    case 'testId':
      return `test id ${JSON.stringify(locator.id)}${which}`;
    case 'css':
      return `css ${locator.selector}${which}`;
    case 'altText':
      return `alt text ${JSON.stringify(locator.text)}${which}`;
    default:
      return `${locator.by} ${JSON.stringify(locator.text)}${which}`;
  }
}

/** What a step does, in a few words (its own name when it has one): the cause an incident shows. */
export function describeStep(step: JourneyStep): string {
  if (step.name) return step.name;
  switch (step.action) {
    case 'goto':
      return `go to ${step.url}`;
    case 'fill':
      return `fill ${describeLocator(step.locator)}`;
    case 'press':
      return `press ${step.key}${step.locator ? ` in ${describeLocator(step.locator)}` : ''}`;
    case 'waitFor':
      if (step.until === 'element') return `wait for ${describeLocator(step.locator)} (${step.state})`;
      if (step.until === 'text') return `wait for the text ${JSON.stringify(step.text)}`;
      if (step.until === 'url') return `wait for the URL ${toBe(step.url)}`;
      return 'wait for the network to settle';
    case 'expect':
      return `expect ${expectation(step)}`;
    case 'screenshot':
      return `screenshot ${step.name}`;
    default:
      return `${step.action} ${describeLocator(step.locator)}`;
  }
}

/** A match as what is expected of a text: "to equal \"Shop\"", "to contain …", "to match /…/". */
function toBe(match: TextMatch): string {
  return `to ${describeMatch(match).replace(/^(equals|contains|matches)/, (verb) => verb.slice(0, -1))}`;
}

function expectation(step: StepOf<'expect'>): string {
  switch (step.that) {
    case 'url':
      return `the URL ${toBe(step.url)}`;
    case 'title':
      return `the title ${toBe(step.title)}`;
    case 'visible':
    case 'hidden':
      return `${describeLocator(step.locator)} ${step.that}`;
    case 'text':
      return `${describeLocator(step.locator)}'s text ${toBe(step.text)}`;
    case 'value':
      return `${describeLocator(step.locator)}'s value ${toBe(step.value)}`;
    case 'checked':
      return `${describeLocator(step.locator)} ${step.checked ? 'checked' : 'unchecked'}`;
    case 'count':
      return `${describeLocator(step.locator)} count ${step.op} ${step.count}`;
    case 'attribute':
      return `${describeLocator(step.locator)} [${step.attribute}]${step.value ? ` ${toBe(step.value)}` : ''}`;
  }
}

const COUNT_HOLDS: Record<CountOperator, (seen: number, wanted: number) => boolean> = {
  equals: (seen, wanted) => seen === wanted,
  notEquals: (seen, wanted) => seen !== wanted,
  atLeast: (seen, wanted) => seen >= wanted,
  atMost: (seen, wanted) => seen <= wanted,
  greaterThan: (seen, wanted) => seen > wanted,
  lessThan: (seen, wanted) => seen < wanted,
};

/**
 * Reads the page until `holds(value)` or the timeout: an expectation holds once, as a person
 * waiting for the page would see it. Fails naming what was last seen.
 */
async function until<T>(
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  timeoutMs: number,
  failure: (last: T | undefined) => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (holds(last)) return;
    } catch {
      // Not there yet (a detached element, a navigation under way): read again.
    }
    if (Date.now() >= deadline) throw new StepFailed(failure(last));
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))),
    );
  }
}

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value)?.slice(0, 200));

/** Reads an element's value with a short timeout of its own (polled by `until`). */
const quick = { timeout: 1000 };

async function expectOn(page: Page, step: StepOf<'expect'>, timeoutMs: number): Promise<void> {
  const matching = (match: TextMatch) => (text: string | null) => text !== null && matchesText(match, text);
  switch (step.that) {
    case 'url':
      return until(
        () => Promise.resolve(page.url()),
        matching(step.url),
        timeoutMs,
        (last) => `the URL was ${shown(last)}`,
      );
    case 'title':
      return until(
        () => page.title(),
        matching(step.title),
        timeoutMs,
        (last) => `the title was ${shown(last)}`,
      );
    case 'visible':
      await located(page, step.locator).waitFor({ state: 'visible', timeout: timeoutMs });
      return;
    case 'hidden':
      await located(page, step.locator).waitFor({ state: 'hidden', timeout: timeoutMs });
      return;
    case 'text': {
      const element = located(page, step.locator);
      return until(
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator, not a DOM node: the text as rendered, as a person reads it
        () => element.innerText(quick),
        matching(step.text),
        timeoutMs,
        (last) => `its text was ${shown(last)}`,
      );
    }
    case 'value': {
      const element = located(page, step.locator);
      return until(
        () => element.inputValue(quick),
        matching(step.value),
        timeoutMs,
        (last) => `its value was ${shown(last)}`,
      );
    }
    case 'checked': {
      const element = located(page, step.locator);
      return until(
        () => element.isChecked(quick),
        (checked) => checked === step.checked,
        timeoutMs,
        (last) => (last === undefined ? 'it was not found' : `it was ${last ? 'checked' : 'unchecked'}`),
      );
    }
    case 'count': {
      const elements = located(page, step.locator);
      return until(
        () => elements.count(),
        (count) => COUNT_HOLDS[step.op](count, step.count),
        timeoutMs,
        (last) => `${last ?? 0} found`,
      );
    }
    case 'attribute': {
      const element = located(page, step.locator);
      const { value } = step;
      return until(
        () => element.getAttribute(step.attribute, quick),
        (seen) => seen !== null && (value === undefined || matchesText(value, seen)),
        timeoutMs,
        (last) =>
          last === null || last === undefined ? 'it has no such attribute' : `it was ${shown(last)}`,
      );
    }
  }
}

/** A screenshot a step took, PNG. */
export interface TakenScreenshot {
  name: string;
  png: Buffer;
}

/**
 * Plays one step on the page within `timeoutMs`. A step that does not do what it says throws: a
 * `StepFailed` in our words, or Playwright's own error (the runner keeps its first line).
 */
export async function playStep(
  page: Page,
  step: JourneyStep,
  timeoutMs: number,
): Promise<TakenScreenshot | null> {
  const timeout = { timeout: timeoutMs };
  switch (step.action) {
    case 'goto': {
      // Checked again as filled: only the web is visited (never file:, chrome:, view-source: …).
      if (!isHttpUrl(step.url)) throw new StepFailed('only http(s) pages may be visited');
      const answer = await page.goto(step.url, { ...timeout, waitUntil: 'load' });
      // A document that answered an error is the journey's failure, as a person would see it.
      if (answer && answer.status() >= 400) throw new StepFailed(`the page answered ${answer.status()}`);
      return null;
    }
    case 'click':
      await located(page, step.locator).click({
        ...timeout,
        ...(step.button ? { button: step.button } : {}),
        ...(step.clickCount ? { clickCount: step.clickCount } : {}),
      });
      return null;
    case 'fill':
      await located(page, step.locator).fill(step.value, timeout);
      return null;
    case 'select':
      await located(page, step.locator).selectOption(step.values ?? step.value ?? [], timeout);
      return null;
    case 'check':
      await located(page, step.locator).setChecked(step.checked, timeout);
      return null;
    case 'press':
      if (step.locator) await located(page, step.locator).press(step.key, timeout);
      else await page.keyboard.press(step.key);
      return null;
    case 'hover':
      await located(page, step.locator).hover(timeout);
      return null;
    case 'upload':
      await located(page, step.locator).setInputFiles(
        {
          name: step.file.name,
          mimeType: step.file.mimeType,
          buffer: Buffer.from(step.file.contentBase64, 'base64'),
        },
        timeout,
      );
      return null;
    case 'waitFor':
      if (step.until === 'element')
        await located(page, step.locator).waitFor({ ...timeout, state: step.state });
      else if (step.until === 'text')
        await page
          .getByText(step.text, { exact: step.exact ?? false })
          .first()
          .waitFor(timeout);
      else if (step.until === 'url') {
        const { url } = step;
        await page.waitForURL((seen) => matchesText(url, seen.href), timeout);
      } else await page.waitForLoadState('networkidle', timeout);
      return null;
    case 'expect':
      await expectOn(page, step, timeoutMs);
      return null;
    case 'screenshot':
      return {
        name: step.name,
        png: await page.screenshot({ ...timeout, type: 'png', fullPage: step.fullPage }),
      };
  }
}
