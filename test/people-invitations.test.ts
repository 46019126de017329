import { Writable } from 'node:stream';
import { type CommandStartedEvent, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../apps/api/api.js';
import { OrganizationRepository } from '../libs/auth/index.js';
import { createLogger } from '../libs/logging/index.js';
import { InvitationRepository } from '../libs/people/index.js';
import { createCustomer, createPackage, TestApi, testConfig } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import {
  createOrganizationId,
  createUser,
  problemOf,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
  withCookie,
} from './support/people.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'smtp-secret-9f3' };
const PUBLIC_URL = 'https://monitor.example.test/webmon';
const NEW_PASSWORD = 'copper-lantern-82-meadow';

/** The text of a received mail, quoted-printable soft breaks and `=3D` undone. */
const textOf = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${what}`);
}

/** The token of the link to `path` in the latest mail to `to`. */
async function linkTokenMailedTo(receiver: MailReceiver, to: string, path: string): Promise<string> {
  const pattern = new RegExp(`${PUBLIC_URL}/${path}\\?token=([A-Za-z0-9_-]{43})`);
  return waitFor(() => {
    const mail = receiver.mails.findLast((m) => m.to.includes(to));
    return mail ? pattern.exec(textOf(mail.raw))?.[1] : undefined;
  }, `mail to ${to} with a ${path} link`);
}

/** An API whose log lines are kept, to check no token or secret is in them. */
async function startLoggedApi(env: Record<string, string>): Promise<{ api: TestApi; logs: () => string }> {
  let logs = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  const config = testConfig({ ...env, LOG_LEVEL: 'trace' });
  const server = await startApi(config, createLogger('api', 'trace', sink));
  const mongo = new MongoClient(config.MONGODB_URL);
  await mongo.connect();
  // A TestApi around this server (its constructor is private to TestApi.start, which logs nowhere).
  const api = Object.assign(Object.create(TestApi.prototype) as TestApi, {
    api: server,
    config,
    mongo,
    nodes: [],
  });
  return { api, logs: () => logs };
}

describe('people: invitations and password reset by e-mail', { timeout: 60_000 }, () => {
  let receiver: MailReceiver;
  let api: TestApi;
  let logs: () => string;
  let organizationId: number;
  let adminToken: string;
  let customerId: number;
  const tokensSeen: string[] = [];

  beforeAll(async () => {
    receiver = await startMailReceiver(SMTP_ACCOUNT);
    ({ api, logs } = await startLoggedApi({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${receiver.port}?ignoreTLS=true`,
      SMTP_FROM: 'webmon <monitor@example.test>',
      PUBLIC_URL,
    }));
    organizationId = await createOrganizationId(api);
    adminToken = await api.createToken(organizationId, ['admin']);
    customerId = await createCustomer(api, adminToken, (await createPackage(api, adminToken)).id);
  });
  afterAll(async () => {
    await api.stop();
    await receiver.close();
  });

  const invite = (body: Record<string, unknown>) =>
    api.request<Record<string, unknown>>('POST', '/api/invitations', { token: adminToken, body });
  const accept = (token: string, password = NEW_PASSWORD) =>
    api.request<{ user: { email: string; role: string } }>('POST', '/api/auth/accept-invitation', {
      body: { token, name: 'New Person', password },
    });

  it('mails a one-time link; accepting it makes the user, signed in; a second time it is refused', async () => {
    const email = 'Invitee.One@Example.com';
    const created = await invite({ email, role: 'editor' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      email: 'invitee.one@example.com',
      role: 'editor',
      customerId: null,
      expiresAt: expect.any(String),
    });
    const hoursLeft = (Date.parse(created.body.expiresAt as string) - Date.now()) / 3600_000;
    expect(hoursLeft).toBeGreaterThan(71.9);
    expect(hoursLeft).toBeLessThanOrEqual(72);
    const token = await linkTokenMailedTo(receiver, 'invitee.one@example.com', 'accept-invitation');
    tokensSeen.push(token);
    expect(receiver.mails.at(-1)).toMatchObject({
      from: 'monitor@example.test',
      user: SMTP_ACCOUNT.username,
    });
    // Only the token's SHA-256 is stored.
    expect(JSON.stringify(await api.db.collection('invitations').find().toArray())).not.toContain(token);
    const listed = await api.request<Array<{ id: number }>>('GET', '/api/invitations', { token: adminToken });
    expect(listed.body.map((i) => i.id)).toContain(created.body.id);

    const accepted = await accept(token);
    expect(accepted.status).toBe(201);
    expect(accepted.body.user).toMatchObject({ email: 'invitee.one@example.com', role: 'editor' });
    const cookie = sessionCookieOf(accepted)!;
    const me = await withCookie<{ user: { email: string } }>(api, cookie, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('invitee.one@example.com');

    const again = await accept(token);
    const unknown = await accept('A'.repeat(43));
    expect(again.status).toBe(400);
    expect(problemOf(again.body)).toEqual(problemOf(unknown.body));
    expect((again.body as unknown as { errors: Array<{ path: string }> }).errors[0]?.path).toBe('token');
    const after = await api.request<Array<{ id: number }>>('GET', '/api/invitations', { token: adminToken });
    expect(after.body.map((i) => i.id)).not.toContain(created.body.id);
  });

  it('holds an accepted admin to the two-factor enrolment when the organization requires it', async () => {
    const policy = new OrganizationRepository(api.db);
    await policy.setTwoFactorRequiredFor(organizationId, ['owner', 'admin']);
    try {
      expect((await invite({ email: 'strict.admin@example.com', role: 'admin' })).status).toBe(201);
      const token = await linkTokenMailedTo(receiver, 'strict.admin@example.com', 'accept-invitation');
      tokensSeen.push(token);
      const accepted = await accept(token);
      expect(accepted.status).toBe(201);
      const cookie = sessionCookieOf(accepted) as string;
      const refused = await withCookie(api, cookie, 'GET', '/api/websites');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ reason: 'two-factor-enrolment-required' });
      expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(200);
    } finally {
      await policy.setTwoFactorRequiredFor(organizationId, []);
    }
  });

  it('refuses an expired invitation as an unknown one', async () => {
    const { token } = await new InvitationRepository(api.db).create(
      { organizationId, email: 'late@example.com', role: 'viewer', customerId: null },
      -1000,
    );
    const expired = await accept(token);
    expect(expired.status).toBe(400);
    expect(problemOf(expired.body)).toEqual(problemOf((await accept('B'.repeat(43))).body));
  });

  it('keeps the link working when the password is refused by the policy', async () => {
    await invite({ email: 'careful@example.com', role: 'viewer' });
    const token = await linkTokenMailedTo(receiver, 'careful@example.com', 'accept-invitation');
    tokensSeen.push(token);
    const weak = await accept(token, 'password1234');
    expect(weak.status).toBe(400);
    expect((weak.body as unknown as { errors: Array<{ path: string }> }).errors[0]?.path).toBe('password');
    expect((await accept(token)).status).toBe(201);
  });

  it('binds a client invitation to an existing customer of the organization, and only a client', async () => {
    const missing = await invite({ email: 'client@example.com', role: 'client' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.errors)).toContain('customerId');
    const notClient = await invite({ email: 'client@example.com', role: 'viewer', customerId });
    expect(notClient.status).toBe(400);
    expect(JSON.stringify(notClient.body.errors)).toContain('customerId');
    const unknownCustomer = await invite({
      email: 'client@example.com',
      role: 'client',
      customerId: 999_999,
    });
    expect(unknownCustomer.status).toBe(400);
    const client = await invite({ email: 'client@example.com', role: 'client', customerId });
    expect(client.status).toBe(201);
    const token = await linkTokenMailedTo(receiver, 'client@example.com', 'accept-invitation');
    tokensSeen.push(token);
    const accepted = await accept(token);
    expect(accepted.body.user).toMatchObject({ role: 'client', customerId });
  });

  it('withdraws an invitation: its link stops working', async () => {
    const created = await invite({ email: 'withdrawn@example.com', role: 'viewer' });
    const token = await linkTokenMailedTo(receiver, 'withdrawn@example.com', 'accept-invitation');
    tokensSeen.push(token);
    const path = `/api/invitations/${created.body.id}`;
    expect((await api.request('DELETE', path, { token: adminToken })).status).toBe(204);
    expect((await api.request('DELETE', path, { token: adminToken })).status).toBe(404);
    expect((await accept(token)).status).toBe(400);
  });

  it('only an owner invites an owner; an e-mail with an account in the organization is 409', async () => {
    expect((await invite({ email: 'boss@example.com', role: 'owner' })).status).toBe(403);
    const { email } = await createUser(api, organizationId, 'viewer');
    expect((await invite({ email, role: 'viewer' })).status).toBe(409);
  });

  it("answers inviting an address with an account in another organization as any other (no hint of another tenant's people)", async () => {
    const elsewhere = await createUser(api, await createOrganizationId(api), 'viewer');
    const shape = (body: Record<string, unknown>) => ({ ...body, id: 0, email: '', expiresAt: '' });
    const unknown = await invite({ email: 'a-stranger@example.com', role: 'viewer' });
    const known = await invite({ email: elsewhere.email, role: 'viewer' });
    expect([unknown.status, known.status]).toEqual([201, 201]);
    expect(shape(known.body)).toEqual(shape(unknown.body));
    expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
    const listed = await api.request<Array<{ email: string }>>('GET', '/api/invitations', {
      token: adminToken,
    });
    expect(listed.body.map((i) => i.email)).toEqual(
      expect.arrayContaining([elsewhere.email, 'a-stranger@example.com']),
    );
    // The address is told it has an account already, with no link that would fail.
    const mail = await waitFor(
      () => receiver.mails.findLast((m) => m.to.includes(elsewhere.email)),
      'the mail',
    );
    expect(textOf(mail.raw)).toContain('has an account already');
    expect(textOf(mail.raw)).not.toContain('accept-invitation');
  });

  it("refuses a new password holding the person's e-mail or organization's name, on acceptance and on reset", async () => {
    await invite({ email: 'grace.hopper@example.com', role: 'viewer' });
    const token = await linkTokenMailedTo(receiver, 'grace.hopper@example.com', 'accept-invitation');
    tokensSeen.push(token);
    const own = await accept(token, 'GraceHopper-1906!');
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({
      errors: [{ path: 'password', message: expect.stringContaining('e-mail') }],
    });
    const name = (await new OrganizationRepository(api.db).findById(organizationId))!.name;
    const organization = await accept(token, `${name.replace(/\s/g, '')}-Lantern-91`);
    expect(organization.body).toMatchObject({
      errors: [{ path: 'password', message: expect.stringContaining('organization') }],
    });
    const blank = await accept(token, ' '.repeat(14));
    expect(blank.body).toMatchObject({
      errors: [{ path: 'password', message: expect.stringContaining('spaces') }],
    });
    expect((await accept(token)).status).toBe(201);
  });

  it('resets a password by a one-time link, ending every session; an unknown e-mail gets the same 202', async () => {
    const { email } = await createUser(api, organizationId, 'editor');
    const oldSession = await signIn(api, email);
    const mailsBefore = receiver.mails.length;
    const unknown = await api.request('POST', '/api/auth/password-reset', {
      body: { email: 'nobody@example.com' },
    });
    const known = await api.request('POST', '/api/auth/password-reset', {
      body: { email: email.toUpperCase() },
    });
    expect([unknown.status, known.status]).toEqual([202, 202]);
    expect(known.headers.get('content-type')).toMatch(/^application\/json/);
    expect(known.body).toEqual({ status: 'accepted' });
    expect(known.body).toEqual(unknown.body);
    const token = await linkTokenMailedTo(receiver, email, 'reset-password');
    tokensSeen.push(token);
    expect(receiver.mails.slice(mailsBefore).map((m) => m.to)).toEqual([[email]]);

    const confirm = (password: string) =>
      api.request('POST', '/api/auth/password-reset/confirm', { body: { token, password } });
    expect((await confirm('short')).status).toBe(400);
    expect((await confirm(NEW_PASSWORD)).status).toBe(204);
    expect((await withCookie(api, oldSession, 'GET', '/api/me')).status).toBe(401);
    const login = (password: string) => api.request('POST', '/api/auth/login', { body: { email, password } });
    expect((await login(TEST_PASSWORD)).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    const again = await confirm('another-fine-passphrase-77');
    expect(again.status).toBe(400);
    expect((again.body as { errors: Array<{ path: string }> }).errors[0]?.path).toBe('token');
  });

  it('mails no reset link to a person who signs in through their identity provider, nor to a deactivated one, answering the same 202', async () => {
    const passwordless = await createUser(api, organizationId, 'editor');
    const deactivated = await createUser(api, organizationId, 'viewer');
    const users = api.db.collection('users');
    await users.updateOne({ email: passwordless.email }, { $set: { passwordHash: '' } });
    await users.updateOne({ email: deactivated.email }, { $set: { disabledAt: new Date() } });
    const control = await createUser(api, organizationId, 'viewer');
    for (const { email } of [passwordless, deactivated, control]) {
      const asked = await api.request('POST', '/api/auth/password-reset', { body: { email } });
      expect([asked.status, asked.body]).toEqual([202, { status: 'accepted' }]);
    }
    // The control's link arrives after the others were judged: they were asked for first.
    await linkTokenMailedTo(receiver, control.email, 'reset-password');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mailed = receiver.mails.flatMap((mail) => mail.to);
    expect(mailed).not.toContain(passwordless.email);
    expect(mailed).not.toContain(deactivated.email);
    // Said in the log, which the request's own logger writes (a missing one failed unseen but for an unhandled rejection).
    const notSent = logs()
      .split('\n')
      .filter((line) =>
        line.includes('password reset not sent: the account signs in through its identity provider'),
      );
    expect(notSent).toHaveLength(2);
  });

  it('mails one user at most 3 reset links an hour, still answering 202', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const mailsTo = () => receiver.mails.filter((m) => m.to.includes(email)).length;
    for (let i = 0; i < 4; i++)
      expect((await api.request('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202);
    await waitFor(() => (mailsTo() >= 3 ? true : undefined), 'three reset mails');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo()).toBe(3);
  });

  // FerretDB 1.24 answers only an exact `{_id: <string>}` filter from the primary key; any other scans.
  it('finds an invitation by token hash in primary-key reads only, known or not', async () => {
    const monitored = new MongoClient(api.config.MONGODB_URL, { monitorCommands: true });
    const filters: Document[] = [];
    monitored.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.commandName === 'find') filters.push(event.command.filter as Document);
    });
    await monitored.connect();
    try {
      const invitations = new InvitationRepository(monitored.db());
      const { invitation } = await invitations.create({
        organizationId,
        email: 'lookup@example.com',
        role: 'viewer',
        customerId: null,
      });
      filters.length = 0;
      expect(await invitations.findByTokenHash(invitation.tokenHash)).toMatchObject({ id: invitation.id });
      expect(await invitations.findByTokenHash('0'.repeat(64))).toBeNull();
      expect(filters.length).toBeGreaterThanOrEqual(3);
      for (const filter of filters) expect(Object.keys(filter)).toEqual(['_id']);
    } finally {
      await monitored.close();
    }
  });

  it('writes no token or SMTP password to its log', () => {
    expect(tokensSeen.length).toBeGreaterThan(3);
    const written = logs();
    expect(written).toContain('invitation accepted');
    for (const token of tokensSeen) expect(written).not.toContain(token);
    expect(written).not.toContain(SMTP_ACCOUNT.password);
  });
});

