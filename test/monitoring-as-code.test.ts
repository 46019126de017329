import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { monitoringFileJsonSchema } from '../libs/as-code/index.js';
import { TestApi } from './support/harness.js';

const run = promisify(execFile);

/** Shop's monitors, one of most kinds: the ping check's count, whether the UDP check and the feed's token are written. */
const shopMonitors = (options: {
  pingCount: number;
  withUdp: boolean;
  withToken: boolean;
}) => `        monitors:
          - kind: heartbeat
            name: Nightly backup
            schedule: { cron: "30 2 * * *", timezone: Europe/Berlin }
          - kind: dns
            name: Address
            recordType: A
            expected: ["192.0.2.10"]
          - kind: port
            name: Database
            host: db.acme-bakery.example
            port: 5432
          - kind: icmp
            name: Ping
            count: ${options.pingCount}
${
  options.withUdp
    ? `          - kind: udp
            name: Game server
            host: game.acme-bakery.example
            port: 27015
            payload: ping
`
    : ''
}          - kind: grpc
            name: Orders
            host: grpc.acme-bakery.example
            port: 50051
          - kind: websocket
            name: Live feed
            url: wss://shop.acme-bakery.example/live
            headers:
              X-Client: webmon
${options.withToken ? '              Authorization: { env: FEED_TOKEN }\n' : ''}          - kind: smtp
            name: Outgoing mail
            host: mail.acme-bakery.example
            security: tls
`;

interface Exported {
  packages: Array<{ id: number; key: string; limits: { maxWebsites: number } }>;
  customers: Array<{ id: number; name: string; packageId: number }>;
  websites: Array<{
    id: number;
    name: string;
    url: string;
    checkInterval: number;
    customerId: number;
    secretHeaderNames: string[];
    notificationChannelIds: number[];
    updatedAt: string;
    checkConfig: { checkKeywordEnabled: boolean; keyword: string | null };
  }>;
  maintenanceWindows: Array<{
    title: string;
    websiteId: number;
    recurrence: { byWeekday?: string[] } | null;
  }>;
  monitors: Array<Record<string, unknown> & { kind: string; name: string }>;
  channels: Array<{ id: number; name: string; type: string; config: Record<string, unknown> }>;
  statusPages: Array<{ slug: string; websiteIds: number[] | null }>;
}

const monitoringFile = (options: { interval: number; withBlog: boolean; monitors?: string }) => `
version: 1
packages:
  - key: agency-pro
    displayName: Agency Pro
    limits: { maxWebsites: 25, minCheckIntervalSeconds: 30 }
customers:
  - name: Acme Bakery
    package: agency-pro
    notificationEmail: owner@acme-bakery.example
    websites:
      - name: Shop
        url: https://shop.acme-bakery.example/
        checkInterval: ${options.interval}
        secretHeaders:
          X-Api-Key: { env: ACME_API_KEY }
        notificationChannels: [Ops Slack]
        checkConfig:
          checkKeywordEnabled: true
          keyword: Add to basket
        maintenance:
          - title: Weekly deploy
            startsAt: "2026-12-01T22:00:00+01:00"
            endsAt: "2026-12-01T23:00:00+01:00"
            timezone: Europe/Berlin
            recurrence: { frequency: weekly, byWeekday: [TU] }
${options.monitors ?? ''}${
  options.withBlog
    ? `      - name: Blog
        url: https://blog.acme-bakery.example/
`
    : ''
}channels:
  - type: slack
    name: Ops Slack
    config:
      webhookUrl: { env: SLACK_WEBHOOK_URL }
statusPages:
  - slug: acme-bakery-status
    title: Acme Bakery status
    customer: Acme Bakery
    websites: [Shop]
    public: true
`;

