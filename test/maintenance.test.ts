import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

type Problem = { errors?: Array<{ path: string }>; detail: string };
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const HOUR = 3_600_000;

describe('maintenance windows', () => {
  let api: TestApi;
  let organizationId: number;
  let token: string;
  let websiteId: number;

  const createWebsite = async () =>
    (
      await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: {
          customerId: await createCustomer(api, token, (await createPackage(api, token)).id),
          name: 'W',
          url: 'https://w.example.com/',
        },
      })
    ).body.id;
  const createWindow = (body: Record<string, unknown>, as = token) =>
    api.request<Record<string, unknown> & Problem & { id: number }>('POST', '/api/maintenance-windows', {
      token: as,
      body: { websiteId, title: 'Deploy', startsAt: iso(HOUR), endsAt: iso(2 * HOUR), ...body },
    });

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization(['admin']));
    websiteId = await createWebsite();
  });
  afterAll(() => api.stop());

  it('creates, lists, gets, patches and deletes a window', async () => {
    const created = await createWindow({
      timezone: 'Europe/Berlin',
      recurrence: { frequency: 'weekly', byWeekday: ['MO', 'TH'] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/maintenance-windows/${created.body.id}`);
    expect(created.body).toMatchObject({
      websiteId,
      title: 'Deploy',
      timezone: 'Europe/Berlin',
      recurrence: { frequency: 'weekly', interval: 1, byWeekday: ['MO', 'TH'] },
    });
    const listed = await api.request<Array<{ id: number }>>(
      'GET',
      `/api/maintenance-windows?websiteId=${websiteId}`,
      { token },
    );
    expect(listed.body.map((w) => w.id)).toContain(created.body.id);
    const patched = await api.request('PATCH', `/api/maintenance-windows/${created.body.id}`, {
      token,
      body: { title: 'Release' },
    });
    expect(patched.body).toMatchObject({ title: 'Release', timezone: 'Europe/Berlin' });
    expect(
      (await api.request('DELETE', `/api/maintenance-windows/${created.body.id}`, { token })).status,
    ).toBe(204);
    expect((await api.request('GET', `/api/maintenance-windows/${created.body.id}`, { token })).status).toBe(
      404,
    );
  });

  it.each([
    [{ endsAt: iso(HOUR) }, ['endsAt']],
    [{ startsAt: iso(0), endsAt: iso(32 * 24 * HOUR) }, ['endsAt']],
    [{ timezone: 'Mars/Olympus' }, ['timezone']],
    [{ recurrence: { frequency: 'daily', byWeekday: ['MO'] } }, ['recurrence.byWeekday']],
    [{ recurrence: { frequency: 'hourly' } }, ['recurrence.frequency']],
    [{ recurrence: { frequency: 'daily', interval: 0 } }, ['recurrence.interval']],
    [{ recurrence: { frequency: 'daily', until: iso(-HOUR) } }, ['recurrence.until']],
    [{ startsAt: 'tomorrow' }, ['startsAt']],
    [{ websiteId: 999_999 }, ['websiteId']],
    [{ colour: 'red' }, ['colour']],
  ])('400 for %j naming %j', async (body, paths) => {
    const res = await createWindow(body);
    expect(res.status).toBe(400);
    expect((res.body.errors ?? []).map((e) => e.path)).toEqual(paths);
  });

  it('a PATCH that breaks the window is refused and changes nothing', async () => {
    const { body } = await createWindow({});
    const res = await api.request<Problem>('PATCH', `/api/maintenance-windows/${body.id}`, {
      token,
      body: { endsAt: iso(-HOUR) },
    });
    expect(res.status).toBe(400);
    expect((await api.request('GET', `/api/maintenance-windows/${body.id}`, { token })).body).toMatchObject({
      endsAt: body.endsAt,
    });
  });

  it('check: a window running now puts the website in maintenance, with the active occurrence', async () => {
    const site = await createWebsite();
    expect((await api.request('GET', `/api/maintenance-windows/check/${site}`, { token })).body).toEqual({
      websiteId: site,
      inMaintenance: false,
      window: null,
    });
    // A daily window that started yesterday at this time: today's occurrence is running.
    const { body } = await createWindow({
      websiteId: site,
      startsAt: iso(-24 * HOUR - 60_000),
      endsAt: iso(-24 * HOUR + HOUR),
      recurrence: { frequency: 'daily' },
    });
    const check = await api.request<{
      inMaintenance: boolean;
      window: { id: number; startsAt: string; endsAt: string };
    }>('GET', `/api/maintenance-windows/check/${site}`, { token });
    expect(check.body.inMaintenance).toBe(true);
    expect(check.body.window.id).toBe(body.id);
    expect(new Date(check.body.window.startsAt).getTime()).toBeLessThan(Date.now());
    expect(new Date(check.body.window.endsAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('check flips to true when a window starts while the test runs, and back when it ends', async () => {
    const site = await createWebsite();
    const startsAt = Date.now() + 1500;
    await createWindow({
      websiteId: site,
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(startsAt + 2000).toISOString(),
    });
    const inMaintenance = async () =>
      (
        await api.request<{ inMaintenance: boolean }>('GET', `/api/maintenance-windows/check/${site}`, {
          token,
        })
      ).body.inMaintenance;
    expect(await inMaintenance()).toBe(false);
    await expect.poll(inMaintenance, { timeout: 5000, interval: 100 }).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt);
    await expect.poll(inMaintenance, { timeout: 5000, interval: 100 }).toBe(false);
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt + 2000);
  });

  describe('occurrences keep their wall-clock times across daylight-saving changes', () => {
    const occurrencesOf = async (body: Record<string, unknown>, from: string, limit: number) => {
      const { body: window } = await createWindow(body);
      const res = await api.request<{ timezone: string; items: Array<{ startsAt: string; endsAt: string }> }>(
        'GET',
        `/api/maintenance-windows/${window.id}/occurrences?from=${from}&limit=${limit}`,
        { token },
      );
      expect(res.status).toBe(200);
      return res.body.items.map((o) => [o.startsAt, o.endsAt]);
    };

    it('Europe/Berlin, 02:00–04:00 nightly: 2027-03-28 the skipped hour shortens it, 2027-10-31 the doubled one is taken once', async () => {
      const body = {
        timezone: 'Europe/Berlin',
        startsAt: '2027-03-26T02:00:00+01:00',
        endsAt: '2027-03-26T04:00:00+01:00',
        recurrence: { frequency: 'daily' },
      };
      expect(await occurrencesOf(body, '2027-03-27T00:00:00Z', 3)).toEqual([
        ['2027-03-27T01:00:00.000Z', '2027-03-27T03:00:00.000Z'],
        // 02:00 does not exist on the 28th: the window runs 03:00–04:00 CEST.
        ['2027-03-28T01:00:00.000Z', '2027-03-28T02:00:00.000Z'],
        ['2027-03-29T00:00:00.000Z', '2027-03-29T02:00:00.000Z'],
      ]);
      expect(await occurrencesOf(body, '2027-10-30T00:00:00Z', 3)).toEqual([
        ['2027-10-30T00:00:00.000Z', '2027-10-30T02:00:00.000Z'],
        // 02:00 happens twice on the 31st: the later (CET) one, to 04:00 CET.
        ['2027-10-31T01:00:00.000Z', '2027-10-31T03:00:00.000Z'],
        ['2027-11-01T01:00:00.000Z', '2027-11-01T03:00:00.000Z'],
      ]);
    });

    it('America/New_York, weekly on Sunday 22:00–23:00 around 2027-03-14 and 2027-11-07', async () => {
      const body = {
        timezone: 'America/New_York',
        startsAt: '2027-03-07T22:00:00-05:00',
        endsAt: '2027-03-07T23:00:00-05:00',
        recurrence: { frequency: 'weekly', byWeekday: ['SU'] },
      };
      expect(await occurrencesOf(body, '2027-03-01T00:00:00Z', 2)).toEqual([
        ['2027-03-08T03:00:00.000Z', '2027-03-08T04:00:00.000Z'],
        ['2027-03-15T02:00:00.000Z', '2027-03-15T03:00:00.000Z'],
      ]);
      expect(await occurrencesOf(body, '2027-11-01T00:00:00Z', 2)).toEqual([
        ['2027-11-01T02:00:00.000Z', '2027-11-01T03:00:00.000Z'],
        ['2027-11-08T03:00:00.000Z', '2027-11-08T04:00:00.000Z'],
      ]);
    });

    it('refuses a bad query naming the field', async () => {
      const { body: window } = await createWindow({});
      const res = await api.request<Problem>(
        'GET',
        `/api/maintenance-windows/${window.id}/occurrences?limit=500`,
        {
          token,
        },
      );
      expect(res.status).toBe(400);
      expect((res.body.errors ?? []).map((e) => e.path)).toEqual(['limit']);
    });
  });

  it('check/batch answers 1000 ids in request order, flagging unknown and foreign ones', async () => {
    const inWindow = await createWebsite();
    await createWindow({ websiteId: inWindow, startsAt: iso(-HOUR), endsAt: iso(HOUR) });
    const other = await api.createOrganization(['admin']);
    const foreign = (
      await api.request<{ id: number }>('POST', '/api/websites', {
        token: other.token,
        body: {
          customerId: await createCustomer(api, other.token, (await createPackage(api, other.token)).id),
          name: 'F',
          url: 'https://f.example.com/',
        },
      })
    ).body.id;
    const ids = [inWindow, websiteId, foreign, ...Array.from({ length: 997 }, (_, i) => 500_000 + i)];
    const res = await api.request<{ results: Array<Record<string, unknown>> }>(
      'POST',
      '/api/maintenance-windows/check/batch',
      {
        token,
        body: { websiteIds: ids },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => r.websiteId)).toEqual(ids);
    expect(res.body.results[0]).toMatchObject({
      websiteId: inWindow,
      inMaintenance: true,
      windowId: expect.any(Number),
      endsAt: expect.any(String),
    });
    expect(res.body.results[1]).toEqual({ websiteId, inMaintenance: false, windowId: null, endsAt: null });
    expect(res.body.results[2]).toEqual({
      websiteId: foreign,
      inMaintenance: false,
      windowId: null,
      endsAt: null,
      error: 'not_found',
    });
    expect(res.body.results.slice(3).every((r) => r.error === 'not_found')).toBe(true);
    const tooMany = await api.request('POST', '/api/maintenance-windows/check/batch', {
      token,
      body: { websiteIds: [...ids, 1] },
    });
    expect(tooMany.status).toBe(400);
    expect(
      (await api.request('POST', '/api/maintenance-windows/check/batch', { token, body: { websiteIds: [] } }))
        .status,
    ).toBe(400);
  });

  it('tenant isolation and scopes', async () => {
    const { body } = await createWindow({});
    const other = await api.createOrganization(['admin']);
    expect(
      (await api.request('GET', `/api/maintenance-windows/${body.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (
        await api.request('PATCH', `/api/maintenance-windows/${body.id}`, {
          token: other.token,
          body: { title: 'x' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await api.request('DELETE', `/api/maintenance-windows/${body.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await api.request('GET', `/api/maintenance-windows?websiteId=${websiteId}`, { token: other.token }))
        .status,
    ).toBe(404);
    expect(
      (await api.request('GET', `/api/maintenance-windows/check/${websiteId}`, { token: other.token }))
        .status,
    ).toBe(404);
    expect((await createWindow({}, other.token)).status).toBe(400);
    const reader = await api.createToken(organizationId, ['read']);
    expect((await api.request('GET', `/api/maintenance-windows/${body.id}`, { token: reader })).status).toBe(
      200,
    );
    expect((await createWindow({}, reader)).status).toBe(403);
  });
});