describe("people: without SMTP_URL, through the organization's e-mail channel", { timeout: 60_000 }, () => {
  let receiver: MailReceiver;
  let api: TestApi;
  let logs: () => string;

  beforeAll(async () => {
    receiver = await startMailReceiver(SMTP_ACCOUNT);
    // The receiver is on this machine: the SSRF guard lets deliveries reach private addresses here.
    ({ api, logs } = await startLoggedApi({ PUBLIC_URL, ALLOW_PRIVATE_TARGETS: 'true' }));
  });
  afterAll(async () => {
    await api.stop();
    await receiver.close();
  });

  it("mails invitations and reset links through the channel's server; an organization without one is 503 saying what to set", async () => {
    const organizationId = await createOrganizationId(api);
    const token = await api.createToken(organizationId, ['admin']);
    const channel = await api.request<{ id: number }>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'email',
        name: 'Agency mail',
        config: {
          host: '127.0.0.1',
          port: receiver.port,
          username: SMTP_ACCOUNT.username,
          password: SMTP_ACCOUNT.password,
          from: 'agency@example.test',
          to: ['ops@example.test'],
        },
      },
    });
    expect(channel.status).toBe(201);
    const email = `via-channel-${Date.now()}@example.com`;
    const invited = await api.request('POST', '/api/invitations', { token, body: { email, role: 'editor' } });
    expect(invited.status).toBe(201);
    const link = await linkTokenMailedTo(receiver, email, 'accept-invitation');
    const mail = receiver.mails.findLast((m) => m.to.includes(email))!;
    expect(mail).toMatchObject({ from: 'agency@example.test', user: SMTP_ACCOUNT.username });
    const accepted = await api.request('POST', '/api/auth/accept-invitation', {
      body: { token: link, name: 'Via channel', password: NEW_PASSWORD },
    });
    expect(accepted.status).toBe(201);
    expect((await api.request('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202);
    await linkTokenMailedTo(receiver, email, 'reset-password');

    const other = await createOrganizationId(api);
    const refused = await api.request<{ detail: string }>('POST', '/api/invitations', {
      token: await api.createToken(other, ['admin']),
      body: { email: 'someone-else@example.com', role: 'viewer' },
    });
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toContain('SMTP_URL');
    expect(refused.body.detail).toContain('e-mail notification channel');
    expect(logs()).not.toContain(SMTP_ACCOUNT.password);
    expect(logs()).not.toContain(link);
  });
});

describe('people: without SMTP_URL', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.stop());

  it('answers inviting and resetting with a 503 that says to set SMTP_URL, keeping nothing', async () => {
    const organizationId = await createOrganizationId(api);
    const token = await api.createToken(organizationId, ['admin']);
    const invited = await api.request('POST', '/api/invitations', {
      token,
      body: { email: 'someone@example.com', role: 'viewer' },
    });
    expect(invited.status).toBe(503);
    expect(invited.body.detail).toContain('SMTP_URL');
    expect(await api.db.collection('invitations').countDocuments()).toBe(0);
    const reset = await api.request('POST', '/api/auth/password-reset', {
      body: { email: 'someone@example.com' },
    });
    expect(reset.status).toBe(503);
    expect(reset.body.detail).toContain('SMTP_URL');
  });
});
