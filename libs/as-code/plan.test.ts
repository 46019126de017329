import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExportDocument } from '../exports/index.js';
import { applyPlan, type ConfigurationWriter } from './apply.js';
import { fileFromExport } from './from-export.js';
import { readMonitoringFile, writtenFile } from './monitoring-file.js';
import { planChanges } from './plan.js';
import type { PlanProblems, WrittenFile } from './plan-steps.js';
import { planText } from './plan-text.js';

const at = '2026-11-01T00:00:00.000Z';
const emptyOrganization = (): ExportDocument => ({
  format: 'webmon',
  version: 1,
  exportedAt: at,
  customerId: null,
  packages: [],
  customers: [],
  websites: [],
  maintenanceWindows: [],
  monitors: [],
  channels: [],
  statusPages: [],
});

const pkg = (id: number, key: string) => ({
  id,
  organizationId: 1,
  key,
  displayName: key,
  features: {} as ExportDocument['packages'][number]['features'],
  limits: {
    maxWebsites: 50,
    minCheckIntervalSeconds: 60,
    resultRetentionDays: 30,
    maxHeartbeatsPerWebsite: 10,
    maxDnsChecksPerWebsite: 10,
    maxPortChecksPerWebsite: 10,
    maxIcmpChecksPerWebsite: 10,
    maxUdpChecksPerWebsite: 10,
    maxGrpcChecksPerWebsite: 10,
    maxWebsocketChecksPerWebsite: 10,
    maxMailServerChecksPerWebsite: 10,
    maxApiFlowsPerWebsite: 5,
    maxStepsPerJourney: 50,
    maxBrowserJourneysPerWebsite: 3,
    minBrowserIntervalSeconds: 300,
    maxCrawlsPerWebsite: 1,
    maxCrawlPages: 500,
    maxCrawlsPerDay: 24,
    maxLighthouseChecksPerWebsite: 1,
    maxLighthouseRunsPerDay: 8,
  },
  alerting: { responseTimeThresholdMs: 5000 } as ExportDocument['packages'][number]['alerting'],
  createdAt: at,
  updatedAt: at,
});

const customer = (id: number, name: string, packageId: number) => ({
  id,
  organizationId: 1,
  name,
  packageId,
  packageDisplayName: '',
  status: 'active' as const,
  cancellationDate: null,
  createdAt: at,
});

const slackChannel = (id: number, webhookUrlSet: boolean) => ({
  id,
  organizationId: 1,
  type: 'slack' as const,
  name: 'Ops',
  enabled: true,
  events: ['website.down' as const],
  scope: { listedOnly: false },
  config: { webhookUrlSet, botTokenSet: false, channel: null, apiUrl: 'https://slack.com/api' },
  createdAt: at,
  updatedAt: at,
});

/** As the CLI plans: the file read through the API's schemas first. */
const plan = (file: Omit<WrittenFile, 'version'>, current = emptyOrganization(), prune = false) =>
  planChanges(writtenFile({ version: 1, ...file }, {}), current, { prune, createOnly: false });

