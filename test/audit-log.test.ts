import { type CommandStartedEvent, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EVENTS, AuditEventRepository } from '../libs/audit/index.js';
import { ApiTokenRepository } from '../libs/auth/index.js';
import { InvitationRepository } from '../libs/people/index.js';
import { base32Decode, hotp, totpStep } from '../libs/people/totp.js';
import { createCustomer, createPackage, TestApi, until } from './support/harness.js';
import { createOrganizationId, createUser, signIn, TEST_PASSWORD, withCookie } from './support/people.js';
import { selfSignedClientCertificate } from './support/pki.js';
import { judgedByPrimaryKey } from './support/read-plan.js';

interface Change {
  path: string;
  old?: unknown;
  new?: unknown;
  writeOnly?: true;
}
interface AuditEvent {
  id: number;
  at: string;
  actor: { type: string; id: number | null; role?: string; scopes?: string[] };
  action: string;
  resource: string;
  resourceId: string | null;
  outcome: string;
  status: number;
  address: string;
  requestId: string;
  changes: Change[];
  subject?: { email: string };
  signIn?: { method: string };
}
interface Page {
  items: AuditEvent[];
  nextCursor: string | null;
}

const SECRET_HEADER = 'sk-live-audit-4f1e9c2b7a';
const SECRET_AUTHORIZATION = 'Bearer audit-authorization-77d1';

