import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_PAGES } from '../libs/dashboard/app-pages.js';
import { TestApi } from './support/harness.js';

/**
 * The app's pages are one list (libs/dashboard/app-pages.ts): the app's router draws a screen at
 * each and the server answers index.html at each, so a page reached by the app's links also opens
 * on a reload.
 */
describe('the app’s pages', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api?.stop());

  it('each answers the app’s index.html, with its parameters filled in', async () => {
    const index = readFileSync('apps/web/dist/index.html', 'utf8');
    for (const page of APP_PAGES) {
      const path = page.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? '12' : 'abc123'));
      const answer = await fetch(`${api.api.url}${path}`, { redirect: 'manual' });
      expect(answer.status, path).toBe(200);
      expect(await answer.text(), path).toBe(index);
    }
  });

  it('load: every file of the build is served (a chunk named after a module such as a.schema.ts too)', async () => {
    const files = readdirSync('apps/web/dist/assets');
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const answer = await fetch(`${api.api.url}/assets/${file}`);
      expect(answer.status, file).toBe(200);
      await answer.arrayBuffer();
    }
  });

  it('are the only routes of the app’s router (it is built from the list)', () => {
    const app = readFileSync('apps/web/src/app.tsx', 'utf8');
    expect(app).toContain('APP_PAGES.map(');
    // A route written by hand would be a page the server may not serve; only the fallback is.
    expect(app.match(/<Route\b[^>]*>/g)).toEqual([
      '<Route key={page} path={page} component={SCREENS[page]} />',
      '<Route default component={NotFound} />',
    ]);
  });
});