describe('monitoring as code: webmon plan and apply against the public API', { timeout: 300_000 }, () => {
  let api: TestApi;
  let token: string;
  let dir: string;
  const env = {
    ACME_API_KEY: 'k-123456',
    SLACK_WEBHOOK_URL: 'https://hooks.slack.test/services/T0/B0/x',
    FEED_TOKEN: 'Bearer feed-s3cret',
  };

  const webmon = async (args: string[], extraEnv: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', 'apps/cli/webmon.ts', ...args],
        {
          env: { ...process.env, WEBMON_URL: api.api.url, WEBMON_TOKEN: token, ...env, ...extraEnv },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const exported = async () => (await api.request<Exported>('GET', '/api/exports', { token })).body;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    ({ token } = await api.createOrganization(['admin']));
    dir = mkdtempSync(join(tmpdir(), 'webmon-as-code-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await api?.stop();
  });

  it('plans every thing of a new file (exit 2), applies it with counts as it goes, and a second apply changes nothing', async () => {
    const file = write('monitoring.yaml', monitoringFile({ interval: 300, withBlog: true }));
    const planned = await webmon(['plan', '-f', file]);
    expect(planned.stderr).not.toContain('problems');
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('+ create package "agency-pro"');
    expect(planned.stdout).toContain('+ create customer "Acme Bakery"');
    expect(planned.stdout).toContain('+ create channel "Ops Slack"');
    expect(planned.stdout).toContain('+ create website "Shop" (Acme Bakery)');
    expect(planned.stdout).toContain('+ create maintenance window "Weekly deploy"');
    expect(planned.stdout).toContain('+ create status page "acme-bakery-status"');
    expect(planned.stdout).toContain('Plan: 7 to create, 0 to change, 0 to delete (0 unchanged).');
    expect(planned.stdout).not.toContain(env.ACME_API_KEY);
    expect((await exported()).customers).toEqual([]);

    const applied = await webmon(['apply', '-f', file]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('[1/7] + created package "agency-pro"');
    expect(applied.stdout).toContain('[7/7] + created status page "acme-bakery-status"');
    expect(applied.stdout).toContain('Applied: 7 created, 0 changed, 0 deleted.');
    expect(applied.stdout).not.toContain(env.SLACK_WEBHOOK_URL);

    const state = await exported();
    const pkg = state.packages.find((p) => p.key === 'agency-pro');
    expect(pkg?.limits.maxWebsites).toBe(25);
    const [customer] = state.customers;
    expect(customer).toMatchObject({ name: 'Acme Bakery', packageId: pkg?.id });
    const shop = state.websites.find((w) => w.name === 'Shop');
    const slack = state.channels.find((c) => c.name === 'Ops Slack');
    expect(shop).toMatchObject({
      url: 'https://shop.acme-bakery.example/',
      customerId: customer?.id,
      secretHeaderNames: ['X-Api-Key'],
      notificationChannelIds: [slack?.id],
      checkConfig: { checkKeywordEnabled: true, keyword: 'Add to basket' },
    });
    expect(slack?.config).toMatchObject({ webhookUrlSet: true });
    expect(state.maintenanceWindows).toEqual([
      expect.objectContaining({
        title: 'Weekly deploy',
        websiteId: shop?.id,
        recurrence: expect.objectContaining({ byWeekday: ['TU'] }),
      }),
    ]);
    expect(state.statusPages).toEqual([
      expect.objectContaining({ slug: 'acme-bakery-status', websiteIds: [shop?.id] }),
    ]);

    const again = await webmon(['plan', '-f', file]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes: the organization matches the file (7 things).');
    const reapplied = await webmon(['apply', '-f', file]);
    expect(reapplied.code).toBe(0);
    expect(reapplied.stdout).toContain('No changes');
    expect((await exported()).websites.map((w) => w.updatedAt)).toEqual(
      state.websites.map((w) => w.updatedAt),
    );
  });

  it('shows a change field by field; a website left out is deleted only with --prune', async () => {
    const file = write('changed.yaml', monitoringFile({ interval: 120, withBlog: false }));
    const planned = await webmon(['plan', '-f', file]);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('~ change website "Shop" (Acme Bakery)\n    checkInterval: 300 → 120');
    expect(planned.stdout).not.toContain('- delete');
    expect(planned.stdout).toContain('Plan: 0 to create, 1 to change, 0 to delete (5 unchanged).');

    const pruning = await webmon(['plan', '-f', file, '--prune']);
    expect(pruning.code).toBe(2);
    expect(pruning.stdout).toContain('- delete website "Blog"');
    const applied = await webmon(['apply', '-f', file, '--prune']);
    expect(applied.code, `${applied.stdout}\n${applied.stderr}`).toBe(0);
    expect(applied.stdout).toContain('Applied: 0 created, 1 changed, 1 deleted.');
    const state = await exported();
    expect(state.websites.map((w) => [w.name, w.checkInterval])).toEqual([['Shop', 120]]);
    expect((await webmon(['plan', '-f', file, '--prune'])).code).toBe(0);
  });

  it('fails with exit 1 and says where: a missing variable, a field the schema does not know, a wrong token', async () => {
    const file = write('monitoring.yaml', monitoringFile({ interval: 120, withBlog: false }));
    const unset = await webmon(['plan', '-f', file], { SLACK_WEBHOOK_URL: '' });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      'channels.0.config.webhookUrl: the environment variable SLACK_WEBHOOK_URL is not set',
    );

    const unknownField = write(
      'typo.yaml',
      'version: 1\ncustomers:\n  - name: A\n    package: p\n    websties: []\n',
    );
    const typo = await webmon(['plan', '-f', unknownField]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/customers\.0: .*websties/);

    const dangling = write('dangling.yaml', 'version: 1\ncustomers:\n  - name: A\n    package: nowhere\n');
    const missingPackage = await webmon(['plan', '-f', dangling]);
    expect(missingPackage.code).toBe(1);
    expect(missingPackage.stderr).toContain(
      'customers.0.package: no package "nowhere" in the file or your organization',
    );

    const denied = await webmon(['plan', '-f', file], { WEBMON_TOKEN: 'wm_not-a-token' });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('401');
    const noUrl = await webmon(['plan', '-f', file], { WEBMON_URL: '' });
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('WEBMON_URL is not set');
  });

  it('carries monitors of every kind: made, changed field by field, a credential left out kept, pruned only where listed; a name twice and a kind the package leaves out refused by path', async () => {
    const withMonitors = (options: Parameters<typeof shopMonitors>[0]) =>
      monitoringFile({ interval: 120, withBlog: false, monitors: shopMonitors(options) });
    const file = write('monitors.yaml', withMonitors({ pingCount: 3, withUdp: true, withToken: true }));
    const planned = await webmon(['plan', '-f', file]);
    expect(planned.code, planned.stderr).toBe(2);
    for (const line of [
      '+ create heartbeat "Nightly backup" (Shop)',
      '+ create DNS check "Address" (Shop)',
      '+ create port check "Database" (Shop)',
      '+ create ping check "Ping" (Shop)',
      '+ create UDP check "Game server" (Shop)',
      '+ create gRPC check "Orders" (Shop)',
      '+ create WebSocket check "Live feed" (Shop)',
      '+ create SMTP check "Outgoing mail" (Shop)',
      'Plan: 8 to create, 0 to change, 0 to delete (6 unchanged).',
    ])
      expect(planned.stdout).toContain(line);
    const applied = await webmon(['apply', '-f', file]);
    expect(applied.code, applied.stdout).toBe(0);
    expect(applied.stdout).toContain('Applied: 8 created, 0 changed, 0 deleted.');
    expect(applied.stdout).not.toContain('feed-s3cret');
    const made = await exported();
    expect(made.monitors.map((m) => m.kind).sort()).toEqual([
      'dns',
      'grpc',
      'heartbeat',
      'icmp',
      'port',
      'smtp',
      'udp',
      'websocket',
    ]);
    expect(made.monitors.find((m) => m.kind === 'websocket')).toMatchObject({
      headers: { 'X-Client': 'webmon' },
      secretNames: { headers: ['Authorization'] },
    });
    expect(made.monitors.find((m) => m.kind === 'heartbeat')).toMatchObject({
      schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
    });
    expect(JSON.stringify(made)).not.toContain('feed-s3cret');
    const again = await webmon(['plan', '-f', file]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes: the organization matches the file (14 things).');

    // The ping check's count changed, the UDP check left out, the feed's token no longer written.
    const changed = write(
      'monitors-changed.yaml',
      withMonitors({ pingCount: 5, withUdp: false, withToken: false }),
    );
    const diff = await webmon(['plan', '-f', changed]);
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain('~ change ping check "Ping" (Shop)\n    count: 3 → 5');
    expect(diff.stdout).toContain('Plan: 0 to create, 1 to change, 0 to delete (12 unchanged).');
    const pruning = await webmon(['apply', '-f', changed, '--prune']);
    expect(pruning.code, pruning.stdout).toBe(0);
    expect(pruning.stdout).toContain('- deleted UDP check "Game server" (Shop)');
    expect(pruning.stdout).toContain('Applied: 0 created, 1 changed, 1 deleted.');
    const after = await exported();
    expect(after.monitors.find((m) => m.kind === 'icmp')).toMatchObject({ count: 5 });
    expect(after.monitors.some((m) => m.kind === 'udp')).toBe(false);
    expect(after.monitors.find((m) => m.kind === 'websocket')).toMatchObject({
      secretNames: { headers: ['Authorization'] },
    });

    const twice = write(
      'twice.yaml',
      withMonitors({ pingCount: 5, withUdp: false, withToken: false }).replace('name: Address', 'name: Ping'),
    );
    const duplicate = await webmon(['plan', '-f', twice]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain(
      'customers.0.websites.0.monitors.3.name: "Acme Bakery https://shop.acme-bakery.example/ Ping" is described twice',
    );
    const withoutPing = write(
      'without-ping.yaml',
      withMonitors({ pingCount: 5, withUdp: false, withToken: false }).replace(
        'limits: { maxWebsites: 25, minCheckIntervalSeconds: 30 }',
        'limits: { maxWebsites: 25, minCheckIntervalSeconds: 30 }\n    features: { icmpChecks: false }',
      ),
    );
    const refused = await webmon(['apply', '-f', withoutPing]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'customers.0.websites.0.monitors.3.kind: the package "agency-pro" does not include icmpChecks',
    );
  });

  it('exports the organization as a monitoring file that plans to no changes, with its schema served and printed', async () => {
    const exportedFile = join(dir, 'exported.yaml');
    const out = await webmon(['export', '-o', exportedFile]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('secret headers not carried (write-only): X-Api-Key');
    expect(out.stderr).toContain(
      'WebSocket check "Live feed" (Shop): credentials not carried (write-only): headers.Authorization',
    );
    expect(parse(readFileSync(exportedFile, 'utf8')).customers[0].websites[0].monitors).toHaveLength(7);
    const text = readFileSync(exportedFile, 'utf8');
    expect(parse(text).$schema).toBe(`${api.api.url}/monitoring.schema.json`);
    // The secrets it cannot carry are given back by reference, as a person would.
    const completed = text
      .replace(
        '      name: Shop\n',
        '      name: Shop\n      secretHeaders:\n        X-Api-Key: { env: ACME_API_KEY }\n',
      )
      .replace(
        /(name: Ops Slack\n\s+enabled: true\n(?:.*\n)*?\s+config:\n)/,
        '$1      webhookUrl: { env: SLACK_WEBHOOK_URL }\n',
      );
    const planned = await webmon(['plan', '-f', write('completed.yaml', completed), '--prune']);
    expect(planned.stdout).toContain('No changes');
    expect(planned.code).toBe(0);

    const printed = await webmon(['schema']);
    expect(JSON.parse(printed.stdout)).toEqual(monitoringFileJsonSchema());
    const served = await api.request('GET', '/monitoring.schema.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(monitoringFileJsonSchema());
  });
});
