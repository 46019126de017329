import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';
import { type Receiver, startReceiver } from './support/receiver.js';

/** Contact methods and escalation policies through the API: validation, verification, attachment, use. */

type Problem = { detail: string; errors?: Array<{ path: string; message: string }> };
type Method = { id: number; verified: boolean; hours: unknown; events: string[] };
const ACCOUNT = `AC${'c3'.repeat(16)}`;

describe('on-call API: contact methods and escalation policies', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let customerId: number;
  let twilio: Receiver;
  let cookie: string;
  let editorId: number;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    ({ token, organizationId } = await api.createOrganization(['admin']));
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    twilio = await startReceiver();
    twilio.defaultStatus = 201;
    const editor = await createUser(api, organizationId, 'editor');
    editorId = editor.id;
    cookie = await signIn(api, editor.email);
  });
  afterAll(async () => {
    await twilio.close();
    await api.stop();
  });

  const me = <T>(method: string, path: string, body?: unknown) =>
    withCookie<T>(api, cookie, method, `/api/me/contact-methods${path}`, body === undefined ? {} : { body });
  const lastCode = () =>
    /code is (\d{6})/.exec(new URLSearchParams(twilio.requests.at(-1)?.body ?? '').get('Body') ?? '')?.[1] ??
    '';

  it('a contact method needs the organization’s tool for its type, then a code', async () => {
    const noTool = await me<Problem>('POST', '', { type: 'sms', address: '+4915112345670' });
    expect(noTool.status).toBe(409);
    expect(noTool.body.detail).toBe(
      'Nothing can send to an SMS number yet: an admin must add an organization-wide Twilio, Vonage or MessageBird channel',
    );
    expect(noTool.body.errors).toEqual([
      { path: 'type', message: 'needs an organization-wide Twilio, Vonage or MessageBird channel' },
    ]);
    const badAddress = await me<Problem>('POST', '', { type: 'sms', address: '015112345670' });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.errors?.[0]?.path).toBe('address');

    const channel = await api.request('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'twilio',
        name: 'SMS',
        events: ['test'],
        config: {
          accountSid: ACCOUNT,
          authToken: 'd4'.repeat(16),
          from: '+15005550006',
          to: ['+15005550001'],
          apiBaseUrl: twilio.url,
        },
      },
    });
    expect(channel.status).toBe(201);
    const added = await me<Method>('POST', '', {
      type: 'sms',
      address: '+4915112345670',
      label: 'Work phone',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ verified: false, events: ['alert', 'recovery', 'acknowledged'] });
    const code = lastCode();
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await me<Problem>('POST', `/${added.body.id}/verify`, {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      { path: 'code', message: 'is not the code sent to the address: 4 tries left' },
    ]);
    const soon = await me<Problem>('POST', `/${added.body.id}/resend`);
    expect(soon.status).toBe(429);
    const right = await me<Method>('POST', `/${added.body.id}/verify`, { code });
    expect(right.body.verified).toBe(true);
    const twice = await me<Problem>('POST', '', { type: 'sms', address: '+4915112345670' });
    expect(twice.status).toBe(409);
    // A double click: the same new address twice at once is added once, with one code sent.
    const codesBefore = twilio.requests.length;
    const atOnce = await Promise.all(
      [1, 2, 3].map(() => me<Method>('POST', '', { type: 'sms', address: '+4915112345671' })),
    );
    expect(atOnce.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(twilio.requests.length - codesBefore).toBe(1);
    const doubled = atOnce.find((answer) => answer.status === 201)?.body.id;
    expect((await me('DELETE', `/${doubled}`)).status).toBe(204);

    const hours = { timezone: 'Europe/Berlin', days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' };
    const patched = await me<Method>('PATCH', `/${added.body.id}`, { hours, events: ['alert'] });
    expect(patched.body).toMatchObject({ hours, events: ['alert'], verified: true });
    const badHours = await me<Problem>('PATCH', `/${added.body.id}`, {
      hours: { ...hours, timezone: 'Mars/Olympus' },
    });
    expect(badHours.body.errors?.[0]?.path).toBe('hours.timezone');

    const byToken = await api.request('GET', '/api/me/contact-methods', { token });
    expect(byToken.status).toBe(403);
    expect((await me<Method[]>('GET', '')).body).toHaveLength(1);
    expect((await me('DELETE', `/${added.body.id}`)).status).toBe(204);
    expect((await me<Method[]>('GET', '')).body).toHaveLength(0);
  });

  it('policies name what exists, are attached where asked, and are not deleted while used', async () => {
    const client = await createUser(api, organizationId, 'client', customerId);
    const unknown = await api.request<Problem>('POST', '/api/escalation-policies', {
      token,
      body: {
        name: 'Broken',
        steps: [
          { targets: [{ user: client.id }, { schedule: 999999 }, { channel: 999999 }], waitMinutes: 5 },
        ],
      },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.map((e) => e.path)).toEqual([
      'steps.0.targets.0.user',
      'steps.0.targets.1.schedule',
      'steps.0.targets.2.channel',
    ]);
    const schedule = await api.request<{ id: number }>('POST', '/api/schedules', {
      token,
      body: {
        name: 'Nights',
        timezone: 'UTC',
        layers: [
          {
            participants: [editorId],
            rotation: { length: 'daily', handoff: '20:00', startsAt: '2026-01-01T00:00:00Z' },
          },
        ],
      },
    });
    expect(schedule.status).toBe(201);
    const policy = await api.request<{ id: number; repeat: number }>('POST', '/api/escalation-policies', {
      token,
      body: {
        name: 'Nights first',
        steps: [{ targets: [{ schedule: schedule.body.id }, { user: editorId }], waitMinutes: 10 }],
      },
    });
    expect(policy.status).toBe(201);
    expect(policy.body.repeat).toBe(0);

    const website = await api.request<{ id: number; publicId: string; escalationPolicyId: number | null }>(
      'POST',
      '/api/websites',
      {
        token,
        body: {
          customerId,
          name: 'Shop',
          url: 'https://shop.example.com/',
          escalationPolicyId: policy.body.id,
        },
      },
    );
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    expect(website.body.escalationPolicyId).toBe(policy.body.id);
    const badWebsite = await api.request<Problem>('PATCH', `/api/websites/${website.body.publicId}`, {
      token,
      body: { escalationPolicyId: 999999 },
    });
    expect(badWebsite.status, JSON.stringify(badWebsite.body)).toBe(400);
    expect(badWebsite.body.errors?.[0]?.path, JSON.stringify(badWebsite.body)).toBe('escalationPolicyId');
    const customer = await api.request<{ escalationPolicyId?: number }>(
      'PATCH',
      `/api/customers/${customerId}`,
      {
        token,
        body: { escalationPolicyId: policy.body.id },
      },
    );
    expect(customer.body.escalationPolicyId).toBe(policy.body.id);
    const organization = await api.request<{ escalationPolicyId: number | null }>(
      'PATCH',
      '/api/organization',
      {
        token,
        body: { escalationPolicyId: policy.body.id },
      },
    );
    expect(organization.body.escalationPolicyId).toBe(policy.body.id);
    const badOrganization = await api.request<Problem>('PATCH', '/api/organization', {
      token,
      body: { escalationPolicyId: 999999 },
    });
    expect(badOrganization.body.errors?.[0]?.path).toBe('escalationPolicyId');

    const used = await api.request<Problem>('DELETE', `/api/escalation-policies/${policy.body.id}`, {
      token,
    });
    expect(used.status).toBe(409);
    expect(used.body.detail).toMatch(/the organization \(its default\), customer “.*”, website “Shop”/);
    const scheduleUsed = await api.request<Problem>('DELETE', `/api/schedules/${schedule.body.id}`, {
      token,
    });
    expect(scheduleUsed.status).toBe(409);
    expect(scheduleUsed.body.detail).toBe(
      'The schedule is in use by escalation policy “Nights first”: take it out of that policy first',
    );

    await api.request('PATCH', '/api/organization', { token, body: { escalationPolicyId: null } });
    await api.request('PATCH', `/api/customers/${customerId}`, { token, body: { escalationPolicyId: null } });
    await api.request('PATCH', `/api/websites/${website.body.publicId}`, {
      token,
      body: { escalationPolicyId: null },
    });
    expect(
      (await api.request('DELETE', `/api/escalation-policies/${policy.body.id}`, { token })).status,
    ).toBe(204);
    expect((await api.request('DELETE', `/api/schedules/${schedule.body.id}`, { token })).status).toBe(204);
  });
});
