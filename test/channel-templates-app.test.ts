import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { fitsTheWidth, launchBrowser, lookedAt, SCREENSHOTS, signInThroughForm } from './support/browser.js';
import { TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';
import { type Receiver, startReceiver } from './support/receiver.js';

/**
 * A channel's template in the app: written with the variables' help, previewed by the API as it
 * is typed, its syntax error shown at its line and column and refused when saved, and a failure
 * at send time shown on the channel's page.
 */
describe('the app in a real browser: a channel’s message template', { timeout: 120_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let notifier: RunningService;
  let receiver: Receiver;
  const pageErrors: string[] = [];
  const writes: string[] = [];

  beforeAll(async () => {
    // Retries at their real pace: a failed test send is still being retried when the page reports it.
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    const organizationId = await createOrganizationId(api);
    const editor = await createUser(api, organizationId, 'editor');
    notifier = await startNotifier(api.config, createLogger('notifier', 'silent'));
    receiver = await startReceiver();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() !== 'GET' && pathname.startsWith('/api/notification-channels'))
        writes.push(`${request.method()} ${pathname}`);
    });
    await signInThroughForm(page, api.api.url, editor.email, { next: '/channels/new' });
    await page.getByRole('heading', { level: 1, name: 'Add a channel' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await notifier?.stop();
    await receiver?.close();
    await api?.stop();
  });

  const template = () => page.getByLabel('Template', { exact: true });
  const preview = () => page.getByRole('status', { name: 'Template preview' });
  /** The error shown at the template: its aria-invalid and the text its aria-describedby names. */
  const errorAtTemplate = async () => {
    if ((await template().getAttribute('aria-invalid')) !== 'true') return null;
    const ids = (await template().getAttribute('aria-describedby')) ?? '';
    const id = ids.split(' ').find((one) => one.endsWith('-error'));
    return id ? page.locator(`[id="${id}"]`).textContent() : null;
  };

  it('a syntax error shows at its line and column as it is typed, and saving is refused at the template', async () => {
    await page.getByLabel('Type').selectOption('slack');
    await page.getByLabel('Channel name').fill('Team chat');
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/slack/team`);
    await template().fill('Alert for {{ website.name }}\n{% if status == "down" %}DOWN');
    await expect
      .poll(() => preview().textContent())
      .toContain('line 2, column 1: tag {% if status == "down" %} not closed');
    expect(await lookedAt(page, 'channel-template-error')).toEqual([]);

    writes.length = 0;
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await expect
      .poll(errorAtTemplate)
      .toContain('line 2, column 1: tag {% if status == "down" %} not closed');
    // Said once, at the template: the banner only points there.
    expect(await page.getByRole('alert').textContent()).toContain(
      'Some values were refused: see the marked fields.',
    );
    expect(writes).toEqual(['POST /api/notification-channels']);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Add a channel');
  });

  it('a valid template previews for the sample event chosen, variables inserted with a click, unknown ones warned of', async () => {
    await template().fill('');
    await page.getByText('Variables: click one to insert it').click();
    await page.getByRole('button', { name: 'Insert summary.title' }).click();
    await template().press('End');
    await template().pressSequentially(' — ');
    await page.getByRole('button', { name: 'Insert summary.reason' }).click();
    expect(await template().inputValue()).toBe('{{ summary.title }} — {{ summary.reason }}');
    await expect
      .poll(() => preview().locator('pre').textContent())
      .toBe('Acme shop is down — HTTP 503, expected 200–399');

    await page.getByLabel('Preview with a sample event').selectOption('ssl.expiring');
    await expect
      .poll(() => preview().locator('pre').textContent())
      .toBe('Acme shop has an SSL certificate expiring soon — ');

    await template().press('End');
    await template().pressSequentially(' {{ ssl.dayzLeft }}');
    await expect
      .poll(() => preview().textContent())
      .toContain('Not a variable of any event (they render empty): ssl.dayzLeft');
    // The group's button inserts a loop over its websites.
    await page.getByRole('button', { name: 'Insert group', exact: true }).click();
    expect(await template().inputValue()).toContain(
      '{% for item in group %}\n- {{ item.name }} {{ item.url }} {{ item.status }} {{ item.reason }}{% endfor %}',
    );
    // Rendered over a sample group of three websites when asked.
    await page.getByLabel('As a grouped message').check();
    await expect
      .poll(() => preview().locator('pre').textContent())
      .toContain('\n- Acme blog https://blog.example.com/  TIMEOUT: no answer within 30 s\n- Acme API');
    await page
      .getByRole('group', { name: 'Message template (optional)' })
      .screenshot({ path: join(SCREENSHOTS, 'app-channel-template-editor.png') });
    expect(await lookedAt(page, 'channel-template-preview')).toEqual([]);
    // On a phone: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await lookedAt(page, 'channel-template-preview-phone')).toEqual([]);
    await page
      .getByRole('group', { name: 'Message template (optional)' })
      .screenshot({ path: join(SCREENSHOTS, 'app-channel-template-editor-phone.png') });
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('a template that fails when sent: the test goes out with the default message and the page says why', async () => {
    // Parses (so it is saved), but renders past its limits for a test event.
    await template().fill(
      '{% if event.type == "test" %}{% for i in (1..10000000) %}{{ i }}{% endfor %}{% endif %}{{ summary.title }}',
    );
    await expect
      .poll(() => preview().locator('pre').textContent())
      .toBe('Acme shop has an SSL certificate expiring soon');
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team chat' }).waitFor();

    await page.getByRole('button', { name: 'Send a test' }).click();
    const trouble = page.getByRole('status', { name: 'Template problem' });
    await trouble.waitFor({ timeout: 30_000 });
    expect(await trouble.textContent()).toMatch(
      /The message template failed on .* \(Test sends\): the default message was sent instead\..*limit exceeded/,
    );
    expect(receiver.to('/slack/team')[0]?.json).toMatchObject({
      text: 'Test notification from webmon: this channel works',
    });
    // The saved template is in the form again.
    expect(await template().inputValue()).toContain('{{ summary.title }}');
    expect(await lookedAt(page, 'channel-template-problem')).toEqual([]);
    // The list of channels marks it too.
    await page.getByRole('link', { name: '← Channels' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /Team chat/ }).textContent())
      .toContain('⚠ its template failed: the default message went');
    expect(pageErrors).toEqual([]);
  });

  it('a test send whose first attempt fails says why at once, while it is retried', async () => {
    receiver.route('POST', '/slack/team', 500, 'upstream broke');
    await page.getByRole('link', { name: 'Team chat' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team chat' }).waitFor();
    await page.getByRole('button', { name: 'Send a test' }).click();
    // One test at a time: the button waits for the answer.
    expect(await page.getByRole('button', { name: 'Sending a test…' }).isDisabled()).toBe(true);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'first attempt' }).textContent(), {
        timeout: 15_000,
      })
      .toMatch(/The test’s first attempt failed \(HTTP 500/);
    expect(await page.getByRole('button', { name: 'Send a test' }).isEnabled()).toBe(true);
    // The channel says it is failing, on its page and in the list, until a delivery gets through.
    const trouble = page.getByRole('status', { name: 'Delivery problem' });
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Team chat' }).waitFor();
        return (await trouble.count()) > 0 ? trouble.textContent() : '';
      })
      .toMatch(/Deliveries to this channel are failing since .*HTTP 500/);
    expect(await lookedAt(page, 'channel-delivery-problem')).toEqual([]);
    await page.getByRole('link', { name: '← Channels' }).click();
    const row = page.getByRole('row', { name: /Team chat/ });
    await expect.poll(() => row.textContent()).toContain('⚠ failing since');
    // Mended: the test's retry (5 s later) gets through and the mark goes.
    receiver.route('POST', '/slack/team', 200, 'ok');
    await expect
      .poll(
        async () => {
          await page.reload();
          return row.textContent();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .not.toContain('failing since');
    expect(pageErrors).toEqual([]);
  });
});