type ExportedWebsite = ExportDocument['websites'][number];
const PUBLIC_ID = '00000000-0000-4000-8000-000000000040';
/** An organization with package "pro" (threshold 5000 ms), customer "Acme" and one website as the export shows it. */
function withWebsite(overrides: Partial<ExportedWebsite> = {}): ExportDocument {
  const current = emptyOrganization();
  current.packages = [pkg(1, 'pro')];
  current.customers = [customer(7, 'Acme', 1)];
  current.websites = [
    {
      id: 40,
      publicId: PUBLIC_ID,
      organizationId: 1,
      customerId: 7,
      name: 'Shop',
      url: 'https://shop.example/',
      httpMethod: 'GET',
      customHeaders: { 'X-Probe': 'webmon' },
      secretHeaderNames: [],
      requestBody: null,
      requestBodySecret: false,
      followRedirects: true,
      maxRedirects: 10,
      cookieHandling: 'jar',
      mtlsEnabled: false,
      mtlsClientCert: null,
      mtlsClientKeySet: false,
      checkInterval: 300,
      timeoutSeconds: 30,
      regions: [],
      paused: false,
      notificationChannelIds: [],
      escalationPolicyId: null,
      createdAt: at,
      updatedAt: at,
      checkConfig: {
        websiteId: 40,
        checkSslEnabled: true,
        checkHttpsRedirectEnabled: false,
        checkStatusEnabled: true,
        checkSizeEnabled: false,
        checkResponseTimeEnabled: true,
        checkKeywordEnabled: false,
        checkDomainExpiryEnabled: false,
        minPageSize: null,
        maxPageSize: null,
        expectedStatusCodes: ['200'],
        responseTimeThresholdMs: 5000,
        keyword: null,
        keywordMode: 'present',
        keywordCaseSensitive: false,
        assertions: [],
      },
      ...overrides,
    },
  ];
  return current;
}
const acmeWith = (website: Record<string, unknown>) => ({
  customers: [
    { name: 'Acme', package: 'pro', websites: [{ name: 'Shop', url: 'https://shop.example/', ...website }] },
  ],
});

