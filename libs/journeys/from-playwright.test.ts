import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserJourney } from './browser-journey.schema.js';
import { fromPlaywright } from './from-playwright.js';

/** A recorded test as checked in (`.txt`: kept exactly as codegen wrote it, out of tsc's and biome's way). */
const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/playwright/${name}`, import.meta.url), 'utf8');

const role = (name: string, kind = 'button') => ({ by: 'role', role: kind, name });

describe('fromPlaywright: recorded tests as codegen writes them', () => {
  it('converts a Playwright Test file (TypeScript): sign in, search, basket, checkout', () => {
    const converted = fromPlaywright(fixture('shop-checkout.spec.ts.txt'));
    expect(converted.steps).toEqual([
      { action: 'goto', url: 'http://localhost:4173/' },
      { action: 'click', locator: { ...role('Sign in', 'link'), exact: true } },
      { action: 'click', locator: { by: 'label', text: 'Email' } },
      { action: 'fill', locator: { by: 'label', text: 'Email' }, value: 'ada@shop.example' },
      { action: 'press', locator: { by: 'label', text: 'Email' }, key: 'Tab' },
      { action: 'fill', locator: { by: 'label', text: 'Password' }, value: '{{secret.PASSWORD}}' },
      { action: 'click', locator: role('Sign in') },
      { action: 'expect', that: 'visible', locator: { by: 'text', text: 'Welcome back, Ada' } },
      { action: 'click', locator: { by: 'placeholder', text: 'Search products' } },
      { action: 'fill', locator: { by: 'placeholder', text: 'Search products' }, value: 'teapot' },
      { action: 'press', locator: { by: 'placeholder', text: 'Search products' }, key: 'Enter' },
      { action: 'click', locator: { by: 'css', selector: '.product-card', nth: 1 } },
      { action: 'select', locator: { by: 'role', role: 'combobox' }, value: '2' },
      { action: 'click', locator: { by: 'testId', id: 'add-to-basket' } },
      {
        action: 'expect',
        that: 'text',
        locator: { by: 'testId', id: 'basket-count' },
        text: { contains: '2' },
      },
      { action: 'click', locator: role('Basket', 'link') },
      { action: 'click', locator: role('Remove teapot') },
      { action: 'check', locator: role('I accept the terms', 'checkbox'), checked: true },
      { action: 'click', locator: role('Checkout') },
      {
        action: 'expect',
        that: 'text',
        locator: { by: 'css', selector: 'h1' },
        text: { contains: 'Checkout' },
      },
    ]);
    expect(converted.options).toEqual({ secrets: { PASSWORD: 'correct horse battery' } });
    expect(converted.unconverted).toEqual([
      {
        line: 20,
        text: expect.stringMatching(/^page\.once\('dialog', dialog => \{\n[\s\S]*\}\);$/),
        reason: expect.stringMatching(/^an event handler does not convert/),
      },
    ]);
  });

  it('converts the library script (JavaScript): its context options, and names the popup lines', () => {
    const converted = fromPlaywright(fixture('shop-search.js.txt'));
    const search = role('Search', 'searchbox');
    expect(converted.steps).toEqual([
      { action: 'goto', url: 'http://localhost:4173/search' },
      { action: 'click', locator: search },
      { action: 'fill', locator: search, value: 'kettle' },
      { action: 'press', locator: search, key: 'Enter' },
      { action: 'click', locator: { by: 'text', text: '3 results', exact: true } },
      { action: 'check', locator: role('In stock only', 'checkbox'), checked: true },
      { action: 'check', locator: role('Gift wrap', 'checkbox'), checked: false },
      { action: 'select', locator: { by: 'label', text: 'Sort by' }, value: 'price-asc' },
      { action: 'hover', locator: { ...role('Kettle', 'img'), nth: 0 } },
      { action: 'click', locator: { by: 'css', selector: '#results li', nth: 2 }, clickCount: 2 },
      { action: 'click', locator: role('Datasheet', 'link') },
    ]);
    expect(converted.options).toEqual({ locale: 'de-DE', timezone: 'Europe/Berlin' });
    expect(converted.unconverted.map(({ line, text }) => [line, text])).toEqual([
      [22, "const page1Promise = page.waitForEvent('popup');"],
      [24, 'const page1 = await page1Promise;'],
      [25, "await page1.getByRole('button', { name: 'Print' }).click();"],
    ]);
    expect(converted.unconverted[2]?.reason).toMatch(/acts on page1, not the page/);
  });

  it('converts a recorded then edited test: device, assertions, screenshot; names what does not convert', () => {
    const converted = fromPlaywright(fixture('contact-form.spec.ts.txt'));
    expect(converted.options).toEqual({ device: 'phone', locale: 'en-GB', timezone: 'Europe/London' });
    expect(converted.steps.slice(4)).toEqual([
      { action: 'waitFor', until: 'url', url: { matches: '^.*/contact/thanks$' } },
      { action: 'expect', that: 'url', url: { matches: '\\/contact\\/thanks$' } },
      { action: 'expect', that: 'title', title: { equals: 'Thank you | Shop' } },
      {
        action: 'expect',
        that: 'count',
        locator: { by: 'css', selector: '.confirmation li' },
        op: 'equals',
        count: 2,
      },
      {
        action: 'expect',
        that: 'attribute',
        locator: role('Back to shop', 'link'),
        attribute: 'href',
        value: { equals: '/' },
      },
      { action: 'expect', that: 'hidden', locator: { by: 'text', text: 'Something went wrong' } },
      { action: 'screenshot', name: 'thanks', fullPage: true },
    ]);
    expect(converted.unconverted).toEqual([
      expect.objectContaining({
        line: 13,
        reason: expect.stringMatching(/^a file on the recording machine/),
      }),
      expect.objectContaining({ line: 14, reason: expect.stringMatching(/^\.filter\(\) does not convert/) }),
    ]);
  });

  it.each(['shop-checkout.spec.ts.txt', 'shop-search.js.txt', 'contact-form.spec.ts.txt'])(
    '%s converts to a journey that is taken as written',
    (name) => {
      const { steps, options } = fromPlaywright(fixture(name));
      expect(browserJourney.safeParse({ steps, ...options }).success).toBe(true);
    },
  );
});

/** The one statement a snippet of a test's lines converts to (or why not). */
function one(statement: string) {
  const { steps, unconverted } = fromPlaywright(statement);
  return unconverted[0] ? unconverted[0].reason : steps[0];
}

describe('fromPlaywright: one statement', () => {
  it.each<[string, unknown]>([
    [
      "await page.goto('https://shop.example/', { timeout: 20000 });",
      { action: 'goto', url: 'https://shop.example/', timeoutMs: 20_000 },
    ],
    ["await page.keyboard.press('Control+A');", { action: 'press', key: 'Control+A' }],
    [
      "await page.getByTitle('Close').click({ button: 'right' });",
      { action: 'click', locator: { by: 'title', text: 'Close' }, button: 'right' },
    ],
    [
      "await page.getByAltText('Logo').last().click();",
      { action: 'click', locator: { by: 'altText', text: 'Logo', nth: -1 } },
    ],
    [
      "await page.locator('css=#q').clear();",
      { action: 'fill', locator: { by: 'css', selector: '#q' }, value: '' },
    ],
    [
      "await page.getByLabel('Sizes').selectOption(['S', 'M']);",
      { action: 'select', locator: { by: 'label', text: 'Sizes' }, values: ['S', 'M'] },
    ],
    [
      "await page.getByRole('switch').setChecked(false);",
      { action: 'check', locator: { by: 'role', role: 'switch' }, checked: false },
    ],
    [
      "await page.getByText('Loading').waitFor({ state: 'hidden' });",
      { action: 'waitFor', until: 'element', locator: { by: 'text', text: 'Loading' }, state: 'hidden' },
    ],
    ["await page.waitForLoadState('networkidle');", { action: 'waitFor', until: 'networkIdle' }],
    [
      "await page.waitForSelector('#done', { state: 'attached' });",
      { action: 'waitFor', until: 'element', locator: { by: 'css', selector: '#done' }, state: 'attached' },
    ],
    [
      "await page.waitForURL('https://shop.example/basket');",
      { action: 'waitFor', until: 'url', url: { equals: 'https://shop.example/basket' } },
    ],
    [
      'await expect(page).toHaveTitle(/teapots?/i);',
      { action: 'expect', that: 'title', title: { matches: '(?i)teapots?' } },
    ],
    [
      "await expect(page.getByRole('alert')).toBeHidden({ timeout: 5000 });",
      { action: 'expect', that: 'hidden', locator: { by: 'role', role: 'alert' }, timeoutMs: 5000 },
    ],
    [
      "await expect(page.getByRole('alert')).not.toBeHidden();",
      { action: 'expect', that: 'visible', locator: { by: 'role', role: 'alert' } },
    ],
    [
      "await expect(page.getByLabel('Email')).toHaveValue('ada@shop.example');",
      {
        action: 'expect',
        that: 'value',
        locator: { by: 'label', text: 'Email' },
        value: { equals: 'ada@shop.example' },
      },
    ],
    [
      "await expect(page.getByRole('heading')).toHaveText(/^Order \\d+$/);",
      {
        action: 'expect',
        that: 'text',
        locator: { by: 'role', role: 'heading' },
        text: { matches: '^Order \\d+$' },
      },
    ],
    [
      "await expect(page.getByRole('checkbox')).not.toBeChecked();",
      { action: 'expect', that: 'checked', locator: { by: 'role', role: 'checkbox' }, checked: false },
    ],
    [
      "await expect(page.locator('li')).not.toHaveCount(0);",
      { action: 'expect', that: 'count', locator: { by: 'css', selector: 'li' }, op: 'notEquals', count: 0 },
    ],
    [
      "await expect(page.getByRole('button')).toHaveAttribute('disabled');",
      { action: 'expect', that: 'attribute', locator: { by: 'role', role: 'button' }, attribute: 'disabled' },
    ],
    [
      "await (page.getByRole('button', { name: 'Buy' }) as Locator).click();",
      { action: 'click', locator: { by: 'role', role: 'button', name: 'Buy' } },
    ],
  ])('%s', (statement, expected) => {
    expect(one(statement)).toEqual(expected);
  });

  it.each([
    ['await page.waitForTimeout(1000);', /^a fixed wait does not convert/],
    [
      "await page.getByRole('button', { name: /buy/i }).click();",
      /^a name as a regular expression does not convert/,
    ],
    ["await page.getByRole('button').click({ force: true });", /^the option force does not convert/],
    ["await page.locator('//button').click();", /^only CSS selectors convert/],
    ["await page.locator('button:hovr').click();", /^locator\.selector: Must be a CSS selector/],
    ["await page.getByRole('buton').click();", /^locator\.role: Must be an ARIA role/],
    [
      "await page.getByRole('row').getByRole('button').click();",
      /^\.getByRole\(\) does not convert: a step finds its element with one locator/,
    ],
    ["await page.getByLabel('Email').fill(email);", /^the value is not a text as written/],
    ["await page.getByLabel('Email').type('ada');", /^\.type\(\) does not convert/],
    ["await expect.soft(page.getByText('Hi')).toBeVisible();", /^expect\.soft\(\) does not convert/],
    ["await expect(page.getByText('Hi')).toBeEnabled();", /^\.toBeEnabled\(\) does not convert/],
    ["await expect(page).not.toHaveURL('https://shop.example/');", /^\.not\.toHaveURL\(\) does not convert/],
    ["await page.keyboard.type('hello');", /^only page\.keyboard\.press\(\) converts/],
    ['await page.evaluate(() => localStorage.clear());', /^page\.evaluate\(\) does not convert/],
    ["console.log('done');", /^it acts on console, not the page/],
    ['if (ok) { await page.reload(); }', /^only calls on the page convert/],
    ["test.use({ colorScheme: 'dark' });", /^the option colorScheme does not convert/],
    ["test.use({ ...devices['iPad Pro 11'] });", /^the device iPad Pro 11 does not convert/],
    ["test.use({ locale: 'nope nope' });", /^its locale: Must be a language tag/],
  ])('%s: does not convert', (statement, reason) => {
    expect(one(statement)).toMatch(reason);
  });

  it('converts a test with TypeScript types and names a second test', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      "test('first', async ({ page }: { page: Page }) => {",
      "  const url: string = 'https://shop.example/';",
      "  await page.goto('https://shop.example/');",
      '});',
      "test('second', async ({ page }) => {",
      "  await page.goto('https://other.example/');",
      '});',
    ].join('\n');
    const converted = fromPlaywright(code);
    expect(converted.steps).toEqual([{ action: 'goto', url: 'https://shop.example/' }]);
    expect(converted.unconverted.map((line) => [line.line, line.reason])).toEqual([
      [3, expect.stringMatching(/^a variable does not convert/)],
      [6, expect.stringMatching(/^a second test does not convert/)],
    ]);
  });

  it('returns the syntax errors of a test that does not parse, with their lines', () => {
    const converted = fromPlaywright(
      "test('x', async ({ page }) => {\n  await page.goto('https://a.example/';\n});",
    );
    expect(converted.steps).toEqual([]);
    expect(converted.unconverted).toEqual([
      {
        line: 2,
        text: "await page.goto('https://a.example/';",
        reason: expect.stringMatching(/^Must be JavaScript or TypeScript: /),
      },
    ]);
  });

  it('takes the same password typed twice as one secret, another as a second', () => {
    const converted = fromPlaywright(
      [
        "await page.getByLabel('Password').fill('s3cret!');",
        "await page.getByLabel('Repeat password').fill('s3cret!');",
        "await page.locator('input[type=password]').fill('other-one');",
        "await page.getByLabel('Name').fill('s3cret!');",
      ].join('\n'),
    );
    expect(converted.steps.map((step) => (step.action === 'fill' ? step.value : null))).toEqual([
      '{{secret.PASSWORD}}',
      '{{secret.PASSWORD}}',
      '{{secret.PASSWORD_2}}',
      's3cret!',
    ]);
    expect(converted.options.secrets).toEqual({ PASSWORD: 's3cret!', PASSWORD_2: 'other-one' });
  });

  it('converts at most 50 steps and names the rest', () => {
    const code = Array.from({ length: 52 }, (_, i) => `await page.goto('https://shop.example/${i}');`).join(
      '\n',
    );
    const converted = fromPlaywright(code);
    expect(converted.steps).toHaveLength(50);
    expect(converted.unconverted.map((line) => line.line)).toEqual([51, 52]);
  });
});
