import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';
import { runWebmon } from './support/webmon-cli.js';

/** A crawl and a Lighthouse check as a monitoring file writes them: no interval, their schedule's. */
const monitorsOf = (schedule: 'daily' | 'weekly') => [
  { kind: 'crawl', name: 'Links', schedule, maxPages: 200, ignore: ['*/admin/*'] },
  {
    kind: 'lighthouse',
    name: 'Scores',
    schedule: 'weekly',
    presets: ['mobile', 'desktop'],
    thresholds: { accessibility: 90, maxDrop: 10 },
  },
];

describe('site-health monitors through the monitoring file (webmon plan/apply)', { timeout: 120_000 }, () => {
  let api: TestApi;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    api = await TestApi.start({});
    token = (await api.createOrganization(['admin'])).token;
    dir = mkdtempSync(join(tmpdir(), 'webmon-site-health-code-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await api?.stop();
  });

  const webmon = (args: string[]) => runWebmon({ url: api.api.url, token }, args);
  const fileOf = (schedule: 'daily' | 'weekly', extra: Record<string, unknown> = {}) => {
    const path = join(dir, `monitoring-${schedule}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        packages: [{ key: 'site', displayName: 'Site health' }],
        customers: [
          {
            name: 'Tea Shop Ltd',
            package: 'site',
            websites: [
              {
                name: 'Tea Shop',
                url: 'https://tea-shop.example/',
                monitors: monitorsOf(schedule).map((m, i) => (i === 0 ? { ...m, ...extra } : m)),
              },
            ],
          },
        ],
      }),
    );
    return path;
  };

  it('apply makes them with their schedule’s interval; plan then says no change, and names a changed schedule', async () => {
    const applied = await webmon(['apply', '-f', fileOf('daily')]);
    expect(applied.code, applied.stdout).toBe(0);
    expect(applied.stdout).toContain('create site crawl "Links"');
    expect(applied.stdout).toContain('create Lighthouse check "Scores"');
    const again = await webmon(['plan', '-f', fileOf('daily')]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes');
    const changed = await webmon(['plan', '-f', fileOf('weekly')]);
    expect(changed.code, changed.stdout).toBe(2);
    expect(changed.stdout).toContain('~ change site crawl "Links" (Tea Shop)');
    const monitors = (
      await api.request<{ monitors: Array<Record<string, unknown>> }>('GET', '/api/exports', { token })
    ).body.monitors;
    expect(monitors.find((m) => m.kind === 'crawl')).toMatchObject({ schedule: 'daily', maxPages: 200 });
    const website = monitors[0]?.websiteId;
    const listed = await api.request<{ items: Array<{ kind: string; intervalSeconds: number }> }>(
      'GET',
      `/api/websites/${website}/monitors`,
      { token },
    );
    expect(listed.body.items.map((m) => [m.kind, m.intervalSeconds]).sort()).toEqual([
      ['crawl', 86_400],
      ['lighthouse', 604_800],
    ]);
  });

  it('a file naming an interval for a crawl is refused by path: its schedule sets it', async () => {
    const planned = await webmon(['plan', '-f', fileOf('daily', { intervalSeconds: 60 })]);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toMatch(/monitors\.0\.intervalSeconds: .*schedule/);
  });
});