describe('planChanges: what it takes to bring an organization to a monitoring file', () => {
  it('makes things in the order they name each other, references standing for what is not made yet', () => {
    const result = plan({
      statusPages: [{ slug: 'acme', title: 'Acme', customer: 'Acme', websites: ['Shop'] }],
      customers: [
        { name: 'Acme', package: 'pro', websites: [{ name: 'Shop', url: 'https://shop.example/' }] },
      ],
      packages: [{ key: 'pro', displayName: 'Pro' }],
    });
    expect(result.steps.map((step) => `${step.action} ${step.kind}`)).toEqual([
      'create package',
      'create customer',
      'create website',
      'create statusPage',
    ]);
    expect(result.steps[1]).toMatchObject({ body: { packageId: { $ref: 'package', key: 'pro' } } });
    expect(result.steps[3]).toMatchObject({
      body: { websiteIds: [{ $ref: 'website', key: 'Acme https://shop.example/' }] },
    });
  });

  it('compares a page’s write-only password by whether it is set, sending it with any change of access', () => {
    const current = withWebsite();
    const page = (access: Record<string, unknown>) => ({
      id: 3,
      organizationId: 1,
      slug: 'acme',
      title: 'Acme',
      customerId: 7,
      websiteIds: null,
      access: { mode: 'password', cidrs: [], passwordSet: true, ...access },
    });
    const written = {
      ...acmeWith({}),
      packages: [{ key: 'pro', displayName: 'Pro' }],
      statusPages: [
        {
          slug: 'acme',
          title: 'Acme',
          customer: 'Acme',
          access: { mode: 'password' as const, password: 'hunter2-long' },
        },
      ],
    };
    current.statusPages = [page({}) as never];
    const same = plan(written, current);
    expect(same.steps.filter((step) => step.kind === 'statusPage')).toEqual([]);
    current.statusPages = [page({ mode: 'public', passwordSet: false }) as never];
    const changed = plan(written, current).steps.find((step) => step.kind === 'statusPage');
    expect(changed).toMatchObject({
      action: 'change',
      body: { access: { mode: 'password', password: 'hunter2-long' } },
    });
    expect(JSON.stringify(changed && 'changes' in changed ? changed.changes : [])).not.toContain('hunter2');
  });

  it('compares only the fields written, a nested object field by field, and names a package by key', () => {
    const current = emptyOrganization();
    current.packages = [pkg(1, 'starter'), pkg(2, 'pro')];
    current.customers = [customer(7, 'Acme', 1)];
    const result = plan(
      {
        packages: [{ key: 'pro', displayName: 'pro', limits: { maxWebsites: 80 } }],
        customers: [{ name: 'Acme', package: 'pro' }],
      },
      current,
    );
    expect(result.steps).toEqual([
      expect.objectContaining({
        action: 'change',
        kind: 'package',
        changes: [{ field: 'limits.maxWebsites', from: 50, to: 80 }],
        body: { limits: { maxWebsites: 80 } },
      }),
      expect.objectContaining({
        action: 'change',
        kind: 'customer',
        changes: [{ field: 'package', from: 'starter', to: 'pro' }],
        body: { packageId: 2 },
      }),
    ]);
    expect(planText(result)).toContain('~ change customer "Acme"\n    package: "starter" → "pro"');
    expect(result.unchanged).toEqual([]);
  });

  it('compares a write-only value by whether it is set, never showing it, and sends it with any change of the config', () => {
    const current = emptyOrganization();
    current.channels = [slackChannel(3, true)];
    const secret = 'https://hooks.slack.test/services/T/B/very-secret';
    const same = plan(
      { channels: [{ type: 'slack', name: 'Ops', config: { webhookUrl: secret } }] },
      current,
    );
    expect(same.steps).toEqual([]);
    expect(same.unchanged).toEqual([{ kind: 'channel', label: 'channel "Ops"' }]);

    current.channels = [slackChannel(3, false)];
    const unset = plan(
      { channels: [{ type: 'slack', name: 'Ops', config: { webhookUrl: secret } }] },
      current,
    );
    const text = planText(unset);
    expect(text).toContain('config.webhookUrl: "(not set)" → "(set)"');
    expect(text).not.toContain('very-secret');
    expect(unset.steps[0]).toMatchObject({ body: { config: { webhookUrl: secret } } });
  });

  it('deletes only with prune, dependants first, and never a window its deleted website takes with it', () => {
    const current = emptyOrganization();
    current.packages = [pkg(1, 'pro')];
    current.customers = [customer(7, 'Acme', 1), customer(8, 'Gone', 1)];
    const website = {
      id: 40,
      publicId: '00000000-0000-4000-8000-000000000040',
      customerId: 8,
      url: 'https://gone.example/',
      name: 'Gone site',
    };
    current.websites = [website as unknown as ExportDocument['websites'][number]];
    current.maintenanceWindows = [
      { id: 5, websiteId: 40, title: 'Nightly' } as unknown as ExportDocument['maintenanceWindows'][number],
    ];
    const file = {
      packages: [{ key: 'pro', displayName: 'pro' }],
      customers: [{ name: 'Acme', package: 'pro' }],
    };
    expect(plan(file, current).steps).toEqual([]);
    expect(plan(file, current, true).steps.map((step) => `${step.action} ${step.label}`)).toEqual([
      'delete website "Gone site"',
      'delete customer "Gone"',
    ]);
    expect(plan(file, current, true).steps[0]).toMatchObject({ address: website.publicId });
  });

  it('refuses a file it cannot plan, naming each place: a thing twice, a name nothing has', () => {
    const problems = (() => {
      try {
        plan({
          customers: [
            { name: 'Acme', package: 'missing' },
            { name: 'Acme', package: 'missing' },
          ],
          channels: [{ type: 'webhook', name: 'Hook', scope: { customer: 'Nobody' }, config: {} }],
        });
      } catch (error) {
        return (error as PlanProblems).problems;
      }
      return [];
    })();
    expect(problems).toEqual([
      { path: 'customers.1.name', message: '"Acme" is described twice' },
      { path: 'customers.0.package', message: 'no package "missing" in the file or your organization' },
      { path: 'channels.0.scope.customer', message: 'no customer "Nobody" in the file or your organization' },
    ]);
  });

  it('creating only (an import) leaves what exists as it is', () => {
    const current = emptyOrganization();
    current.packages = [pkg(1, 'pro')];
    const result = planChanges(
      {
        version: 1,
        packages: [
          { key: 'pro', displayName: 'Renamed' },
          { key: 'new', displayName: 'New' },
        ],
      },
      current,
      { prune: true, createOnly: true },
    );
    expect(result.steps.map((step) => `${step.action} ${step.label}`)).toEqual(['create package "new"']);
    expect(result.unchanged).toEqual([{ kind: 'package', label: 'package "pro"' }]);
  });
});

