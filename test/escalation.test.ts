import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { until } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn, withCookie } from './support/people.js';
import { type ReceivedRequest, type Receiver, startReceiver } from './support/receiver.js';

/**
 * Escalation end to end, against real local servers: a worker finds a site down, a notifier pages
 * the schedule's on-call person by SMS and e-mail (a Twilio-format receiver, an SMTP server), waits
 * (two minutes, scaled), calls the next person (Twilio's Calls.json with a keypress to acknowledge),
 * then a channel; each step once although the notifier is killed between steps; the mail's signed
 * link acknowledges and nothing more is sent.
 */

const SMTP = { username: 'alerts', password: 'smtp-secret-for-escalation' };
const ACCOUNT = `AC${'a1'.repeat(16)}`;
const ALICE_SMS = '+4915112345671';
const BOB_VOICE = '+4915112345672';
type Incident = { acknowledgement: { by: { name: string } } | null };
type TimelineItem = { kind: string; text: string | null; escalation?: { step: number } };

const form = (request: ReceivedRequest) => new URLSearchParams(request.body);
/** A raw mail's text, quoted-printable undone. */
const mailText = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe('escalation: on-call SMS → wait → the next person by voice → a channel', {
  timeout: 180_000,
}, () => {
  let stack: MonitoringStack;
  let notifier: RunningService;
  let twilio: Receiver;
  let hooks: Receiver;
  let site: Receiver;
  let smtp: MailReceiver;
  let policyId: number;
  let hookId: number;
  let alice: { id: number; email: string; cookie: string };

  const api = () => stack.api;
  const token = () => stack.token;
  const messagesTo = (number: string) =>
    twilio.to(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`).filter((r) => form(r).get('To') === number);
  const callsTo = (number: string) =>
    twilio.to(`/2010-04-01/Accounts/${ACCOUNT}/Calls.json`).filter((r) => form(r).get('To') === number);
  const start = () => startNotifier(api().config, createLogger('notifier', 'silent'));

  /** A person's verified method: added, its code read where it was sent, entered. */
  const verifiedMethod = async (
    cookie: string,
    type: string,
    address: string,
    codeOf: () => string | null,
  ) => {
    const added = await withCookie<{ id: number }>(api(), cookie, 'POST', '/api/me/contact-methods', {
      body: { type, address },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    let code: string | null = null;
    await until(async () => {
      code = codeOf();
      return code !== null;
    }, 10_000);
    const verified = await withCookie<{ verified: boolean }>(
      api(),
      cookie,
      'POST',
      `/api/me/contact-methods/${added.body.id}/verify`,
      { body: { code } },
    );
    expect(verified.body.verified).toBe(true);
  };

  beforeAll(async () => {
    twilio = await startReceiver();
    twilio.defaultStatus = 201;
    hooks = await startReceiver();
    site = await startReceiver();
    smtp = await startMailReceiver(SMTP);
    stack = await startMonitoringStack(
      'escalation-node',
      {},
      {
        DELIVERY_RETRY_SCALE: '0.0001',
        // Two minutes become 2.4 s.
        ESCALATION_TIME_SCALE: '0.02',
        SMTP_URL: `smtp://${SMTP.username}:${SMTP.password}@127.0.0.1:${smtp.port}`,
      },
    );
    notifier = await start();
    const sms = await api().request<{ id: number }>('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'twilio',
        name: 'SMS and calls',
        events: ['test'],
        scope: { listedOnly: true },
        config: {
          accountSid: ACCOUNT,
          authToken: 'b2'.repeat(16),
          from: '+15005550006',
          to: ['+15005550001'],
          apiBaseUrl: twilio.url,
        },
      },
    });
    expect(sms.status, JSON.stringify(sms.body)).toBe(201);
    const hook = await api().request<{ id: number }>('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'webhook',
        name: 'Ops hook',
        scope: { listedOnly: true },
        config: { url: `${hooks.url}/ops` },
      },
    });
    hookId = hook.body.id;
    const aliceUser = await createUser(api(), stack.organizationId, 'editor');
    const bobUser = await createUser(api(), stack.organizationId, 'viewer');
    alice = { ...aliceUser, cookie: await signIn(api(), aliceUser.email) };
    const bobCookie = await signIn(api(), bobUser.email);
    await verifiedMethod(alice.cookie, 'sms', ALICE_SMS, () => {
      const body = messagesTo(ALICE_SMS).at(-1);
      return body ? (/code is (\d{6})/.exec(form(body).get('Body') ?? '')?.[1] ?? null) : null;
    });
    await verifiedMethod(alice.cookie, 'email', alice.email, () => {
      const mail = smtp.mails.findLast((m) => m.to.includes(alice.email));
      return mail ? (/code is (\d{6})/.exec(mailText(mail.raw))?.[1] ?? null) : null;
    });
    await verifiedMethod(bobCookie, 'voice', BOB_VOICE, () => {
      const call = callsTo(BOB_VOICE).at(-1);
      const spoken = call ? /code is ((?:\d, ){5}\d)/.exec(form(call).get('Twiml') ?? '')?.[1] : undefined;
      return spoken ? spoken.replaceAll(', ', '') : null;
    });
    const schedule = await api().request<{ id: number }>('POST', '/api/schedules', {
      token: token(),
      body: {
        name: 'Primary',
        timezone: 'Europe/Berlin',
        layers: [
          {
            participants: [alice.id],
            rotation: { length: 'weekly', handoff: '09:00', startsAt: '2026-01-05T08:00:00.000Z' },
          },
        ],
      },
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    const policy = await api().request<{ id: number }>('POST', '/api/escalation-policies', {
      token: token(),
      body: {
        name: 'Business critical',
        steps: [
          { targets: [{ schedule: schedule.body.id }], waitMinutes: 2 },
          { targets: [{ user: bobUser.id }], waitMinutes: 2 },
          { targets: [{ channel: hook.body.id }], waitMinutes: 0 },
        ],
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    policyId = policy.body.id;
  });
  afterAll(async () => {
    await notifier.stop();
    await stack.stop();
    await Promise.all([twilio.close(), hooks.close(), site.close(), smtp.close()]);
  });

  /** A website on the site's path, following the policy; made to fail. */
  const failingWebsite = async (path: string, escalationPolicyId = policyId) => {
    const website = await api().request<{ id: number }>('POST', '/api/websites', {
      token: token(),
      body: {
        customerId: stack.customerId,
        name: `Shop ${path}`,
        url: `${site.url}${path}`,
        checkInterval: 10,
        escalationPolicyId,
      },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    site.route('GET', path, 503, 'down for maintenance');
    let incident: string | null = null;
    await until(async () => {
      incident = (await stack.status(website.body.id)).openIncidentId;
      return incident !== null;
    }, 60_000);
    return { websiteId: website.body.id, incident: incident as unknown as string };
  };
  const timeline = async (incident: string) =>
    (
      await api().request<{ items: TimelineItem[] }>('GET', `/api/incidents/${incident}/timeline`, {
        token: token(),
      })
    ).body.items;
  const pagesTo = (number: string) =>
    messagesTo(number).filter((r) => /Acknowledge/.test(form(r).get('Body') ?? ''));

  /** A notifier in a process of its own, to be killed (SIGKILL: no goodbye, nothing flushed). */
  const notifierProcess = () =>
    spawn(process.execPath, ['--import', 'tsx', 'apps/notifier/main.ts'], {
      env: {
        ...process.env,
        MONGODB_URL: api().config.MONGODB_URL,
        REDIS_URL: api().config.REDIS_URL,
        REDIS_KEY_PREFIX: api().config.REDIS_KEY_PREFIX,
        SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
        ALLOW_PRIVATE_TARGETS: 'true',
        DELIVERY_RETRY_SCALE: '0.0001',
        ESCALATION_TIME_SCALE: '0.02',
        SMTP_URL: api().config.SMTP_URL ?? '',
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });

  it('runs each step once, across a notifier killed between steps', async () => {
    await notifier.stop();
    const doomed = notifierProcess();
    const exited = once(doomed, 'exit');
    let incident: string;
    try {
      ({ incident } = await failingWebsite('/kill'));
      await until(async () => pagesTo(ALICE_SMS).length === 1, 60_000);
      // Step 1 is done and step 2 waits (a step killed halfway is finished by the sweep a minute on).
      const runs = api().db.collection<{ _id: string; next: { step: number } | null }>('escalation_runs');
      await until(async () => (await runs.findOne({ _id: incident }))?.next?.step === 1, 10_000);
    } finally {
      // Between step 1 and step 2: the step waits as a delayed job, not in the process.
      doomed.kill('SIGKILL');
      await exited;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(callsTo(BOB_VOICE).filter((c) => /Press 1/.test(form(c).get('Twiml') ?? ''))).toHaveLength(0);
    notifier = await start();
    await until(async () => hooks.to('/ops').length > 0, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const pageCalls = callsTo(BOB_VOICE).filter((c) => /Press 1/.test(form(c).get('Twiml') ?? ''));
    expect(pageCalls).toHaveLength(1);
    const twiml = form(pageCalls[0] as ReceivedRequest).get('Twiml') ?? '';
    expect(twiml).toMatch(/<Gather numDigits="1" action="[^"]*\/api\/alerts\/ack\/[A-Za-z0-9_-]{43}\/voice"/);
    expect(pagesTo(ALICE_SMS)).toHaveLength(1);
    expect(
      hooks.to('/ops').filter((r) => (r.json as { type?: string }).type === 'website.down'),
    ).toHaveLength(1);
    const steps = (await timeline(incident)).filter((item) => item.kind === 'escalation');
    expect(steps.map((s) => s.escalation?.step)).toEqual([0, 1, 2]);
    expect(steps[0]?.text).toMatch(
      /Business critical, step 1 of 3: A editor \(on call, schedule \d+\) by sms: sent/,
    );
    expect(steps[1]?.text).toMatch(/A viewer by voice: sent/);
    // Bob presses 1: Twilio posts the keypress to the Gather's action, answered with TwiML.
    const action = /action="[^"]*(\/api\/alerts\/ack\/[A-Za-z0-9_-]{43}\/voice)"/.exec(twiml)?.[1] as string;
    const pressed = await api().request<string>('POST', action, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api().api.url },
      rawBody: 'CallSid=CA0123&Digits=1',
    });
    expect(pressed.status).toBe(200);
    expect(pressed.headers.get('content-type')).toMatch(/text\/xml/);
    expect(String(pressed.body)).toContain('<Say>Acknowledged. The escalation has stopped. Goodbye.</Say>');
    const acknowledged = await api().request<Incident>('GET', `/api/incidents/${incident}`, {
      token: token(),
    });
    expect(acknowledged.body.acknowledgement?.by.name).toBe('A viewer');
  });

  it('stops when the mail’s link acknowledges: nobody else is paged, and the person paged hears of the recovery', async () => {
    const callsBefore = callsTo(BOB_VOICE).length;
    const { websiteId, incident } = await failingWebsite('/ack');
    let link: string | undefined;
    await until(async () => {
      const mail = smtp.mails.find(
        (m) => m.to.includes(alice.email) && mailText(m.raw).includes('Shop /ack'),
      );
      link = mail && /Acknowledge: \S*(\/api\/alerts\/ack\/[A-Za-z0-9_-]{43})/.exec(mailText(mail.raw))?.[1];
      return link !== undefined;
    }, 30_000);
    const path = link as string;
    const shown = await api().request<string>('GET', path);
    expect(shown.status).toBe(200);
    expect(String(shown.body)).toMatch(/<form method="post"><button type="submit">Acknowledge<\/button>/);
    const done = await api().request<string>('POST', path, { headers: { origin: api().api.url } });
    expect(done.status, String(done.body)).toBe(200);
    expect(String(done.body)).toMatch(/The escalation has stopped/);
    const again = await api().request<string>('POST', path, { headers: { origin: api().api.url } });
    expect(again.status).toBe(409);
    const acknowledged = await api().request<Incident>('GET', `/api/incidents/${incident}`, {
      token: token(),
    });
    expect(acknowledged.body.acknowledgement?.by.name).toBe('A editor');
    // Past step 2's wait: no call.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(callsTo(BOB_VOICE)).toHaveLength(callsBefore);
    const kinds = (await timeline(incident)).map((item) => item.kind);
    expect(kinds.filter((kind) => kind === 'escalation')).toHaveLength(1);
    expect(kinds).toContain('acknowledged');
    // Acknowledged, then up: Alice, who was paged, is told it is over (her SMS takes recoveries).
    site.route('GET', '/ack', 200, 'ok');
    await until(async () => (await stack.status(websiteId)).openIncidentId === null, 60_000);
    await until(
      async () => messagesTo(ALICE_SMS).some((r) => /Shop \/ack is up again/.test(form(r).get('Body') ?? '')),
      30_000,
    );
    expect(callsTo(BOB_VOICE)).toHaveLength(callsBefore);
  });

  it('moves on at once past a step that reached nobody', async () => {
    const carol = await createUser(api(), stack.organizationId, 'viewer');
    const policy = await api().request<{ id: number }>('POST', '/api/escalation-policies', {
      token: token(),
      body: {
        name: 'Nobody first',
        steps: [
          // An hour's wait (72 s here): Carol has no contact method, so nobody is waited for.
          { targets: [{ user: carol.id }], waitMinutes: 60 },
          { targets: [{ channel: hookId }], waitMinutes: 0 },
        ],
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const { websiteId, incident } = await failingWebsite('/nobody', policy.body.id);
    await until(
      async () =>
        hooks
          .to('/ops')
          .some(
            (r) =>
              (r.json as { type?: string; data?: { website?: { id?: number } } }).data?.website?.id ===
              websiteId,
          ),
      20_000,
    );
    const [first] = (await timeline(incident)).filter((item) => item.kind === 'escalation');
    expect(first?.text).toContain(
      'no contact method takes alerts now; reached nobody: the next step follows at once',
    );
    site.route('GET', '/nobody', 200, 'ok');
  });

  it('tells a channel the alert once at the first step, and later steps as escalation steps', async () => {
    const everything = await api().request<{ id: number }>('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'webhook',
        name: 'Everything',
        events: ['website.down'],
        config: { url: `${hooks.url}/all` },
      },
    });
    expect(everything.status, JSON.stringify(everything.body)).toBe(201);
    const policy = await api().request<{ id: number }>('POST', '/api/escalation-policies', {
      token: token(),
      body: {
        name: 'Channel twice',
        steps: [
          { targets: [{ channel: everything.body.id }], waitMinutes: 0 },
          { targets: [{ channel: everything.body.id }], waitMinutes: 0 },
        ],
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const { websiteId, incident } = await failingWebsite('/twice', policy.body.id);
    type Told = {
      type: string;
      data: { website?: { id: number }; escalation?: { policy: string; step: string } };
    };
    const told = () =>
      hooks
        .to('/all')
        .map((r) => r.json as Told)
        .filter((p) => p.type === 'website.down' && p.data.website?.id === websiteId);
    await until(async () => told().some((p) => p.data.escalation !== undefined), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Two deliveries that may arrive in either order: the alert, and the second step.
    const escalations = told().map((p) => p.data.escalation ?? null);
    expect(escalations).toHaveLength(2);
    expect(escalations).toContainEqual(null);
    expect(escalations).toContainEqual({ policy: 'Channel twice', step: 'step 2 of 2' });
    const steps = (await timeline(incident)).filter((item) => item.kind === 'escalation');
    expect(steps.map((item) => item.text)).toEqual([
      'Channel twice, step 1 of 2: Everything: told by the alert itself',
      'Channel twice, step 2 of 2: Everything: sent',
    ]);
    site.route('GET', '/twice', 200, 'ok');
  });
});
