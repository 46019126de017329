import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url);

/** A module loader hook (run on the loader's thread) that writes each module's URL as it is loaded. */
const RECORDER = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  appendFileSync(file, url + '\\n');
  return next(url, context);
}`;

/** Every module a fresh Node process loads to import `entries` (as `npm start` runs them, through tsx). */
async function modulesLoadedBy(entries: readonly string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'webmon-modules-'));
  const file = join(dir, 'loaded.txt');
  try {
    const script = `
      import { register } from 'node:module';
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(RECORDER)}`)}, { data: { file: ${JSON.stringify(file)} } });
      for (const entry of ${JSON.stringify(entries)}) await import(new URL(entry, ${JSON.stringify(root.href)}).href);
    `;
    await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return (await readFile(file, 'utf8')).split('\n').filter((url) => url !== '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const KOA = /\/node_modules\/(koa|koa-[^/]+|@koa\/[^/]+)\//;
const ROUTE_MODULE = /\/apps\/api\/routes\/|\.routes\.ts$/;
const httpEdge = (urls: readonly string[]) => urls.filter((url) => KOA.test(url) || ROUTE_MODULE.test(url));

describe('the modules each process loads', () => {
  it('the API loads Koa and its routes (the check below sees them when they are there)', async () => {
    const loaded = await modulesLoadedBy(['apps/api/api.ts']);
    expect(loaded.some((url) => KOA.test(url))).toBe(true);
    expect(loaded.some((url) => ROUTE_MODULE.test(url))).toBe(true);
  }, 60_000);

  it.each([
    ['worker', ['apps/worker/compose.ts', 'apps/worker/worker.ts']],
    ['notifier', ['apps/notifier/compose.ts', 'apps/notifier/notifier.ts']],
  ])(
    'the %s loads neither Koa nor a route module',
    async (_name, entries) => {
      const loaded = await modulesLoadedBy(entries);
      // It did load what it runs: its own modules and the libraries they compose.
      for (const entry of entries) expect(loaded.some((url) => url.endsWith(entry))).toBe(true);
      expect(loaded.some((url) => url.includes('/libs/services/'))).toBe(true);
      expect(httpEdge(loaded)).toEqual([]);
    },
    60_000,
  );
});
