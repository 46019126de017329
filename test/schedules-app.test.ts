import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRepository } from '../libs/people/index.js';
import {
  fitsTheWidth,
  labelsOutgrowingTheirCells,
  launchBrowser,
  lookedAt,
  signInThroughForm,
} from './support/browser.js';
import { TestApi } from './support/harness.js';
import { createUser } from './support/people.js';

const ZONE = 'Europe/Berlin';
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant on Berlin's clock (what a datetime-local input takes, with a time). */
const berlinDate = (at: number) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

/**
 * The on-call screens in a real browser at a phone's width: a schedule made through its editor
 * (two people taking weekly turns), an override added through its form, the calendar by week and
 * by month showing it, the person's feed link and the list's "on call now"; each screen scanned
 * for accessibility and kept as a screenshot.
 */
describe('the app in a real browser: on-call schedules', { timeout: 120_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let scheduleId: number;
  let token: string;
  const people: Record<string, { id: number; email: string }> = {};
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    const { organizationId, token: created } = await api.createOrganization(['read']);
    token = created;
    const users = new UserRepository(api.db);
    for (const [key, name] of [
      ['editor', 'Erin Editor'],
      ['alice', 'Alice Archer'],
      ['bob', 'Bob Baker'],
      ['carol', 'Carol Cole'],
    ] as const) {
      people[key] = await createUser(api, organizationId, key === 'editor' ? 'editor' : 'viewer');
      await users.update({ id: people[key]!.id, organizationId }, { name });
    }
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, people.editor!.email, { next: '/schedules' });
    await page.getByRole('heading', { level: 1, name: 'On-call schedules' }).waitFor();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const look = async (name: string) => {
    expect(await lookedAt(page, name), name).toEqual([]);
    expect(await fitsTheWidth(page), `${name} fits the width`).toBe(true);
    expect(await labelsOutgrowingTheirCells(page), name).toEqual([]);
  };

  it('creates a schedule through its editor', async () => {
    await look('schedules-empty');
    await page.getByRole('link', { name: 'Create a schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create a schedule' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Ops nights');
    await page.getByLabel('Time zone', { exact: true }).selectOption(ZONE);
    for (const key of ['alice', 'bob']) {
      await page.getByLabel('Add someone to layer 1').selectOption(String(people[key]!.id));
      await page.getByRole('button', { name: 'Add to layer 1' }).click();
    }
    await page.getByRole('button', { name: 'Move Bob Baker up' }).click();
    await page.getByLabel('Turn length').selectOption('weekly');
    await page.getByLabel('Handoff time').fill('09:00');
    // A new layer starts from a Monday already past, so that someone is on call once it is saved.
    const proposed = await page.getByLabel('Starts', { exact: true }).inputValue();
    expect(proposed.slice(0, 10) < berlinDate(Date.now())).toBe(true);
    expect(new Date(`${proposed.slice(0, 10)}T12:00:00Z`).getUTCDay()).toBe(1);
    // Two weeks back: Bob's turn first, then Alice's, so someone is on call now.
    await page.getByLabel('Starts', { exact: true }).fill(`${berlinDate(Date.now() - 14 * DAY_MS)}T09:00`);
    await look('schedule-editor');
    await page.getByRole('button', { name: 'Create the schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ops nights' }).waitFor();
    scheduleId = Number(new URL(page.url()).pathname.split('/').at(-1));
    expect(scheduleId).toBeGreaterThan(0);
    const stored = await api.request<{ layers: Array<{ participants: number[] }> }>(
      'GET',
      `/api/schedules/${scheduleId}`,
      { token },
    );
    expect(stored.body.layers[0]?.participants).toEqual([people.bob!.id, people.alice!.id]);
    await expect
      .poll(() => page.locator('dl.oncall-now').textContent())
      .toMatch(/On call now(Alice Archer|Bob Baker) until/);
  });

  it('adds an override and shows it in the calendar, by week and by month', async () => {
    const today = berlinDate(Date.now());
    const tomorrow = berlinDate(Date.now() + DAY_MS);
    const form = page.getByRole('form', { name: 'Add an override' });
    await form.getByLabel('Who covers').selectOption(String(people.carol!.id));
    await form.getByLabel('From').fill(`${today}T00:00`);
    await form.getByLabel('To').fill(`${tomorrow}T00:00`);
    await form.getByRole('button', { name: 'Add the override' }).click();
    await page.getByText('Override added.').waitFor();
    await expect
      .poll(() => page.locator('td[data-label="Who covers"]').allTextContents())
      .toEqual(['Carol Cole']);
    // Today is Carol's, all day, in the week's list.
    const todayRow = page.locator('ol.calendar-week > li[aria-current="date"]');
    await expect.poll(() => todayRow.textContent()).toContain('Carol Cole all day (override)');
    await look('schedule-week');
    await page.getByRole('button', { name: 'Month' }).click();
    const todayCell = page.locator('table.calendar-month td[aria-current="date"]');
    await expect.poll(() => todayCell.textContent()).toContain('Carol Cole');
    await look('schedule-month');
    await page.getByRole('button', { name: 'Next month →' }).click();
    // Today is not a day of next month (its grid may still show it, greyed, in its first week).
    await expect
      .poll(() => page.locator('table.calendar-month td[aria-current="date"]:not(.outside)').count())
      .toBe(0);
  });

  it('gives the person their calendar feed link, which a calendar app reads without a cookie', async () => {
    const link = await page.getByLabel('Feed link', { exact: true }).inputValue();
    expect(link).toMatch(
      new RegExp(`/api/schedules/${scheduleId}/people/${people.editor!.id}\\.ics\\?token=`),
    );
    const url = new URL(link);
    const feed = await api.request<string>('GET', `${url.pathname}${url.search}`);
    expect(feed.status).toBe(200);
    expect(feed.body).toContain('BEGIN:VCALENDAR');
  });

  it('lists the schedule with who is on call now and next', async () => {
    await page.getByRole('link', { name: '← On-call schedules' }).click();
    await page.getByRole('link', { name: 'Ops nights' }).waitFor();
    await expect
      .poll(() => page.locator('td[data-label="On call now"]').textContent())
      .toContain('Carol Cole');
    await look('schedules-list');
    expect(pageErrors).toEqual([]);
  });
});
