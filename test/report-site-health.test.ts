import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientReport } from '../libs/reports/index.js';
import { createCustomer } from './support/harness.js';
import { BROKEN_AT_START, type HealthSite, startHealthSite } from './support/health-site.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn } from './support/people.js';

const run = promisify(execFile);

/** A finding of another customer or organization, written as a crawl would: it must reach no other report. */
function foreignFinding(
  owner: { organizationId: number; customerId: number; websiteId: number },
  url: string,
) {
  const now = new Date();
  return {
    _id: `999999 broken-link ${url}`,
    ...owner,
    monitorId: 999_999,
    type: 'broken-link',
    state: 'open',
    finding: {
      type: 'broken-link',
      url,
      status: 404,
      error: null,
      pages: [{ page: url, element: 'a', text: 'Secret' }],
      pageCount: 1,
      seeded: false,
      firstSeenAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
    },
    runId: 'foreign',
    firstSeenAt: now,
    lastSeenAt: now,
    fixedAt: null,
    retainUntil: null,
  };
}

describe('a client report’s site health from a crawl through the engine: JSON, PDF and CSV', {
  timeout: 180_000,
}, () => {
  let site: HealthSite;
  let stack: MonitoringStack;
  let folder: string;
  let websiteId: number;
  let crawlId: number;
  let ownClient: string;
  const url = (path: string) => new URL(path, site.url).href;
  // Yesterday to tomorrow (UTC, the organization's zone): the crawls of the test, whatever the hour.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const reportPath = (format: string) =>
    `/api/customers/${stack.customerId}/reports?from=${day(-1)}&to=${day(1)}&format=${format}`;
  const get = <T>(path: string) => stack.api.request<T>('GET', path, { token: stack.token });

  beforeAll(async () => {
    site = await startHealthSite();
    folder = mkdtempSync(join(tmpdir(), 'webmon-report-site-health-'));
    const caFile = join(folder, 'ca.pem');
    writeFileSync(caFile, site.ca.cert);
    stack = await startMonitoringStack('report-site-health', {}, { PROBE_EXTRA_CA_FILE: caFile });
    const create = async (customerId: number, name: string, siteUrl: string) => {
      const created = await stack.api.request<{ id: number }>('POST', '/api/websites', {
        token: stack.token,
        body: { customerId, name, url: siteUrl },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    websiteId = await create(stack.customerId, 'Tea Shop', site.url);
    // The customer's other website has no crawl: no section.
    await create(stack.customerId, 'Blog', `${site.plain}/blog`);
    const { packageId } = (await get<{ packageId: number }>(`/api/customers/${stack.customerId}`)).body;
    const otherCustomer = await createCustomer(stack.api, stack.token, packageId, 'Other Client');
    const otherWebsite = await create(otherCustomer, 'Other shop', `${site.plain}/other`);
    await stack.api.db.collection('site_findings').insertMany([
      foreignFinding(
        { organizationId: stack.organizationId, customerId: otherCustomer, websiteId: otherWebsite },
        'https://other-customer.example/secret',
      ),
      // Another organization's finding on a website of the same id.
      foreignFinding(
        { organizationId: stack.organizationId + 1000, customerId: stack.customerId, websiteId },
        'https://other-organization.example/secret',
      ),
    ] as never[]);
    ownClient = await signIn(
      stack.api,
      (await createUser(stack.api, stack.organizationId, 'client', stack.customerId)).email,
    );
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
    await site?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('two crawls through the API and a worker: the first finds the planted findings, the second one link fixed', async () => {
    // The first crawl (due when made) finds the planted links and mixed content…
    const made = await stack.api.request<{ id: number }>('POST', `/api/websites/${websiteId}/monitors`, {
      token: stack.token,
      body: { kind: 'crawl', schedule: 'daily' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    crawlId = made.body.id;
    await expect
      .poll(async () => (await get<{ status: string }>(`/api/monitors/${crawlId}`)).body.status, {
        timeout: 20_000,
        interval: 500,
      })
      .toBe('up');
    // …and a second, on request, finds /gone fixed.
    site.answers.set('/gone', 200);
    const started = await stack.api.request<{ runId: string }>('POST', `/api/monitors/${crawlId}/run`, {
      token: stack.token,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await expect
      .poll(
        async () =>
          (await get<{ state: string }>(`/api/monitors/${crawlId}/runs/${started.body.runId}`)).body.state,
        { timeout: 60_000, interval: 250 },
      )
      .toBe('done');
  });

  it('JSON: the crawled website’s section with the planted broken links (one fixed), its mixed content and sitemap error; none for the other website; no one else’s finding', async () => {
    const response = await get<ClientReport>(reportPath('json'));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const [shop, blog] = response.body.websites;
    expect(shop?.name).toBe('Tea Shop');
    expect(blog?.name).toBe('Blog');
    expect(blog).not.toHaveProperty('siteHealth');
    const crawl = shop?.siteHealth?.crawl;
    const planted = Object.entries(BROKEN_AT_START);
    expect(crawl?.brokenLinks.opened.count).toBe(planted.length);
    expect(crawl?.brokenLinks.opened.items.map((link) => [link.url, link.status, link.page]).sort()).toEqual(
      planted.map(([path, { status, page }]) => [url(path), status, url(page)]).sort(),
    );
    expect(crawl?.brokenLinks.fixed).toMatchObject({ count: 1, items: [{ url: url('/gone'), status: 404 }] });
    expect(crawl?.brokenLinks.fixed.items[0]?.fixedAt).not.toBeNull();
    expect(crawl?.brokenLinks.openAtEnd).toBe(planted.length - 1);
    expect(crawl?.mixedContent).toMatchObject({ active: 1, passive: 1 });
    expect(crawl?.mixedContent.items.map((item) => [item.url, item.category, item.page])).toEqual([
      [`${site.plain}/app.js`, 'active', url('/')],
      [`${site.plain}/logo.png`, 'passive', url('/')],
    ]);
    expect(crawl?.sitemapErrors).toBe(1);
    // No Lighthouse check on it.
    expect(shop?.siteHealth?.lighthouse).toBeNull();
    expect(JSON.stringify(response.body)).not.toContain('secret');

    // The customer's client user reads the same section.
    const own = await fetch(`${stack.api.api.url}${reportPath('json')}`, { headers: { cookie: ownClient } });
    expect(own.status).toBe(200);
    expect(((await own.json()) as ClientReport).websites[0]?.siteHealth).toEqual(shop?.siteHealth);
  });

  it('PDF: its text (pdftotext) has the section’s words and a broken link’s URL', async () => {
    const response = await fetch(`${stack.api.api.url}${reportPath('pdf')}`, {
      headers: { authorization: `Bearer ${stack.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const file = join(folder, 'report.pdf');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
    expect(text).toContain('Site health');
    expect(text).toContain('Broken links: 3 found in the period, 1 fixed, 2 open at its end.');
    expect(text).toContain('Broken links found in the period (3)');
    expect(text).toContain('Broken links fixed in the period (1)');
    expect(text).toContain('Mixed content open at the end of the period (2)');
    expect(text).toContain('Active (browsers block it)');
    expect(text).toContain('HTTP 410');
    expect(text).toContain(url('/retired'));
    expect(text).not.toContain('secret');
  });

  it('CSV: the crawl’s counts and a row per broken link and mixed content', async () => {
    const response = await get<string>(reportPath('csv'));
    expect(response.status).toBe(200);
    const rows = (parse(response.body, { columns: true }) as Array<Record<string, string>>).filter(
      (row) => row.website === 'Tea Shop',
    );
    expect(rows.find((row) => row.period_kind === 'site_health')).toMatchObject({
      monitor_kind: 'crawl',
      broken_links_found: '3',
      broken_links_fixed: '1',
      broken_links_open_at_end: '2',
      mixed_content_active: '1',
      mixed_content_passive: '1',
      sitemap_errors: '1',
    });
    expect(
      rows
        .filter((row) => row.period_kind === 'broken_link')
        .map((row) => [row.finding_url, row.finding_detail, row.fixed_at === ''])
        .sort(),
    ).toEqual([
      [url('/fails'), '500', true],
      [url('/gone'), '404', false],
      [url('/retired'), '410', true],
    ]);
    expect(
      rows.filter((row) => row.period_kind === 'mixed_content').map((row) => row.finding_detail),
    ).toEqual(['active', 'passive']);
    expect(response.body).not.toContain('secret');
  });
});