describe('planChanges converges: a second plan after apply finds nothing, and sees every real difference', () => {
  it('compares what the API would store: names trimmed, codes as text, the package’s threshold', () => {
    const result = plan(
      acmeWith({
        name: '  Shop ',
        checkConfig: { expectedStatusCodes: ['200'], responseTimeThresholdMs: null },
      }),
      withWebsite(),
    );
    expect(result.steps).toEqual([]);
  });

  it('compares a field PATCH replaces whole: a header removed, a scope widened, a recurrence’s end dropped', () => {
    const headers = plan(acmeWith({ customHeaders: {} }), withWebsite());
    expect(headers.steps[0]).toMatchObject({ action: 'change', body: { customHeaders: {} } });

    const current = withWebsite();
    current.channels = [{ ...slackChannel(3, true), scope: { customerId: 7, listedOnly: false } }];
    const widened = plan(
      { channels: [{ type: 'slack', name: 'Ops', scope: {}, config: { channel: null } }] },
      current,
    );
    expect(widened.steps[0]).toMatchObject({ action: 'change', body: { scope: {} } });

    const windowed = withWebsite();
    windowed.maintenanceWindows = [
      {
        id: 5,
        websiteId: 40,
        title: 'Deploy',
        startsAt: '2026-12-01T21:00:00.000Z',
        endsAt: '2026-12-01T22:00:00.000Z',
        timezone: 'Europe/Berlin',
        recurrence: {
          frequency: 'weekly',
          interval: 1,
          byWeekday: ['TU'],
          until: '2027-06-01T00:00:00.000Z',
        },
        createdAt: at,
        updatedAt: at,
      },
    ];
    const window = {
      title: 'Deploy',
      startsAt: '2026-12-01T22:00:00+01:00',
      endsAt: '2026-12-01T23:00:00+01:00',
      recurrence: { frequency: 'weekly', byWeekday: ['TU'] },
    };
    const dropped = plan(acmeWith({ maintenance: [window] }), windowed);
    expect(dropped.steps.map((step) => step.action === 'change' && step.changes.map((c) => c.field))).toEqual(
      [['recurrence']],
    );
    const same = plan(
      acmeWith({
        maintenance: [
          { ...window, recurrence: { ...window.recurrence, until: '2027-06-01T02:00:00+02:00' } },
        ],
      }),
      windowed,
    );
    expect(same.steps).toEqual([]);
  });

  it('sends a sealed body with its switch, and refuses credentials among plain headers', () => {
    const sealed = plan(acmeWith({ requestBody: 'token=abc', requestBodySecret: true }), withWebsite());
    expect(sealed.steps[0]).toMatchObject({ body: { requestBodySecret: true, requestBody: 'token=abc' } });
    expect(planText(sealed)).not.toContain('token=abc');
    expect(() => plan(acmeWith({ customHeaders: { Authorization: 'Bearer x' } }), withWebsite())).toThrow(
      /customHeaders\.Authorization: a credential: give it in secretHeaders/,
    );
  });

  it('knows a GET and a POST of one URL apart, and prune keeps what the file names', () => {
    const current = withWebsite();
    current.channels = [slackChannel(3, true)];
    const result = plan(acmeWith({ httpMethod: 'POST', notificationChannels: ['Ops'] }), current, true);
    expect(result.steps.map((step) => `${step.action} ${step.label}`)).toEqual([
      'create website "Shop" (Acme)',
      'delete website "Shop"',
    ]);
  });
});

