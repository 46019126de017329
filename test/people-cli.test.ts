import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, signIn, withCookie } from './support/people.js';

// Each call starts a Node process with tsx: seconds on a busy machine, so generous limits.
describe('admin CLI: create-user and reset-password', { timeout: 180_000 }, () => {
  let api: TestApi;
  let organizationId: number;

  /** Runs `npm run admin -- …` against the test database, with `stdin` on its standard input. */
  const admin = (args: string[], stdin = '') =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'apps/cli/admin.ts', ...args],
        { env: { ...process.env, MONGODB_URL: api.config.MONGODB_URL } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin?.end(stdin);
    });

  /** `create-user` in the test organization: e-mail, name, role, then any other flags; `stdin` on its input. */
  const createUser = (user: [email: string, name: string, role: string, ...more: string[]], stdin = '') => {
    const [email, name, role, ...more] = user;
    const flags = ['--org', String(organizationId), '--email', email, '--name', name, '--role', role];
    return admin(['create-user', ...flags, ...more], stdin);
  };

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
  });
  afterAll(() => api.stop());

  it('create-user prints the user and a generated password once; the user signs in with it', async () => {
    const result = await createUser(['Owner@Example.com', 'The Owner', 'owner']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!) as { id: number; email: string; role: string; password: string };
    expect(created).toMatchObject({ organizationId, email: 'owner@example.com', role: 'owner' });
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const stored = await api.db.collection('users').findOne({ id: created.id });
    expect(JSON.stringify(stored)).not.toContain(created.password);

    const cookie = await signIn(api, 'owner@example.com', created.password);
    const me = await withCookie<{ user: { role: string } }>(api, cookie, 'GET', '/api/me');
    expect(me.body.user.role).toBe('owner');

    const again = await createUser(['owner@EXAMPLE.com', 'Twin', 'viewer']);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('exists') });
  });

  it('--password-stdin takes the password from standard input, checked by the policy', async () => {
    const withPassword = (stdin: string) =>
      createUser(['e@example.com', 'Ed', 'editor', '--password-stdin'], stdin);
    const weak = await withPassword('Password1234!\n');
    expect(weak).toMatchObject({ code: 1, stderr: expect.stringContaining('too easy to guess') });
    expect((await withPassword('short\n')).stderr).toContain('at least 12');
    // The same rule as the API's.
    expect((await withPassword('aaaaaaaaaaaa\n')).stderr).toContain('in a row');
    const made = await withPassword('violet-harbour-nine-lamps\n');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).not.toHaveProperty('password');
    await signIn(api, 'e@example.com', 'violet-harbour-nine-lamps');
  });

  it('a client needs --customer of the organization, no other role takes one', async () => {
    const token = await api.createToken(organizationId, ['admin']);
    const pkg = await createPackage(api, token);
    const customer = await api.request<{ id: number }>('POST', '/api/customers', {
      token,
      body: { name: 'Client Co', packageId: pkg.id, email: 'c@example.com' },
    });
    const missing = await createUser(['c1@example.com', 'Cl', 'client']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--customer: Required for a client'),
    });
    const unknown = await createUser(['c1@example.com', 'Cl', 'client', '--customer', '9999']);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('no customer 9999') });
    expect((await createUser(['c1@example.com', 'Cl', 'viewer', '--customer', '1'])).code).toBe(2);
    const made = await createUser(['c1@example.com', 'Cl', 'client', '--customer', String(customer.body.id)]);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ role: 'client', customerId: customer.body.id });
  });

  it("reset-password sets a new password and ends the user's sessions", async () => {
    const made = await createUser(['r@example.com', 'Reset', 'viewer']);
    const { password } = JSON.parse(made.stdout) as { password: string };
    const cookie = await signIn(api, 'r@example.com', password);
    const reset = await admin(['reset-password', '--email', 'R@example.com']);
    expect(reset.code).toBe(0);
    const answer = JSON.parse(reset.stdout) as { password: string; sessionsEnded: boolean };
    expect(answer.sessionsEnded).toBe(true);
    expect(answer.password).not.toBe(password);
    expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(401);
    const old = await api.request('POST', '/api/auth/login', { body: { email: 'r@example.com', password } });
    expect(old.status).toBe(401);
    await signIn(api, 'r@example.com', answer.password);
    expect((await admin(['reset-password', '--email', 'nobody@example.com'])).code).toBe(1);
  });

  it("reset-password --password-stdin holds the password to the policy: not the person's e-mail", async () => {
    await createUser(['rosalind.franklin@example.com', 'Rosalind', 'viewer']);
    const reset = (stdin: string) =>
      admin(['reset-password', '--email', 'rosalind.franklin@example.com', '--password-stdin'], stdin);
    expect(await reset('Rosalind.Franklin1958\n')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('e-mail'),
    });
    expect((await reset('quartz-meadow-61-lantern\n')).code).toBe(0);
    await signIn(api, 'rosalind.franklin@example.com', 'quartz-meadow-61-lantern');
  });

  it('require-two-factor sets the roles whose sign-ins must enrol first; an empty list clears it', async () => {
    const made = await createUser(['tf@example.com', 'Strict', 'admin']);
    const { password } = JSON.parse(made.stdout) as { password: string };
    const org = String(organizationId);
    const set = await admin(['require-two-factor', '--org', org, '--roles', 'owner,admin']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ organizationId, requireTwoFactorFor: ['owner', 'admin'] });
    const held = await signIn(api, 'tf@example.com', password);
    expect((await withCookie(api, held, 'GET', '/api/websites')).status).toBe(403);

    expect((await admin(['require-two-factor', '--org', org, '--roles', 'boss'])).code).toBe(2);
    const cleared = await admin(['require-two-factor', '--org', org, '--roles', '']);
    expect(JSON.parse(cleared.stdout)).toEqual({ organizationId, requireTwoFactorFor: [] });
    const free = await signIn(api, 'tf@example.com', password);
    expect((await withCookie(api, free, 'GET', '/api/websites')).status).toBe(200);
  });
});