describe('audit log', { timeout: 60_000 }, () => {
  let api: TestApi;
  let organizationId: number;
  let customerId: number;
  let adminCookie: string;
  let adminId: number;
  let adminEmail: string;
  let token: string;
  let tokenId: number;
  const key = selfSignedClientCertificate();

  const audit = (query = '', cookie = adminCookie) =>
    withCookie<Page>(api, cookie, 'GET', `/api/audit-events${query}`);

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    const created = await new ApiTokenRepository(api.db).create({
      organizationId,
      name: 'automation',
      scopes: ['write'],
    });
    token = created.token;
    tokenId = created.record.id;
    const adminToken = await api.createToken(organizationId, ['admin']);
    customerId = await createCustomer(api, adminToken, (await createPackage(api, adminToken)).id);
    const admin = await createUser(api, organizationId, 'admin');
    adminId = admin.id;
    adminEmail = admin.email;
    adminCookie = await signIn(api, admin.email);
  });
  afterAll(() => api?.stop());

  it('a website PATCH by a user: who, what, where, and the fields with their values', async () => {
    const website = await withCookie<{ id: number; publicId: string }>(
      api,
      adminCookie,
      'POST',
      '/api/websites',
      {
        body: { customerId, name: 'Shop', url: 'https://shop.example.com/', checkInterval: 60 },
      },
    );
    expect(website.status).toBe(201);
    const patched = await withCookie(api, adminCookie, 'PATCH', `/api/websites/${website.body.publicId}`, {
      body: { name: 'Store', checkInterval: 120 },
    });
    expect(patched.status).toBe(200);
    const page = await audit('?resource=websites');
    expect(page.status).toBe(200);
    const [update, create] = page.body.items;
    expect(update).toMatchObject({
      action: 'updateWebsite',
      resource: 'websites',
      resourceId: String(website.body.id),
      outcome: 'succeeded',
      status: 200,
      actor: { type: 'user', id: adminId, role: 'admin' },
      address: expect.stringMatching(/127\.0\.0\.1/),
      requestId: patched.headers.get('x-request-id') ?? expect.any(String),
    });
    expect(update?.changes).toEqual(
      expect.arrayContaining([
        { path: 'name', old: 'Shop', new: 'Store' },
        { path: 'checkInterval', old: 60, new: 120 },
      ]),
    );
    expect(update?.changes.map((change) => change.path)).not.toContain('updatedAt');
    expect(create).toMatchObject({ action: 'createWebsite', resourceId: String(website.body.id) });
    expect(create?.changes).toEqual(expect.arrayContaining([{ path: 'name', new: 'Shop' }]));
  });

  it('never stores a secret: mTLS key, secret and credential headers, a webhook signing secret', async () => {
    const website = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Secret API',
        url: 'https://api.example.com/health',
        checkInterval: 60,
        mtlsEnabled: true,
        mtlsClientCert: key.certificate,
        mtlsClientKey: key.key,
        secretHeaders: { 'X-Api-Key': SECRET_HEADER },
        customHeaders: { Authorization: SECRET_AUTHORIZATION, Accept: 'application/json' },
      },
    });
    expect(website.status).toBe(201);
    const patched = await api.request('PATCH', `/api/websites/${website.body.publicId}`, {
      token,
      body: { secretHeaders: { 'X-Api-Key': `${SECRET_HEADER}-2` }, mtlsClientKey: key.key },
    });
    expect(patched.status).toBe(200);
    const channel = await api.request<{ id: number; secret: string }>('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Hooks', config: { url: 'https://hooks.example.com/webmon' } },
    });
    expect(channel.status).toBe(201);
    const rotated = await api.request<{ secret: string }>(
      'POST',
      `/api/notification-channels/${channel.body.id}/rotate-secret`,
      { token },
    );
    expect(rotated.status).toBe(200);

    const stored = JSON.stringify(await api.db.collection(AUDIT_EVENTS).find({}).toArray());
    for (const secret of [
      SECRET_HEADER,
      SECRET_AUTHORIZATION,
      'PRIVATE KEY',
      key.key.split('\n')[1] as string,
      channel.body.secret,
      rotated.body.secret,
      TEST_PASSWORD,
    ])
      expect(stored).not.toContain(secret);

    const page = await audit(`?actorId=${tokenId}&actorType=token`);
    const update = page.body.items.find((event) => event.action === 'updateWebsite');
    expect(update?.actor).toEqual({ type: 'token', id: tokenId, scopes: ['write'] });
    expect(update?.changes).toEqual(
      expect.arrayContaining([
        { path: 'secretHeaders.X-Api-Key', writeOnly: true },
        { path: 'mtlsClientKey', writeOnly: true },
      ]),
    );
    const created = page.body.items.find((event) => event.action === 'createWebsite');
    expect(created?.changes).toEqual(
      expect.arrayContaining([
        { path: 'mtlsClientKeySet', new: true },
        // Credential headers sent among the custom ones are sealed like secret ones.
        { path: 'secretHeaderNames', new: ['X-Api-Key', 'Authorization'] },
        { path: 'customHeaders.Authorization', writeOnly: true },
      ]),
    );
    expect(page.body.items.map((event) => event.action)).toEqual([
      'rotateNotificationChannelSecret',
      'createNotificationChannel',
      'updateWebsite',
      'createWebsite',
    ]);
  });

  it('records a failed and a successful sign-in, and signing out', async () => {
    const user = await createUser(api, organizationId, 'viewer');
    const failed = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: 'not-the-password-at-all' },
    });
    expect(failed.status).toBe(401);
    const cookie = await signIn(api, user.email);
    expect((await withCookie(api, cookie, 'POST', '/api/auth/logout')).status).toBe(204);
    const page = await audit('?resource=auth&limit=3');
    expect(page.body.items.map((event) => [event.action, event.outcome, event.actor.type])).toEqual([
      ['logout', 'succeeded', 'user'],
      ['login', 'succeeded', 'user'],
      ['login', 'failed', 'anonymous'],
    ]);
    const [logout, login, failure] = page.body.items;
    expect(logout?.actor.id).toBe(user.id);
    expect(login).toMatchObject({ actor: { id: user.id, role: 'viewer' }, subject: { email: user.email } });
    expect(failure).toMatchObject({ status: 401, subject: { email: user.email }, actor: { id: null } });
    expect(failure?.changes).toEqual([]);
    expect(JSON.stringify(await api.db.collection(AUDIT_EVENTS).find({}).toArray())).not.toContain(
      'not-the-password-at-all',
    );
  });

  it('records an accepted invitation as the new user, and a used one as a failed anonymous attempt', async () => {
    const email = `invited-${Date.now()}@example.com`;
    const { token: link } = await new InvitationRepository(api.db).create({
      organizationId,
      email,
      role: 'editor',
      customerId: null,
    });
    const body = { token: link, name: 'Invited', password: TEST_PASSWORD };
    const accepted = await api.request<{ user: { id: number } }>('POST', '/api/auth/accept-invitation', {
      body,
    });
    expect(accepted.status).toBe(201);
    expect(
      (await api.request('POST', '/api/auth/accept-invitation', { body })).status,
    ).toBeGreaterThanOrEqual(400);
    const page = await audit(`?actorId=${accepted.body.user.id}&actorType=user`);
    expect(page.body.items[0]).toMatchObject({
      action: 'acceptInvitation',
      outcome: 'succeeded',
      status: 201,
      actor: { type: 'user', id: accepted.body.user.id, role: 'editor' },
    });
    // The second naming no account, it is kept apart from every organization's log.
    const apart = await new AuditEventRepository(api.db).page(0, { resource: 'auth', limit: 1 });
    expect(apart.items[0]).toMatchObject({ action: 'acceptInvitation', outcome: 'failed' });
    expect(JSON.stringify(await api.db.collection(AUDIT_EVENTS).find({}).toArray())).not.toContain(link);
  });

  it('records two-factor enrolment, confirmation and turning it off, without the secret or a recovery code', async () => {
    const user = await createUser(api, organizationId, 'editor');
    const cookie = await signIn(api, user.email);
    const started = await withCookie<{ secret: string; otpauthUrl: string }>(
      api,
      cookie,
      'POST',
      '/api/me/two-factor',
    );
    expect(started.status).toBe(200);
    const step = totpStep(Date.now());
    const code = (at: number) => hotp(base32Decode(started.body.secret), at);
    const confirmed = await withCookie<{ recoveryCodes: string[] }>(
      api,
      cookie,
      'POST',
      '/api/me/two-factor/confirm',
      {
        body: { code: code(step) },
      },
    );
    expect(confirmed.status).toBe(200);
    const off = await withCookie(api, cookie, 'DELETE', '/api/me/two-factor', {
      body: { code: confirmed.body.recoveryCodes[0] },
    });
    expect(off.status).toBe(204);
    const page = await audit(`?actorId=${user.id}&actorType=user&limit=3`);
    expect(page.body.items.map((event) => event.action)).toEqual([
      'disableTwoFactor',
      'confirmTwoFactor',
      'startTwoFactorEnrolment',
    ]);
    const [disabled, confirm] = page.body.items;
    expect(confirm?.changes).toEqual(
      expect.arrayContaining([
        { path: 'user.twoFactorEnabled', old: false, new: true },
        { path: 'code', writeOnly: true },
      ]),
    );
    expect(disabled?.changes).toEqual(
      expect.arrayContaining([{ path: 'user.twoFactorEnabled', old: true, new: false }]),
    );
    const stored = JSON.stringify(await api.db.collection(AUDIT_EVENTS).find({}).toArray());
    expect(stored).not.toContain(started.body.secret);
    for (const recovery of confirmed.body.recoveryCodes) expect(stored).not.toContain(recovery);
  });

  it('tells a sign-in with a recovery code from one with a TOTP code, and records the code used up as a two-factor change', async () => {
    const user = await createUser(api, organizationId, 'viewer');
    const cookie = await signIn(api, user.email);
    const started = await withCookie<{ secret: string }>(api, cookie, 'POST', '/api/me/two-factor');
    const step = totpStep(Date.now());
    const code = (at: number) => hotp(base32Decode(started.body.secret), at);
    const confirmed = await withCookie<{ recoveryCodes: string[] }>(
      api,
      cookie,
      'POST',
      '/api/me/two-factor/confirm',
      { body: { code: code(step) } },
    );
    expect(confirmed.status).toBe(200);
    const login = (totp: string) =>
      api.request('POST', '/api/auth/login', { body: { email: user.email, password: TEST_PASSWORD, totp } });
    expect((await login(code(step + 1))).status).toBe(200);
    const recovery = confirmed.body.recoveryCodes[3]!;
    expect((await login(recovery)).status).toBe(200);

    const page = await audit(`?actorId=${user.id}&actorType=user&limit=6`);
    expect(page.body.items.map((event) => [event.action, event.signIn?.method])).toEqual([
      ['useRecoveryCode', 'recovery-code'],
      ['login', 'recovery-code'],
      ['login', 'totp'],
      ['confirmTwoFactor', undefined],
      ['startTwoFactorEnrolment', undefined],
      ['login', 'password'],
    ]);
    expect(page.body.items[0]).toMatchObject({
      resource: 'me',
      resourceId: String(user.id),
      outcome: 'succeeded',
      changes: [{ path: 'user.twoFactor.recoveryCodesLeft', old: 10, new: 9 }],
    });
    const stored = JSON.stringify(await api.db.collection(AUDIT_EVENTS).find({}).toArray());
    expect(stored).not.toContain(recovery);
  });

  it('filters by time, actor and resource, and pages with the cursor', async () => {
    const all: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await audit(query);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      if (page.body.nextCursor) expect(page.headers.get('link')).toContain(`cursor=${page.body.nextCursor}`);
      all.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    const ids = all.map((event) => event.id);
    expect(ids.length).toBeGreaterThanOrEqual(10);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await audit('?limit=200')).body.items.map((event) => event.id)).toEqual(ids);

    const byAdmin = await audit(`?actorId=${adminId}&actorType=user`);
    expect(byAdmin.body.items.length).toBeGreaterThan(0);
    expect(
      byAdmin.body.items.every((event) => event.actor.id === adminId && event.actor.type === 'user'),
    ).toBe(true);
    const channels = await audit('?resource=notification-channels');
    expect(channels.body.items.map((event) => event.action)).toEqual([
      'rotateNotificationChannelSecret',
      'createNotificationChannel',
    ]);
    const middle = all[Math.floor(all.length / 2)] as AuditEvent;
    const upTo = await audit(`?to=${encodeURIComponent(middle.at)}&limit=200`);
    expect(upTo.body.items.every((event) => event.at <= middle.at)).toBe(true);
    expect(upTo.body.items.map((event) => event.id)).toContain(middle.id);
    const since = await audit(`?from=${encodeURIComponent(middle.at)}&limit=200`);
    expect(since.body.items.every((event) => event.at >= middle.at)).toBe(true);
    expect(since.body.items.map((event) => event.id)).toContain(middle.id);
    expect((await audit('?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).body).toEqual({
      items: [],
      nextCursor: null,
    });
    expect((await audit('?actorId=user:1')).status).toBe(400);
    expect((await audit('?limit=201')).status).toBe(400);
  });

  it('lists by primary key only: every find of a listing is an exact _id read', async () => {
    const monitored = new MongoClient(api.config.MONGODB_URL, { monitorCommands: true });
    const finds: Document[] = [];
    monitored.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.commandName === 'find') finds.push(event.command);
    });
    await monitored.connect();
    try {
      const db = monitored.db();
      const repository = new AuditEventRepository(db);
      const page = await repository.page(organizationId, {
        resource: 'websites',
        to: new Date(),
        from: new Date(Date.now() - 3_600_000),
        limit: 2,
      });
      expect(page.items).toHaveLength(2);
      expect(finds.length).toBeGreaterThan(2);
      for (const find of finds) {
        expect(Object.keys(find.filter)).toEqual(['_id']);
        expect(typeof find.filter._id).toBe('string');
        // The keeper adds SQLite's `_id` index to a new collection within seconds: the plan is judged
        // once it has (one answer, the one asserted: asking twice met a plan that changed in between).
        const judged = await judgedByPrimaryKey(db, find);
        expect(judged.byKey, `${JSON.stringify(find)} planned as ${judged.plan}`).toBe(true);
      }
    } finally {
      await monitored.close();
    }
  });

  it('keeps events 400 days: the retention sweep deletes older ones by primary key', async () => {
    const repository = new AuditEventRepository(api.db);
    const other = await createOrganizationId(api);
    const event = {
      organizationId: other,
      actor: { type: 'anonymous' as const, id: null },
      action: 'login',
      method: 'POST',
      route: '/api/auth/login',
      resource: 'auth',
      resourceId: null,
      outcome: 'failed' as const,
      status: 401,
      address: '203.0.113.9',
      requestId: 'r',
      changes: [],
    };
    const old = new Date(Date.now() - 401 * 86_400_000);
    await repository.append({ ...event, at: old });
    await repository.append({ ...event, at: old });
    await repository.append({ ...event, at: new Date() });
    expect((await repository.page(other, { limit: 10 })).items).toHaveLength(3);
    expect(await repository.deleteExpired(new Date())).toBe(2);
    const left = await repository.page(other, { limit: 10 });
    expect(left.items.map((item) => item.seq)).toEqual([3]);
    expect(await api.db.collection(AUDIT_EVENTS).countDocuments({ organizationId: other })).toBe(1);
    expect(await repository.deleteExpired(new Date())).toBe(0);
  });

  it('a write whose event cannot be stored still succeeds; the loss is counted', async () => {
    const other = await api.createOrganization(['admin']);
    const dropped = async () => {
      const text = await (await fetch(`${api.api.url}/metrics`)).text();
      return Number(/^webmon_audit_events_dropped_total\{[^}]*\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await dropped();
    // A counter `$inc` cannot add to: every number claim of this organization fails.
    await api.db
      .collection('audit_heads')
      .insertOne({ _id: `seq/${other.organizationId}`, value: 'broken' } as never);
    const created = await api.request('POST', '/api/packages', {
      token: other.token,
      body: { key: 'lost', displayName: 'Lost' },
    });
    expect(created.status).toBe(201);
    expect(await dropped()).toBe(before + 1);
    // Positive control: once the counter is sound, the same kind of write is recorded.
    await api.db.collection('audit_heads').deleteOne({ _id: `seq/${other.organizationId}` } as never);
    const kept = await api.request('POST', '/api/packages', {
      token: other.token,
      body: { key: 'kept', displayName: 'Kept' },
    });
    expect(kept.status).toBe(201);
    expect(await dropped()).toBe(before + 1);
    const listed = await new AuditEventRepository(api.db).page(other.organizationId, { limit: 10 });
    expect(listed.items.map((event) => event.action)).toEqual(['createPackage']);
  });

  /** The `n`th website update of an organization, by token `n + 1`, as the recorder appends it. */
  const websiteUpdate = (organizationId: number, n: number) => ({
    organizationId,
    at: new Date(),
    actor: { type: 'token' as const, id: n + 1, scopes: ['write' as const] },
    action: 'updateWebsite',
    method: 'PATCH',
    route: '/api/websites/:websiteRef',
    resource: 'websites',
    resourceId: String(n),
    outcome: 'succeeded' as const,
    status: 200,
    address: '203.0.113.9',
    requestId: `r${n}`,
    changes: [],
  });

  it('a process writing in turn stores each event with one write: the next number is tried before asking the head', async () => {
    const other = await createOrganizationId(api);
    const monitored = new MongoClient(api.config.MONGODB_URL, { monitorCommands: true });
    const commands: string[] = [];
    monitored.on('commandStarted', (event: CommandStartedEvent) => {
      const collection = event.command[event.commandName];
      if (typeof collection === 'string') commands.push(`${event.commandName} ${collection}`);
    });
    await monitored.connect();
    try {
      const repository = new AuditEventRepository(monitored.db());
      const appended = [];
      for (let n = 0; n < 5; n++) appended.push(await repository.append(websiteUpdate(other, n)));
      expect(appended.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
      // The head is asked once; after that each event is one insert, the head raised beside it.
      expect(commands.filter((command) => command === 'findAndModify audit_heads')).toHaveLength(1);
      expect(commands.filter((command) => command === `insert ${AUDIT_EVENTS}`)).toHaveLength(5);
      const listed = await new AuditEventRepository(api.db).page(other, { limit: 10 });
      expect(listed.items.map((event) => event.seq)).toEqual([5, 4, 3, 2, 1]);
      await until(
        async () =>
          (await api.db.collection('audit_heads').findOne({ _id: `seq/${other}` as never }))?.value === 5,
        5000,
      );
    } finally {
      await monitored.close();
    }
  });

  it('numbers events once each, written at once by two processes', async () => {
    const other = await createOrganizationId(api);
    const processes = [new AuditEventRepository(api.db), new AuditEventRepository(api.db)];
    const appended = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        (processes[n % 2] as AuditEventRepository).append(websiteUpdate(other, n)),
      ),
    );
    expect(new Set(appended.map((event) => event.seq)).size).toBe(30);
    const listed = await new AuditEventRepository(api.db).page(other, { limit: 200 });
    expect(listed.items).toHaveLength(30);
    expect(listed.nextCursor).toBe(null);
  });

  it('is for admins: lower roles and a customer-bound token as every admin route (403)', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const user = await createUser(api, organizationId, role);
      expect((await audit('', await signIn(api, user.email))).status).toBe(403);
    }
    const client = await createUser(api, organizationId, 'client', customerId);
    const clientCookie = await signIn(api, client.email);
    // As another admin route answers a client (the guard judges the scope first).
    const users = await withCookie(api, clientCookie, 'GET', '/api/users');
    expect(users.status).toBe(403);
    expect((await audit('', clientCookie)).status).toBe(users.status);
    const bound = await new ApiTokenRepository(api.db).create({
      organizationId,
      name: 'client script',
      scopes: ['read'],
      customerId,
    });
    expect((await api.request('GET', '/api/audit-events', { token: bound.token })).status).toBe(403);
    const owner = await createUser(api, organizationId, 'owner');
    expect((await audit('', await signIn(api, owner.email))).status).toBe(200);
    expect(adminEmail).toContain('@');
  });
});