/** Website 40 ("Shop") with a DNS check, a WebSocket check holding a sealed Authorization header, and a heartbeat. */
function withMonitors(): ExportDocument {
  const current = withWebsite();
  current.monitors = [
    {
      id: 70,
      websiteId: 40,
      kind: 'dns',
      name: 'Address',
      recordType: 'A',
      host: 'shop.example',
      expected: ['192.0.2.1', '192.0.2.2'],
      intervalSeconds: 300,
      timeoutSeconds: 5,
      relearnAfterSeconds: 86_400,
      createdAt: at,
      updatedAt: at,
    },
    {
      id: 71,
      websiteId: 40,
      kind: 'websocket',
      name: 'Feed',
      url: 'wss://shop.example/feed',
      headers: { 'X-Client': 'webmon' },
      subprotocol: null,
      send: null,
      expect: null,
      intervalSeconds: 60,
      timeoutSeconds: 10,
      secretNames: { headers: ['Authorization'] },
      createdAt: at,
      updatedAt: at,
    },
    {
      id: 72,
      websiteId: 40,
      kind: 'heartbeat',
      name: 'Backup',
      schedule: { periodSeconds: 86_400 },
      graceSeconds: 300,
      maxRunSeconds: null,
      createdAt: at,
      updatedAt: at,
    },
  ];
  return current;
}
const feed = (fields: Record<string, unknown> = {}) => ({
  kind: 'websocket',
  name: 'Feed',
  url: 'wss://shop.example/feed',
  ...fields,
});
const FEED_ENV = { FEED_TOKEN: 'Bearer t-very-secret', FEED_KEY: 'k-very-secret' };
const planWithEnv = (file: Omit<WrittenFile, 'version'>, current: ExportDocument) =>
  planChanges(writtenFile({ version: 1, ...file }, FEED_ENV), current, { prune: false, createOnly: false });
const backup = { kind: 'heartbeat', name: 'Backup', schedule: { periodSeconds: 86_400 } };
const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as PlanProblems).problems;
  }
  return [];
};

