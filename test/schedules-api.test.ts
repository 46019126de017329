import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';
import { createOrganizationId, createUser, signIn, withCookie } from './support/people.js';

interface Person {
  id: number;
  name: string;
  email: string;
}
interface ScheduleView {
  id: number;
  name: string;
  layers: Array<{ participants: number[] }>;
  people: Person[];
}
interface Problem {
  errors?: Array<{ path: string; message: string }>;
}
interface OnCallNow {
  now: Person | null;
  until: string | null;
  next: { user: Person; at: string } | null;
}

const paths = (body: unknown) => (body as Problem).errors?.map((e) => e.path) ?? [];

/**
 * On-call schedules through the API: a weekly Berlin rotation with an override across the spring
 * change, who is on call and next, shifts, roles and tenancy, a person's iCalendar feed by its
 * token (and its revocation), and what becomes of someone removed from the organization.
 */
describe('on-call schedules over the API', { timeout: 60_000 }, () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let alice: { id: number; email: string };
  let bob: { id: number; email: string };
  let carol: { id: number; email: string };
  let viewer: { id: number; email: string };
  let client: { id: number; email: string };
  let stranger: { id: number; email: string };
  let scheduleId: number;

  const berlin = () => ({
    name: 'Ops, nights',
    timezone: 'Europe/Berlin',
    layers: [
      {
        participants: [alice.id, bob.id, carol.id],
        // Mondays 09:00 Berlin time from 16 March 2026; summer time starts Sunday 29 March.
        rotation: { length: 'weekly', handoff: '09:00', startsAt: '2026-03-16T09:00:00+01:00' },
      },
    ],
  });
  const onCall = async (at: string) =>
    (await api.request<OnCallNow>('GET', `/api/schedules/${scheduleId}/on-call?at=${at}`, { token })).body;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization(['admin']));
    alice = await createUser(api, organizationId, 'editor');
    bob = await createUser(api, organizationId, 'viewer');
    carol = await createUser(api, organizationId, 'admin');
    viewer = await createUser(api, organizationId, 'viewer');
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    client = await createUser(api, organizationId, 'client', customerId);
    stranger = await createUser(api, await createOrganizationId(api), 'editor');
  });
  afterAll(() => api?.stop());

  it('refuses participants who are not the organization’s people, naming each', async () => {
    const body = berlin();
    body.layers[0]!.participants = [alice.id, stranger.id, client.id];
    const refused = await api.request('POST', '/api/schedules', { token, body });
    expect(refused.status).toBe(400);
    expect(paths(refused.body)).toEqual(['layers.0.participants.1', 'layers.0.participants.2']);
    const zone = await api.request('POST', '/api/schedules', {
      token,
      body: { ...berlin(), timezone: 'Mars/Olympus' },
    });
    expect(paths(zone.body)).toEqual(['timezone']);
  });

  it('creates, lists, reads and renames a schedule', async () => {
    const created = await api.request<ScheduleView>('POST', '/api/schedules', { token, body: berlin() });
    expect(created.status).toBe(201);
    scheduleId = created.body.id;
    expect(created.headers.get('location')).toBe(`/api/schedules/${scheduleId}`);
    expect(created.body.people.map((p) => p.id)).toEqual([alice.id, bob.id, carol.id]);
    const listed = await api.request<ScheduleView[]>('GET', '/api/schedules', { token });
    expect(listed.body.map((s) => s.id)).toEqual([scheduleId]);
    const renamed = await api.request<ScheduleView>('PATCH', `/api/schedules/${scheduleId}`, {
      token,
      body: { name: 'Ops' },
    });
    expect(renamed.body).toMatchObject({
      name: 'Ops',
      layers: [{ participants: [alice.id, bob.id, carol.id] }],
    });
    const people = await api.request<Person[]>('GET', '/api/schedules/people', { token });
    expect(people.body.map((p) => p.id)).toEqual(
      expect.arrayContaining([alice.id, bob.id, carol.id, viewer.id]),
    );
    expect(people.body.map((p) => p.id)).not.toContain(client.id);
  });

  it('an override across the spring change wins, and the handoff stays at 09:00 local', async () => {
    const cover = (body: Record<string, unknown>) =>
      api.request<{ id: number; user: Person }>('POST', `/api/schedules/${scheduleId}/overrides`, {
        token,
        body,
      });
    expect(
      paths(
        (await cover({ userId: carol.id, from: '2026-03-29T10:00:00Z', to: '2026-03-28T20:00:00Z' })).body,
      ),
    ).toEqual(['to']);
    expect(
      paths(
        (await cover({ userId: carol.id, from: '2026-03-01T00:00:00Z', to: '2026-04-10T00:00:00Z' })).body,
      ),
    ).toEqual(['to']);
    expect(
      paths(
        (await cover({ userId: stranger.id, from: '2026-03-28T20:00:00Z', to: '2026-03-29T10:00:00Z' })).body,
      ),
    ).toEqual(['userId']);
    // Carol covers Saturday 21:00 CET to Sunday 12:00 CEST during Bob's week.
    const created = await cover({
      userId: carol.id,
      from: '2026-03-28T20:00:00Z',
      to: '2026-03-29T10:00:00Z',
    });
    expect(created.status).toBe(201);
    expect(created.body.user.id).toBe(carol.id);

    expect((await onCall('2026-03-23T07:59:59Z')).now?.id).toBe(alice.id);
    expect((await onCall('2026-03-23T08:00:00Z')).now?.id).toBe(bob.id);
    expect(await onCall('2026-03-29T01:30:00Z')).toMatchObject({
      now: { id: carol.id },
      until: '2026-03-29T10:00:00.000Z',
      next: { user: { id: bob.id }, at: '2026-03-29T10:00:00.000Z' },
    });
    expect(await onCall('2026-03-29T12:00:00Z')).toMatchObject({
      now: { id: bob.id, name: 'A viewer', email: bob.email },
      until: '2026-03-30T07:00:00.000Z', // 09:00 CEST
      next: { user: { id: carol.id }, at: '2026-03-30T07:00:00.000Z' },
    });
    expect((await onCall('2026-03-16T07:00:00Z')).now).toBeNull();

    const shifts = await api.request<{
      shifts: Array<{ user: Person; from: string; source: string; overrideId: number | null }>;
    }>('GET', `/api/schedules/${scheduleId}/shifts?from=2026-03-28T00:00:00Z&to=2026-03-31T00:00:00Z`, {
      token,
    });
    expect(shifts.body.shifts.map((s) => [s.user.id, s.from, s.source])).toEqual([
      [bob.id, '2026-03-28T00:00:00.000Z', 'layer'],
      [carol.id, '2026-03-28T20:00:00.000Z', 'override'],
      [bob.id, '2026-03-29T10:00:00.000Z', 'layer'],
      [carol.id, '2026-03-30T07:00:00.000Z', 'layer'],
    ]);
    const tooLong = await api.request(
      'GET',
      `/api/schedules/${scheduleId}/shifts?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`,
      { token },
    );
    expect(paths(tooLong.body)).toEqual(['to']);

    // The escalation engine's lookup: the same answer, and null for a schedule that is not there.
    await withServices(api, async (services) => {
      expect(
        await services.onCall.whoIsOnCall(organizationId, scheduleId, new Date('2026-03-29T01:30:00Z')),
      ).toEqual({
        userId: carol.id,
      });
      expect(await services.onCall.whoIsOnCall(organizationId + 1, scheduleId, new Date())).toBeNull();
      expect(await services.onCall.exists(organizationId, scheduleId)).toBe(true);
      expect(await services.onCall.exists(organizationId, 999_999)).toBe(false);
    });

    const overrides = await api.request<Array<{ id: number }>>(
      'GET',
      `/api/schedules/${scheduleId}/overrides`,
      { token },
    );
    expect(overrides.body.map((o) => o.id)).toEqual([created.body.id]);
    expect(
      (await api.request('DELETE', `/api/schedules/${scheduleId}/overrides/${created.body.id}`, { token }))
        .status,
    ).toBe(204);
    expect((await onCall('2026-03-29T01:30:00Z')).now?.id).toBe(bob.id);
    expect(
      (await api.request('DELETE', `/api/schedules/${scheduleId}/overrides/${created.body.id}`, { token }))
        .status,
    ).toBe(404);
  });

  it('viewers read, only editors and up write, client users and other organizations see nothing', async () => {
    const viewerCookie = await signIn(api, viewer.email);
    expect((await withCookie(api, viewerCookie, 'GET', `/api/schedules/${scheduleId}`)).status).toBe(200);
    expect(
      (await withCookie(api, viewerCookie, 'PATCH', `/api/schedules/${scheduleId}`, { body: { name: 'x' } }))
        .status,
    ).toBe(403);
    const clientCookie = await signIn(api, client.email);
    expect((await withCookie(api, clientCookie, 'GET', '/api/schedules')).status).toBe(404);
    expect((await withCookie(api, clientCookie, 'GET', `/api/schedules/${scheduleId}/on-call`)).status).toBe(
      404,
    );
    expect((await withCookie(api, clientCookie, 'GET', '/api/me/on-call-feeds')).status).toBe(404);
    const other = await api.createOrganization(['admin']);
    expect((await api.request('GET', `/api/schedules/${scheduleId}`, { token: other.token })).status).toBe(
      404,
    );
    expect((await api.request('GET', '/api/schedules', { token: other.token })).body).toEqual([]);
    const audit = await api.request<{ items: Array<{ action: string }> }>('GET', '/api/audit-events', {
      token,
    });
    expect(audit.body.items.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'createSchedule',
        'updateSchedule',
        'createScheduleOverride',
        'deleteScheduleOverride',
      ]),
    );
  });

  it('a person’s iCalendar feed: by its token without a cookie, until revoked', async () => {
    // A daily rotation from 40 days ago: the feed's 120 days (30 back, 90 ahead) are all shifts.
    const startsAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const daily = await api.request<ScheduleView>('POST', '/api/schedules', {
      token,
      body: {
        name: 'Support; days, nights',
        timezone: 'America/New_York',
        layers: [
          { participants: [alice.id, bob.id], rotation: { length: 'daily', handoff: '08:00', startsAt } },
        ],
      },
    });
    const aliceCookie = await signIn(api, alice.email);
    const feeds = await withCookie<{ feeds: Array<{ scheduleId: number; url: string }> }>(
      api,
      aliceCookie,
      'GET',
      '/api/me/on-call-feeds',
    );
    const url = new URL(feeds.body.feeds.find((f) => f.scheduleId === daily.body.id)?.url ?? '');
    expect(url.pathname).toBe(`/api/schedules/${daily.body.id}/people/${alice.id}.ics`);
    const feed = await api.request<string>('GET', `${url.pathname}${url.search}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(feed.body).toContain('X-WR-CALNAME:On call: Support\\; days\\, nights');
    const events = feed.body.split('BEGIN:VEVENT').length - 1;
    expect(events).toBeGreaterThanOrEqual(59); // every other day of 120
    expect(events).toBeLessThanOrEqual(61);
    expect(feed.body).toMatch(/DTSTART:\d{8}T\d{6}Z\r\n/);

    // The same token opens no one else's feed, a wrong one nothing; a token caller has no feed.
    const token_ = url.searchParams.get('token') ?? '';
    expect(
      (await api.request('GET', `/api/schedules/${daily.body.id}/people/${bob.id}.ics?token=${token_}`))
        .status,
    ).toBe(404);
    expect((await api.request('GET', `${url.pathname}?token=nope`)).status).toBe(404);
    expect((await api.request('GET', '/api/me/on-call-feeds', { token })).status).toBe(403);

    expect((await withCookie(api, aliceCookie, 'DELETE', '/api/me/on-call-feed-token')).status).toBe(204);
    expect((await api.request('GET', `${url.pathname}${url.search}`)).status).toBe(404);
    const renewed = await withCookie<{ feeds: Array<{ scheduleId: number; url: string }> }>(
      api,
      aliceCookie,
      'GET',
      '/api/me/on-call-feeds',
    );
    const next = new URL(renewed.body.feeds.find((f) => f.scheduleId === daily.body.id)?.url ?? '');
    expect(next.searchParams.get('token')).not.toBe(token_);
    expect((await api.request('GET', `${next.pathname}${next.search}`)).status).toBe(200);
  });

  it('someone removed from the organization leaves a gap in their layer; a change must replace them', async () => {
    expect((await onCall('2026-03-25T12:00:00Z')).now?.id).toBe(bob.id);
    expect((await api.request('DELETE', `/api/users/${bob.id}`, { token })).status).toBe(204);
    expect(await onCall('2026-03-25T12:00:00Z')).toMatchObject({
      now: null,
      next: { user: { id: carol.id } },
    });
    const view = await api.request<ScheduleView>('GET', `/api/schedules/${scheduleId}`, { token });
    expect(view.body.layers[0]?.participants).toContain(bob.id);
    expect(view.body.people.map((p) => p.id)).toEqual([alice.id, carol.id]);
    const kept = await api.request('PATCH', `/api/schedules/${scheduleId}`, {
      token,
      body: { layers: berlin().layers },
    });
    expect(paths(kept.body)).toEqual(['layers.0.participants.1']);
  });

  it('deletes a schedule', async () => {
    expect((await api.request('DELETE', `/api/schedules/${scheduleId}`, { token })).status).toBe(204);
    expect((await api.request('GET', `/api/schedules/${scheduleId}`, { token })).status).toBe(404);
    expect((await api.request('GET', `/api/schedules/${scheduleId}/on-call`, { token })).status).toBe(404);
  });
});
