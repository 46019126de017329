import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';
import { startTestShop, type TestShop } from './support/test-shop.js';
import { runWebmon } from './support/webmon-cli.js';

/** The purchase as the monitoring file writes it: the password from the environment, searching for `product`. */
const journeyOf = (shop: TestShop, product: string) => ({
  kind: 'browser',
  name: 'Buy a teapot',
  intervalSeconds: 600,
  variables: { shop: shop.url },
  secrets: { PASSWORD: { env: 'SHOP_PASSWORD' } },
  steps: [
    { action: 'goto', url: '{{shop}}/sign-in' },
    { action: 'fill', locator: { by: 'label', text: 'Email' }, value: shop.email },
    { action: 'fill', locator: { by: 'label', text: 'Password' }, value: '{{secret.PASSWORD}}' },
    { action: 'click', locator: { by: 'role', role: 'button', name: 'Sign in' } },
    { action: 'goto', url: '{{shop}}/search' },
    { action: 'fill', locator: { by: 'label', text: 'Search products' }, value: product.toLowerCase() },
    { action: 'click', locator: { by: 'role', role: 'button', name: 'Search' } },
    { action: 'click', locator: { by: 'role', role: 'link', name: `${product} Teapot` } },
    {
      name: 'Add to basket',
      action: 'click',
      locator: { by: 'role', role: 'button', name: 'Add to basket' },
    },
    {
      action: 'expect',
      that: 'text',
      locator: { by: 'css', selector: '#basket-count' },
      text: { equals: '1' },
    },
  ],
});

describe('a browser journey through export and the monitoring file (webmon plan/apply/export)', {
  timeout: 180_000,
}, () => {
  let api: TestApi;
  let shop: TestShop;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    shop = await startTestShop();
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    token = (await api.createOrganization(['admin'])).token;
    dir = mkdtempSync(join(tmpdir(), 'webmon-journey-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await api?.stop();
    await shop?.close();
  });

  const webmon = (args: string[]) =>
    runWebmon({ url: api.api.url, token }, args, { SHOP_PASSWORD: shop.password });
  /** The monitoring file with the journey searching for `product`. */
  const fileOf = (product: string) => {
    const path = join(dir, `monitoring-${product}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        packages: [{ key: 'journeys', displayName: 'Journeys', limits: { minBrowserIntervalSeconds: 300 } }],
        customers: [
          {
            name: 'Tea Shop Ltd',
            package: 'journeys',
            websites: [{ name: 'Tea Shop', url: `${shop.url}/`, monitors: [journeyOf(shop, product)] }],
          },
        ],
      }),
    );
    return path;
  };
  const exported = async () =>
    (await api.request<{ monitors: Array<Record<string, unknown>> }>('GET', '/api/exports', { token })).body;

  it('apply makes the journey with its password from the environment (sealed, and it signs in); plan then says no change and names a changed step', async () => {
    const applied = await webmon(['apply', '-f', fileOf('Blue')]);
    expect(applied.code, applied.stdout).toBe(0);
    expect(applied.stdout).toContain('create browser journey "Buy a teapot"');
    const again = await webmon(['plan', '-f', fileOf('Blue')]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes');
    const changed = await webmon(['plan', '-f', fileOf('Green')]);
    expect(changed.code, changed.stdout).toBe(2);
    expect(changed.stdout).toContain('~ change browser journey "Buy a teapot" (Tea Shop)');

    const everything = await exported();
    const journey = everything.monitors.find((m) => m.kind === 'browser');
    const { secrets: _written, ...declared } = journeyOf(shop, 'Blue');
    expect(journey).toMatchObject({ ...declared, secretNames: { secrets: ['PASSWORD'] }, secrets: {} });
    expect(JSON.stringify(everything)).not.toContain(shop.password);
    const run = await api.request<{ status: string; cause: string | null }>(
      'POST',
      `/api/monitors/${journey?.id}/run`,
      { token },
    );
    expect(run.body, JSON.stringify(run.body)).toMatchObject({ status: 'up', cause: null });
  });

  it('export writes it back as a file without the password, naming it; that file plans no change', async () => {
    const path = join(dir, 'exported.yaml');
    const written = await webmon(['export', '-o', path]);
    expect(written.code, written.stdout).toBe(0);
    expect(written.stderr).toContain('Buy a teapot');
    expect(written.stderr).toContain('credentials not carried (write-only): secrets.PASSWORD');
    const yaml = readFileSync(path, 'utf8');
    expect(yaml).toContain('kind: browser');
    expect(yaml).toContain('{{secret.PASSWORD}}');
    expect(yaml).not.toContain(shop.password);
    const planned = await webmon(['plan', '-f', path]);
    expect(planned.code, planned.stdout).toBe(0);
    expect(planned.stdout).toContain('No changes');
  });
});