describe('planChanges: a website’s monitors, known by their name within it', () => {
  it('makes them after every website (websites stay one batch), on their website by reference', () => {
    const result = plan({
      packages: [{ key: 'pro', displayName: 'Pro' }],
      customers: [
        {
          name: 'Acme',
          package: 'pro',
          websites: [
            {
              name: 'Shop',
              url: 'https://shop.example/',
              monitors: [
                { kind: 'icmp', name: 'Ping', count: 5 },
                { kind: 'heartbeat', name: 'Backup', schedule: { cron: '30 2 * * *' } },
              ],
            },
            {
              name: 'Blog',
              url: 'https://blog.example/',
              monitors: [{ kind: 'port', name: 'SSH', port: 22 }],
            },
          ],
        },
      ],
    });
    expect(result.steps.map((step) => `${step.action} ${step.label}`)).toEqual([
      'create package "pro"',
      'create customer "Acme"',
      'create website "Shop" (Acme)',
      'create website "Blog" (Acme)',
      'create ping check "Ping" (Shop)',
      'create heartbeat "Backup" (Shop)',
      'create port check "SSH" (Blog)',
    ]);
    expect(result.steps[4]).toMatchObject({
      kind: 'monitor',
      body: {
        kind: 'icmp',
        name: 'Ping',
        count: 5,
        websiteId: { $ref: 'website', key: 'Acme https://shop.example/' },
      },
    });
    // Only what is written is sent: the API gives the rest its defaults.
    expect(result.steps[4]?.action === 'create' && Object.keys(result.steps[4].body).sort()).toEqual([
      'count',
      'kind',
      'name',
      'websiteId',
    ]);
    expect(result.steps[5]).toMatchObject({ body: { schedule: { cron: '30 2 * * *', timezone: 'UTC' } } });
  });

  it('compares each field whole as stored (DNS answers normalised, credentials by whether they are set) and shows a change field by field', () => {
    const same = planWithEnv(
      acmeWith({
        monitors: [
          { kind: 'dns', name: 'Address', recordType: 'A', expected: ['192.0.2.2', '192.0.2.1'] },
          feed({ headers: { 'X-Client': 'webmon', authorization: { env: 'FEED_TOKEN' } } }),
          backup,
        ],
      }),
      withMonitors(),
    );
    expect(same.steps).toEqual([]);
    expect(same.unchanged.filter((thing) => thing.kind === 'monitor')).toHaveLength(3);

    const changed = plan(
      acmeWith({
        monitors: [
          {
            kind: 'dns',
            name: 'Address',
            recordType: 'A',
            expected: ['192.0.2.1', '192.0.2.2'],
            intervalSeconds: 120,
          },
          feed({ headers: { 'X-Client': 'webmon' }, expect: { contains: 'pong' } }),
          { kind: 'heartbeat', name: 'Backup', schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' } },
        ],
      }),
      withMonitors(),
    );
    expect(planText(changed)).toContain(
      [
        '~ change DNS check "Address" (Shop)',
        '    intervalSeconds: 300 → 120',
        '~ change WebSocket check "Feed" (Shop)',
        '    expect: null → {"contains":"pong"}',
        '~ change heartbeat "Backup" (Shop)',
        '    schedule: {"periodSeconds":86400} → {"cron":"0 3 * * *","timezone":"Europe/Berlin"}',
      ].join('\n'),
    );
    // A credential the file does not name is kept as it is.
    expect(changed.steps[1]).toMatchObject({
      action: 'change',
      address: '71',
      body: { expect: { contains: 'pong' } },
    });
  });

  it('sends a sealed record whole: a credential kept when not named, taken off by null, a new one set; its value never shown', () => {
    const removed = plan(
      acmeWith({ monitors: [feed({ headers: { 'X-Client': 'other' } })] }),
      withMonitors(),
    );
    expect(removed.steps[0]).toMatchObject({
      changes: [{ field: 'headers', from: { 'X-Client': 'webmon' }, to: { 'X-Client': 'other' } }],
      body: { headers: { 'X-Client': 'other', Authorization: '(set)' } },
    });
    const dropped = plan(
      acmeWith({ monitors: [feed({ headers: { Authorization: null } })] }),
      withMonitors(),
    );
    expect(dropped.steps[0]).toMatchObject({ body: { headers: {} } });
    const added = planWithEnv(
      acmeWith({ monitors: [feed({ headers: { 'X-Client': 'webmon', 'X-Api-Key': { env: 'FEED_KEY' } } })] }),
      withMonitors(),
    );
    expect(added.steps[0]).toMatchObject({
      body: { headers: { 'X-Client': 'webmon', 'X-Api-Key': 'k-very-secret', Authorization: '(set)' } },
    });
    expect(planText(added)).toContain('"x-api-key":"(set)"');
    expect(planText(added)).not.toContain('very-secret');
    expect(
      problemsOf(() => plan(acmeWith({ monitors: [feed({ headers: { Authorization: 'Bearer x' } })] }))),
    ).toEqual([
      {
        path: 'customers.0.websites.0.monitors.0.headers.Authorization',
        message: 'a credential: give it as {env: NAME} (the API keeps it sealed)',
      },
    ]);
  });

  it('refuses, naming the place: a name twice in a website, two of one name in the organization, a kind changed, a kind the package leaves out', () => {
    expect(
      problemsOf(() =>
        plan(
          acmeWith({
            monitors: [
              { kind: 'icmp', name: 'Ping' },
              { kind: 'udp', name: 'Ping', port: 53 },
            ],
          }),
          withMonitors(),
        ),
      ),
    ).toEqual([
      {
        path: 'customers.0.websites.0.monitors.1.name',
        message: '"Acme https://shop.example/ Ping" is described twice',
      },
    ]);
    const twice = withMonitors();
    twice.monitors.push({ ...(twice.monitors[2] as ExportDocument['monitors'][number]), id: 73 });
    expect(problemsOf(() => plan(acmeWith({ monitors: [backup] }), twice))).toEqual([
      {
        path: 'customers.0.websites.0.monitors.0.name',
        message:
          'your organization has two of kind monitor known as "Acme https://shop.example/ Backup": rename or delete one, then plan again',
      },
    ]);
    expect(
      problemsOf(() => plan(acmeWith({ monitors: [{ kind: 'icmp', name: 'Backup' }] }), withMonitors())),
    ).toEqual([
      {
        path: 'customers.0.websites.0.monitors.0.kind',
        message: '"Backup" is a heartbeat of this website: a kind cannot change (give it another name)',
      },
    ]);
    const withoutPing = withMonitors();
    withoutPing.packages = [
      { ...pkg(1, 'pro'), features: { icmpChecks: false } as ExportDocument['packages'][number]['features'] },
    ];
    expect(
      problemsOf(() => plan(acmeWith({ monitors: [{ kind: 'icmp', name: 'Ping' }] }), withoutPing)),
    ).toEqual([
      {
        path: 'customers.0.websites.0.monitors.0.kind',
        message: 'the package "pro" does not include icmpChecks',
      },
    ]);
    // Creating only (an import), the monitor is left out and said; the rest is made.
    const imported = planChanges(
      writtenFile(
        {
          version: 1,
          ...acmeWith({
            monitors: [
              { kind: 'icmp', name: 'Ping' },
              { kind: 'port', name: 'SSH', port: 22 },
            ],
          }),
        },
        {},
      ),
      withoutPing,
      { prune: false, createOnly: true },
    );
    expect(imported.refused).toEqual([
      {
        kind: 'monitor',
        label: 'ping check "Ping" (Shop)',
        reason: 'the package "pro" does not include icmpChecks',
      },
    ]);
    expect(imported.steps.map((step) => step.label)).toEqual(['port check "SSH" (Shop)']);
  });

  it('prunes only the monitors of a website that lists its monitors, and those of a website it deletes', () => {
    const listed = plan(acmeWith({ monitors: [backup] }), withMonitors(), true);
    expect(listed.steps.map((step) => `${step.action} ${step.label}`)).toEqual([
      'delete DNS check "Address" (Shop)',
      'delete WebSocket check "Feed" (Shop)',
    ]);
    expect(listed.steps[0]).toMatchObject({ kind: 'monitor', address: '70' });
    expect(plan(acmeWith({}), withMonitors(), true).steps).toEqual([]);
    const gone = plan(
      { packages: [{ key: 'pro', displayName: 'pro' }], customers: [{ name: 'Acme', package: 'pro' }] },
      withMonitors(),
      true,
    );
    expect(gone.steps.map((step) => `${step.action} ${step.kind}`)).toEqual([
      'delete monitor',
      'delete monitor',
      'delete monitor',
      'delete website',
    ]);
  });

  it('an export’s monitors as a file plan to nothing against that organization; what is not carried is said', () => {
    const current = withMonitors();
    const { file, notes } = fileFromExport(current);
    // Each as its create takes it: without its ids, times and the names of its credentials.
    const { id, websiteId, createdAt, updatedAt, secretNames, ...feedFields } = current.monitors[1] ?? {};
    expect(file.customers?.[0]?.websites?.[0]?.monitors).toEqual([
      expect.objectContaining({ kind: 'dns', name: 'Address', host: 'shop.example' }),
      feedFields,
      expect.objectContaining({ kind: 'heartbeat', name: 'Backup' }),
    ]);
    expect(notes).toEqual([
      {
        label: 'WebSocket check "Feed" (Shop)',
        note: 'credentials not carried (write-only): headers.Authorization: give them as {env: NAME}',
      },
      {
        label: 'heartbeat "Backup" (Shop)',
        note: 'its ping URL is not carried (a credential): one made from this has a new one',
      },
    ]);
    expect(planChanges(writtenFile(file, {}), current, { prune: true, createOnly: false }).steps).toEqual([]);
  });
});

describe('applyPlan', () => {
  it('replaces references by the ids of things made before, skips what needs a thing not made, stops at a failure when asked', async () => {
    const calls: string[] = [];
    let nextId = 100;
    const writer: ConfigurationWriter = {
      async create(kind, body) {
        calls.push(`${kind} ${JSON.stringify(body)}`);
        if (kind === 'customer' && body.name === 'Broken')
          throw Object.assign(new Error('bad'), { errors: [{ path: 'name', message: 'no' }] });
        nextId += 1;
        return nextId;
      },
      async createWebsites(items) {
        calls.push(`websites ${JSON.stringify(items)}`);
        return items.map(() => {
          nextId += 1;
          return { id: nextId };
        });
      },
      async change() {},
      async remove() {},
    };
    const planned = plan({
      packages: [{ key: 'pro', displayName: 'Pro' }],
      customers: [
        { name: 'Acme', package: 'pro', websites: [{ name: 'A', url: 'https://a.example/' }] },
        { name: 'Broken', package: 'pro', websites: [{ name: 'B', url: 'https://b.example/' }] },
      ],
    });
    const outcomes = await applyPlan(planned, writer, { stopOnFailure: false });
    expect(outcomes.map((o) => `${o.status} ${o.step.label}`)).toEqual([
      'done package "pro"',
      'done customer "Acme"',
      'failed customer "Broken"',
      'done website "A" (Acme)',
      'skipped website "B" (Broken)',
    ]);
    expect(calls[1]).toBe('customer {"name":"Acme","packageId":101}');
    expect(calls[3]).toBe('websites [{"name":"A","url":"https://a.example/","customerId":102}]');
    expect(outcomes[2]?.error).toEqual({ message: 'bad', errors: [{ path: 'name', message: 'no' }] });
    expect(outcomes[4]?.error?.message).toBe('skipped: customer "Broken" was not made');

    const stopping = await applyPlan(planned, writer, { stopOnFailure: true });
    expect(stopping.map((o) => o.status)).toEqual(['done', 'done', 'failed']);
  });

  it('makes a website without a channel that was not made (a list’s reference is dropped, not failed)', async () => {
    const made: unknown[] = [];
    const writer: ConfigurationWriter = {
      async create(kind) {
        if (kind === 'channel') throw new Error('config.routingKey: required');
        return 9;
      },
      async createWebsites(items) {
        made.push(...items);
        return items.map(() => ({ id: 50 }));
      },
      async change() {},
      async remove() {},
    };
    const planned = plan({
      packages: [{ key: 'pro', displayName: 'Pro' }],
      channels: [{ type: 'pagerduty', name: 'Pager', config: {} }],
      customers: [
        {
          name: 'Acme',
          package: 'pro',
          websites: [{ name: 'A', url: 'https://a.example/', notificationChannels: ['Pager'] }],
        },
      ],
    });
    const outcomes = await applyPlan(planned, writer, { stopOnFailure: false });
    expect(outcomes.map((o) => o.status)).toEqual(['done', 'done', 'failed', 'done']);
    expect(made).toEqual([expect.objectContaining({ name: 'A', notificationChannelIds: [] })]);
  });

  it('ends with a stop at a failure when asked', async () => {
    const writer: ConfigurationWriter = {
      create: async () => {
        throw new Error('no');
      },
      createWebsites: async () => [],
      change: async () => {},
      remove: async () => {},
    };
    const planned = plan({
      packages: [
        { key: 'a', displayName: 'A' },
        { key: 'b', displayName: 'B' },
      ],
    });
    const stopping = await applyPlan(planned, writer, { stopOnFailure: true });
    expect(stopping.map((o) => o.status)).toEqual(['failed']);
  });
});

describe('docs/examples/monitoring.yaml', () => {
  it('is a valid monitoring file that plans into an empty organization', () => {
    const text = readFileSync('docs/examples/monitoring.yaml', 'utf8');
    const file = readMonitoringFile(text, {
      ACME_API_KEY: 'key',
      ACME_FEED_TOKEN: 'Bearer feed',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.test/x',
    });
    const result = planChanges(file, emptyOrganization(), { prune: false, createOnly: false });
    expect(planText(result)).toContain('Plan: 11 to create, 0 to change, 0 to delete (0 unchanged).');
    expect(planText(result)).toContain('+ create WebSocket check "Live orders" (Shop)');
  });
});
