import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

const run = promisify(execFile);

describe('admin CLI (npm run admin)', () => {
  let api: TestApi;
  const adminWith = async (mongoUrl: string, args: string[]) => {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', 'apps/cli/admin.ts', ...args],
        {
          env: { ...process.env, MONGODB_URL: mongoUrl },
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
    [['create-org', '--nmae', 'x'], 2, "Unknown option '--nmae'"],
  ])('%j fails with exit %i and says why', async (args, code, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('says how to fix an unreachable MongoDB', async () => {
    const { stderr, code } = await adminWith('mongodb://127.0.0.1:1/none', ['list-tokens']);
    expect(code).toBe(1);
    expect(stderr).toContain('is `npm start` running, or MONGODB_URL set?');
  }, 20_000);
});
