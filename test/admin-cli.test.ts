import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE } from '../apps/cli/admin/command-line.js';
import { COMMANDS } from '../apps/cli/admin/commands.js';
import { keyIdOf, SecretBox } from '../libs/secrets/index.js';
import { TestApi } from './support/harness.js';
import { sessionCookieOf, withCookie } from './support/people.js';
import { selfSignedClientCertificate } from './support/pki.js';

const run = promisify(execFile);

// The commands live in modules by subject (apps/cli/admin/*-commands.ts): each one USAGE lists has
// its module's handler, and no handler is left out of USAGE.
describe('admin CLI commands', () => {
  it('USAGE lists exactly the commands the modules define', () => {
    const listed = [...USAGE.matchAll(/^ {2}([a-z][a-z-]+)(?= |$)/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(Object.keys(COMMANDS).sort());
  });
});

// Each call starts a Node process with tsx: seconds on a busy machine, so generous limits (a process
// that does start is never failed for being slow).
describe('admin CLI (npm run admin)', { timeout: 180_000 }, () => {
  let api: TestApi;
  const adminWith = async (mongoUrl: string, args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', 'apps/cli/admin.ts', ...args],
        {
          env: { ...process.env, MONGODB_URL: mongoUrl, ...env },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const admin = (...args: string[]) => adminWith(api.config.MONGODB_URL, args);

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.stop());

  it('answers --help, help <command> and <command> --help', async () => {
    const all = await admin('--help');
    expect(all).toMatchObject({ code: 0, stdout: expect.stringContaining('Commands:') });
    const one = await admin('help', 'create-token');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^Usage: npm run admin -- create-token --org ID --scopes/);
    expect(one.stdout).not.toContain('create-org');
    expect((await admin('create-package', '--help')).stdout).toContain('create-package --org ID --key KEY');
    const unknown = await admin('help', 'launch-rockets');
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command launch-rockets'),
    });
  });

  it('create-org prints one JSON line with an admin token that works over the API', async () => {
    const result = await admin('create-org', '--name', 'Acme Agency');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!) as { organizationId: number; token: string };
    expect(created).toEqual({ organizationId: expect.any(Number), token: expect.stringMatching(/^wm_/) });
    const tokens = await api.request<Array<{ scopes: string[] }>>('GET', '/api/tokens', {
      token: created.token,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body[0]?.scopes).toEqual(['admin']);
  });

  it('create-org --owner-email prints an owner invitation link that works, on stdout only', async () => {
    const result = await adminWith(
      api.config.MONGODB_URL,
      ['create-org', '--name', 'Gamma', '--owner-email', 'Founder@Example.com'],
      { PUBLIC_URL: 'https://monitor.example.test' },
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as {
      token: string;
      ownerInvitation: { email: string; expiresAt: string; link: string };
    };
    expect(created.token).toMatch(/^wm_/);
    expect(created.ownerInvitation).toMatchObject({ email: 'founder@example.com' });
    const link = new URL(created.ownerInvitation.link);
    expect(`${link.origin}${link.pathname}`).toBe('https://monitor.example.test/accept-invitation');
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.stderr).not.toContain(token);
    const accepted = await api.request('POST', '/api/auth/accept-invitation', {
      body: { token, name: 'Founder', password: 'granite-harbor-53-violet' },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ user: { email: 'founder@example.com', role: 'owner' } });
    const again = await adminWith(api.config.MONGODB_URL, [
      'create-org',
      '--name',
      'Delta',
      '--owner-email',
      'founder@example.com',
    ]);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('has an account already') });
  });

  it('create-org makes the package "standard": the seed\'s first call works at once, for its token and its first owner', async () => {
    const result = await admin('create-org', '--name', 'Epsilon', '--owner-email', 'first-owner@example.com');
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as {
      organizationId: number;
      token: string;
      ownerInvitation: { link: string };
    };
    const packages = (await admin('list-packages', '--org', String(created.organizationId))).stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { features: Record<string, boolean> });
    expect(packages).toHaveLength(1);
    // The limits and alerting docs/resources.md documents.
    expect(packages[0]).toMatchObject({
      key: 'standard',
      displayName: 'Standard',
      limits: {
        maxWebsites: 50,
        minCheckIntervalSeconds: 60,
        resultRetentionDays: 30,
        maxHeartbeatsPerWebsite: 10,
      },
      alerting: {
        confirmations: 2,
        recoveryConfirmations: 1,
        responseTimeThresholdMs: 5000,
        regionQuorum: 1,
      },
    });
    expect(Object.values(packages[0]!.features).every(Boolean)).toBe(true);
    const seedCall = { name: 'Acme', plan: 'standard' };
    const byToken = await api.request('POST', '/api/v1/customers', { token: created.token, body: seedCall });
    expect(byToken).toMatchObject({ status: 201, body: { status: 'active' } });
    // The first owner signs up from the printed link, and the call works with their session too.
    const signUp = await api.request('POST', '/api/auth/accept-invitation', {
      body: {
        token: new URL(created.ownerInvitation.link).searchParams.get('token'),
        name: 'First Owner',
        password: 'granite-harbor-53-violet',
      },
    });
    expect(signUp.status).toBe(201);
    const cookie = sessionCookieOf(signUp)!;
    const byOwner = await withCookie(api, cookie, 'POST', '/api/v1/customers', {
      body: { ...seedCall, name: 'Beta' },
    });
    expect(byOwner).toMatchObject({ status: 201, body: { status: 'active' } });
  });

  it('create-token, list-tokens and revoke-token', async () => {
    const org = JSON.parse((await admin('create-org', '--name', 'Beta')).stdout) as {
      organizationId: number;
    };
    const made = await admin(
      'create-token',
      '--org',
      String(org.organizationId),
      '--scopes',
      'read,write',
      '--name',
      'deploys',
    );
    expect(made.code).toBe(0);
    const token = JSON.parse(made.stdout) as { token: string; tokenId: number; scopes: string[] };
    expect(token.scopes).toEqual(['read', 'write']);
    expect((await api.request('GET', '/readyz', { token: token.token })).status).toBe(200);

    const listed = (await admin('list-tokens', '--org', String(org.organizationId))).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(listed).toHaveLength(2);
    expect(listed.find((t) => t.id === token.tokenId)).toMatchObject({ name: 'deploys', revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(token.token);

    const revoked = await admin('revoke-token', '--token-prefix', token.token.slice(0, 11));
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ revoked: true, tokenId: token.tokenId });
    expect((await api.request('GET', '/api/v1/monitoring-nodes', { token: token.token })).status).toBe(401);
  });

  it.each([
    [['create-org'], 2, '--name is required'],
    [['create-token', '--org', 'abc', '--scopes', 'read'], 2, '--org'],
    [['create-token', '--org', '999999', '--scopes', 'read'], 1, 'no organization 999999'],
    [['create-token', '--org', '1', '--scopes', 'read,root'], 2, '--scopes'],
    [['revoke-token', '--token-prefix', 'wm_'], 2, '--token-prefix'],
    [['launch-rockets'], 2, 'unknown command'],
    [['create-package', '--org', '1', '--key', 'Bad Key', '--display-name', 'x'], 2, 'key:'],
    [['create-package', '--org', '1', '--key', 'k', '--display-name', 'x', '--settings', '{'], 2, 'JSON'],
    [
      [
        'create-package',
        '--org',
        '1',
        '--key',
        'k',
        '--display-name',
        'x',
        '--settings',
        '{"limits":{"maxWebsites":-1}}',
      ],
      2,
      'limits.maxWebsites',
    ],
    [['create-org', '--nmae', 'x'], 2, "Unknown option '--nmae'"],
  ])('%j fails with exit %i and says why', async (args, code, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('create-package and list-packages; the package works over the API', async () => {
    const { organizationId, token } = JSON.parse((await admin('create-org', '--name', 'Gamma')).stdout) as {
      organizationId: number;
      token: string;
    };
    const org = String(organizationId);
    const made = await admin(
      'create-package',
      '--org',
      org,
      '--key',
      'agency',
      '--display-name',
      'Agency',
      '--settings',
      '{"features":{"mtls":false},"limits":{"maxWebsites":5}}',
    );
    expect(made.code).toBe(0);
    const created = JSON.parse(made.stdout) as Record<string, unknown>;
    expect(created).toMatchObject({
      organizationId,
      key: 'agency',
      displayName: 'Agency',
      features: { mtls: false, sslCheck: true },
      limits: { maxWebsites: 5, minCheckIntervalSeconds: 60 },
      alerting: { confirmations: 2 },
    });
    const again = await admin('create-package', '--org', org, '--key', 'agency', '--display-name', 'Again');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already has a package with key "agency"');
    const listed = (await admin('list-packages', '--org', org)).stdout.trim().split('\n');
    expect(listed.map((line) => JSON.parse(line).key)).toEqual(['standard', 'agency']);
    const customer = await api.request('POST', '/api/v1/customers', {
      token,
      body: { name: 'Acme', plan: 'agency' },
    });
    expect(customer.status).toBe(201);
  });

  it('reseal-secrets moves every stored secret to the new key, once, and says what it cannot open', async () => {
    const { token } = JSON.parse((await admin('create-org', '--name', 'Delta')).stdout) as { token: string };
    const pkg = await api.request<{ id: number }>('POST', '/api/packages', {
      token,
      body: { key: 'all', displayName: 'All' },
    });
    const customer = await api.request<{ id: number }>('POST', '/api/customers', {
      token,
      body: { name: 'Acme', packageId: pkg.body.id },
    });
    const pair = selfSignedClientCertificate();
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: {
        customerId: customer.body.id,
        name: 'mTLS',
        url: 'https://mtls.example.com/',
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKey: pair.key,
        customHeaders: { Authorization: 'Bearer rotate-me' },
        secretHeaders: { 'X-Api-Key': 'key-rotate-me' },
        httpMethod: 'POST',
        requestBody: 'body-rotate-me',
        requestBodySecret: true,
      },
    });
    const channel = await api.request<{ id: number }>('POST', '/api/notification-channels', {
      token,
      body: { type: 'opsgenie', name: 'Genie', config: { apiKey: '0a1b2c3d-0000-4000-8000-123456789abc' } },
    });
    const heartbeat = await api.request<{ id: number; pingUrl: string }>(
      'POST',
      `/api/websites/${website.body.id}/heartbeats`,
      { token, body: { name: 'Backup', schedule: { periodSeconds: 3600 } } },
    );
    const socket = await api.request<{ id: number }>('POST', `/api/websites/${website.body.id}/monitors`, {
      token,
      body: {
        kind: 'websocket',
        url: 'wss://rt.example.com/',
        headers: { Authorization: 'Bearer ws-rotate-me' },
      },
    });
    const provider = await api.request<{ id: number }>('POST', '/api/identity-providers', {
      token,
      body: {
        type: 'oidc',
        name: 'Delta IdP',
        issuer: 'https://idp.delta.example',
        clientId: 'webmon',
        clientSecret: 'client-secret-rotate-me',
        allowedDomains: ['delta.example'],
        roleMapping: [{ group: 'staff', role: 'viewer' }],
      },
    });
    expect([website.status, channel.status, heartbeat.status, socket.status, provider.status]).toEqual([
      201, 201, 201, 201, 201,
    ]);
    // A status page's subscriber: its unsubscribe token is sealed.
    const slug = `delta-${Date.now().toString(36)}`;
    const page = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug, title: 'Delta', customerId: customer.body.id, public: true },
    });
    expect(page.status).toBe(201);
    await api.request('POST', `/status/${slug}/subscriptions`, { body: { email: 'reader@example.com' } });
    await expect
      .poll(() =>
        api.db.collection('status_page_subscribers').countDocuments({ email: 'reader@example.com' }),
      )
      .toBe(1);

    const oldKey = api.config.SECRETS_KEY as Buffer;
    const newKey = Buffer.alloc(32, 42);
    const rotation = {
      SECRETS_KEY: newKey.toString('base64'),
      SECRETS_KEYS_PREVIOUS: oldKey.toString('base64'),
    };
    const first = await adminWith(api.config.MONGODB_URL, ['reseal-secrets'], rotation);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      // The client key, two credential headers and the body.
      websites: { documents: 1, resealed: 4, unreadable: 0 },
      notificationChannels: { documents: 1, resealed: 1, unreadable: 0 },
      twoFactorSecrets: { documents: 0, resealed: 0, unreadable: 0 },
      monitorSecrets: { documents: 2, resealed: 2, unreadable: 0 },
      subscriberSecrets: { documents: 1, resealed: 1, unreadable: 0 },
      samlKeys: { documents: 0, resealed: 0, unreadable: 0 },
      identityProviderSecrets: { documents: 1, resealed: 1, unreadable: 0 },
    });
    // Only the new key is needed now, and the secrets still open where they belong.
    const box = new SecretBox(newKey);
    const storedHeartbeat = await api.db.collection('website_monitors').findOne({ id: heartbeat.body.id });
    expect(
      box.open(storedHeartbeat?.tokenSealed, `website_monitors/heartbeat/${storedHeartbeat?.tokenHash}`),
    ).toBe(new URL(heartbeat.body.pingUrl).pathname.split('/').at(-1));
    const storedSocket = await api.db.collection('website_monitors').findOne({ id: socket.body.id });
    expect(box.open(storedSocket?.sealed[0].value, 'website_monitors/websocket/headers/authorization')).toBe(
      'Bearer ws-rotate-me',
    );
    const storedWebsite = await api.db.collection('websites').findOne({ id: website.body.id });
    expect(storedWebsite?.mtlsClientKey.kid).toBe(keyIdOf(newKey));
    expect(box.open(storedWebsite?.mtlsClientKey, `websites/${website.body.id}/mtlsClientKey`)).toBe(
      pair.key,
    );
    const opened = Object.fromEntries(
      ((storedWebsite?.secretHeaders ?? []) as Array<{ name: string; value: never }>).map(
        ({ name, value }) => [
          name,
          box.open(value, `websites/${website.body.id}/secretHeaders/${name.toLowerCase()}`),
        ],
      ),
    );
    expect(opened).toEqual({ Authorization: 'Bearer rotate-me', 'X-Api-Key': 'key-rotate-me' });
    expect(box.open(storedWebsite?.requestBodySealed, `websites/${website.body.id}/requestBody`)).toBe(
      'body-rotate-me',
    );
    const storedChannel = await api.db.collection('notification_channels').findOne({ id: channel.body.id });
    expect(box.open(storedChannel?.secrets.apiKey, `notification-channels/${channel.body.id}/apiKey`)).toBe(
      '0a1b2c3d-0000-4000-8000-123456789abc',
    );

    const storedProvider = await api.db.collection('identity_providers').findOne({ id: provider.body.id });
    expect(
      box.open(storedProvider?.oidc.clientSecret, `identity-provider:${provider.body.id}:clientSecret`),
    ).toBe('client-secret-rotate-me');

    const second = await adminWith(api.config.MONGODB_URL, ['reseal-secrets'], rotation);
    expect(JSON.parse(second.stdout).websites.resealed).toBe(0);

    // A key that sealed nothing stored here: everything is unreadable, and it says what to do.
    const wrong = await adminWith(api.config.MONGODB_URL, ['reseal-secrets'], {
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      SECRETS_KEYS_PREVIOUS: '',
    });
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ websites: { unreadable: 4 } });
    expect(wrong.stderr).toContain('add the key that sealed them to SECRETS_KEYS_PREVIOUS');
  });

  it('says how to fix an unreachable MongoDB', async () => {
    const { stderr, code } = await adminWith('mongodb://127.0.0.1:1/none', ['list-tokens']);
    expect(code).toBe(1);
    expect(stderr).toContain('is `npm start` running, or MONGODB_URL set?');
  });
});
