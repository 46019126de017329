import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type LighthouseRunOptions,
  lighthouseFiguresSchema,
  lighthouseSettled,
  runLighthouse,
  thresholdBreaches,
} from '../libs/lighthouse/index.js';
import { descendantsOf } from '../libs/runtime/index.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const USER_AGENT = 'webmon/test (website monitoring)';

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** An image without `alt` (an accessibility audit fails) behind a render-blocking script served slowly. */
const FLAWED_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Flawed shop</title>
<script src="/slow.js"></script></head>
<body><h1>Flawed shop</h1><p>Cups and saucers.</p><img src="/pixel.png" width="40" height="40"></body></html>`;

/** A page that never finishes loading: its HTML stays open. */
const ENDLESS_PAGE = '<!doctype html><html lang="en"><title>Endless</title><p>Loading…</p>';

/** The chromium processes this test process started (the browser is a child of ours). */
const chromiumPids = () =>
  [...descendantsOf(process.pid)].filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('chrom');
    } catch {
      return false;
    }
  });
const profiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith('webmon-lighthouse-'));
/** Profiles there before this file's runs (another process's, or one a killed process left): not ours to judge. */
const profilesBefore = new Set(profiles());
/** The profiles of this file's runs still there. */
const profilesLeft = () => profiles().filter((name) => !profilesBefore.has(name));

async function listening(server: Server, host: string): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('Lighthouse on Debian chromium behind the guard', { timeout: 60_000 }, () => {
  /** What reached the private address the guard must refuse: it must stay empty. */
  const privateHits: string[] = [];
  const privateServer = createServer((request, response) => {
    privateHits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
  });
  let privatePort = 0;
  /** The site's own requests, by path and query. */
  const siteHits: string[] = [];
  /** The user agents the site was asked with. */
  const userAgents = new Set<string>();
  const site = createServer((request, response) => {
    const path = request.url ?? '/';
    siteHits.push(path);
    userAgents.add(request.headers['user-agent'] ?? '');
    if (path.startsWith('/pixel.png')) response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    else if (path === '/slow.js')
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'text/javascript' }).end('document.body;'),
        800,
      );
    else if (path === '/endless')
      response.writeHead(200, { 'content-type': 'text/html' }).write(ENDLESS_PAGE);
    else if (path === '/private-image')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><title>Tracker</title><img alt="own" src="/pixel.png?own">
<img alt="tracker" src="http://127.0.0.2:${privatePort}/tracker.png">`,
      );
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FLAWED_PAGE);
  });
  let origin = '';
  let options: LighthouseRunOptions;

  beforeAll(async () => {
    privatePort = await listening(privateServer, '127.0.0.2');
    const port = await listening(site, '127.0.0.1');
    // The site is reached by name, resolved inside the guard; private targets are not allowed,
    // the site's own address and port are the website's exemption.
    origin = `http://shop.test:${port}`;
    options = {
      executablePath: CHROMIUM,
      userAgent: USER_AGENT,
      guard: {
        allowPrivateTargets: false,
        exemptAddresses: [{ address: '127.0.0.1', port }],
        resolve: async (hostname: string) => {
          if (hostname === 'shop.test') return ['127.0.0.1'];
          if (hostname === 'intranet.test') return ['10.0.0.5'];
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        },
      },
    };
  });
  afterEach(() => {
    // Every run kills its Chromium and removes its profile before it answers.
    expect(chromiumPids()).toEqual([]);
    expect(profilesLeft()).toEqual([]);
  });
  afterAll(async () => {
    // A run ended at its deadline or cancelled leaves Lighthouse at work until it gives up: the
    // next file in this process (the timing files run after this one) must not share its CPU.
    await lighthouseSettled();
    for (const server of [site, privateServer]) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('scores a flawed page on mobile: accessibility under 100 with image-alt named, a threshold breach, a real report', async () => {
    const run = await runLighthouse({ url: `${origin}/`, preset: 'mobile', deadlineMs: 50_000 }, options);
    expect(run.outcome, String(run.error)).toBe('completed');
    const figures = lighthouseFiguresSchema.parse(run.figures);
    expect(figures.preset).toBe('mobile');
    expect(figures.lighthouseVersion).toMatch(/^12\./);
    expect(figures.finalUrl).toBe(`${origin}/`);
    expect(figures.scores.accessibility).toBeLessThan(100);
    for (const score of Object.values(figures.scores)) expect(score).toBeGreaterThan(0);
    for (const metric of Object.values(figures.metrics)) expect(metric).not.toBeNull();
    expect(figures.metrics.fcpMs).toBeGreaterThan(0);
    expect(figures.auditsLost).toContainEqual(
      expect.objectContaining({ category: 'accessibility', id: 'image-alt', score: 0 }),
    );
    const breaches = thresholdBreaches(figures, null, { accessibility: 100 });
    expect(breaches.under).toEqual([
      { category: 'accessibility', score: figures.scores.accessibility, minimum: 100 },
    ]);
    expect(breaches.auditsLost[0]).toMatchObject({ id: 'image-alt', previousPointsLost: null });
    expect(run.report.note).toBeNull();
    expect(run.report.html).toContain('<title>Lighthouse Report</title>');
    expect(run.report.html).toContain('__LIGHTHOUSE_JSON__');
    expect(run.refusals).toEqual([]);
    // A phone's Chrome, as Lighthouse emulates it, telling the site who we are.
    expect([...userAgents]).toEqual([
      expect.stringMatching(/Android.* webmon\/test \(website monitoring\)$/),
    ]);
  });

  it('runs the desktop preset, and keeps no report past its bound (saying so)', async () => {
    userAgents.clear();
    const run = await runLighthouse(
      { url: `${origin}/`, preset: 'desktop', deadlineMs: 50_000 },
      { ...options, maxReportBytes: 64 * 1024 },
    );
    expect(run.outcome, String(run.error)).toBe('completed');
    expect(run.figures?.preset).toBe('desktop');
    expect(run.figures?.scores.accessibility).toBeLessThan(100);
    expect(run.report.html).toBeNull();
    expect(run.report.bytes).toBeGreaterThan(64 * 1024);
    expect(run.report.note).toMatch(/^not kept: .* over its 0\.1 MiB bound$/);
    expect([...userAgents]).toEqual([
      expect.stringMatching(/Macintosh.* webmon\/test \(website monitoring\)$/),
    ]);
  });

  it('refuses the image a page loads from a private address: the server there gets no request', async () => {
    const run = await runLighthouse(
      { url: `${origin}/private-image`, preset: 'mobile', deadlineMs: 50_000 },
      options,
    );
    expect(run.outcome, String(run.error)).toBe('completed');
    expect(run.refusals).toContainEqual(
      expect.objectContaining({
        target: `http://127.0.0.2:${privatePort}/tracker.png`,
        reason: expect.stringContaining('which monitoring may not reach'),
      }),
    );
    expect(privateHits).toEqual([]);
    // The page's own image went through the same proxy: the images were requested.
    expect(siteHits).toContain('/pixel.png?own');
  });

  it('fails a page whose own address the guard refuses, saying so', async () => {
    const run = await runLighthouse(
      { url: 'http://intranet.test/', preset: 'mobile', deadlineMs: 50_000 },
      options,
    );
    expect(run.outcome).toBe('failed');
    expect(run.error).toBe(
      'the address guard refused the page: intranet.test resolves to 10.0.0.5 (private), which monitoring may not reach',
    );
    expect(run.refusals[0]).toMatchObject({ target: 'http://intranet.test/' });
  });

  it('ends a page that never finishes at the deadline, Chromium killed', async () => {
    const run = await runLighthouse(
      { url: `${origin}/endless`, preset: 'mobile', deadlineMs: 8_000 },
      options,
    );
    // Lighthouse waits for the load 6 s of the 8, and its audits take longer than the rest.
    expect(run.outcome, String(run.error)).toBe('deadline');
    expect(run.error).toBe('the run passed its 8000 ms deadline: Chromium was stopped');
    expect(run.figures).toBeNull();
    expect(run.timings.totalMs).toBeGreaterThanOrEqual(8_000);
    expect(run.timings.totalMs).toBeLessThan(8_000 + 2_000);
  });

  it('ends a run cancelled by its signal at once', async () => {
    // Timed from a free lane: the deadline case before leaves its Lighthouse at work a while.
    await lighthouseSettled();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 4_000);
    const started = performance.now();
    const run = await runLighthouse(
      { url: `${origin}/endless`, preset: 'desktop', deadlineMs: 10_000, signal: cancel.signal },
      options,
    );
    expect(run.outcome).toBe('cancelled');
    expect(performance.now() - started).toBeLessThan(4_000 + 2_000);
  });
});
