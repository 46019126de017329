import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

/** The browser app's files as the API serves them (the build is made by scripts/setup.sh). */
describe('the browser app at /', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api?.stop());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${api.api.url}${path}`, { headers, redirect: 'manual' });

  it('answers index.html at each of its own paths, uncached, under a CSP with no inline script', async () => {
    const index = readFileSync('apps/web/dist/index.html', 'utf8');
    for (const path of [
      '/',
      '/sign-in',
      '/accept-invitation?token=abc',
      '/reset-password?token=abc',
      '/account',
      '/customers',
      '/customers/12',
      '/websites/abc123',
      '/websites/abc123/edit',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control'), path).toBe('no-cache');
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self';");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(await answer.text(), path).toBe(index);
    }
    // No script in the page itself: only files of our own.
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(index).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('serves the hashed files for a year, immutable, compressed; an unknown one is 404', async () => {
    const index = await (await get('/')).text();
    const files = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1] as string);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    for (const file of files) {
      const answer = await get(file, { 'accept-encoding': 'gzip' });
      expect(answer.status, file).toBe(200);
      expect(answer.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('content-encoding'), file).toBe('gzip');
      const etag = answer.headers.get('etag') ?? '';
      expect((await get(file, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
    }
    expect((await get('/assets/index-nothere1.js')).status).toBe(404);
    expect((await get('/assets/..%2Fpackage.json')).status).toBe(404);
  });

  it('keeps the first load under 250 KB of compressed JavaScript', async () => {
    const index = await (await get('/')).text();
    const scripts = [
      ...index.matchAll(/<script[^>]*src="([^"]+)"|<link rel="modulepreload"[^>]*href="([^"]+)"/g),
    ];
    let total = 0;
    for (const [, src, preload] of scripts) {
      const bytes = Buffer.from(await (await get((src ?? preload) as string)).arrayBuffer());
      total += gzipSync(bytes, { level: 9 }).length;
    }
    console.info(`first load: ${(total / 1024).toFixed(1)} KB of gzipped JavaScript`);
    expect(total).toBeGreaterThan(5_000);
    expect(total).toBeLessThanOrEqual(250 * 1024);
  });

  it('shadows none of the API’s or the public pages’ paths', async () => {
    expect((await get('/api/websites')).status).toBe(401);
    expect((await get('/api/no-such-route')).status).toBe(404);
    expect((await get('/openapi.json')).headers.get('content-type')).toMatch(/application\/json/);
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/status/no-such-page')).status).toBe(404);
    expect((await get('/no-such-page')).status).toBe(404);
  });
});
