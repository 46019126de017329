import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

const run = promisify(execFile);
/** Installed by scripts/setup.sh (pip, once); the test itself needs no network. */
const VENV_BIN = resolve('.cache/openapi-python-client/bin');
const FIXTURES = resolve('test/fixtures/generated-client');

/**
 * A real client nobody here wrote: openapi-python-client 0.29 generates a Python package from the
 * running API's /openapi.json, and a script drives the README's walkthrough through its typed
 * functions and models.
 */
describe('a Python client generated from /openapi.json', () => {
  let api: TestApi;
  let work: string;
  beforeAll(async () => {
    api = await TestApi.start();
    work = mkdtempSync(join(tmpdir(), 'webmon-generated-client-'));
  });
  afterAll(async () => {
    await api.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('generates without a dropped model or operation and runs the walkthrough', async () => {
    expect(existsSync(join(VENV_BIN, 'openapi-python-client')), 'run scripts/setup.sh first').toBe(true);
    const { token } = await api.createOrganization(['admin']);
    const document = await api.request('GET', '/openapi.json');
    writeFileSync(join(work, 'openapi.json'), JSON.stringify(document.body));
    // The venv first on PATH: the generator formats and lints its output with the ruff beside it.
    const env = { ...process.env, PATH: `${VENV_BIN}:${process.env.PATH ?? ''}` };
    const generated = await run(
      join(VENV_BIN, 'openapi-python-client'),
      [
        'generate',
        '--path',
        join(work, 'openapi.json'),
        '--meta',
        'none',
        '--output-path',
        join(work, 'webmon_client'),
        '--config',
        join(FIXTURES, 'config.yml'),
      ],
      { env, cwd: work },
    );
    // Anything the generator could not read is dropped with a warning, and the client lacks it.
    expect(`${generated.stdout}${generated.stderr}`.trim()).toBe(`Generating ${join(work, 'webmon_client')}`);

    const walkthrough = await run(
      join(VENV_BIN, 'python'),
      [join(FIXTURES, 'walkthrough.py'), api.api.url, token],
      { env: { ...env, PYTHONPATH: work }, cwd: work },
    );
    expect(JSON.parse(walkthrough.stdout)).toEqual({
      packageId: 1,
      customer: { id: 1, name: 'Acme' },
      website: { id: 1, name: 'Acme shop', customerId: 1 },
      checkConfig: { keyword: 'Welcome', keywordEnabled: true },
      channel: {
        type: 'webhook',
        events: ['website.down', 'website.up'],
        scopeCustomerId: 1,
        secretShown: true,
      },
      window: { websiteId: 1, title: 'Database upgrade' },
      listedWebsites: ['Acme shop'],
      results: 0,
      badge: { contentType: 'image/svg+xml; charset=utf-8', svg: true },
      problem: { status: 400, type: '/problems/validation-error', paths: ['events'] },
    });
  }, 120_000);
});
