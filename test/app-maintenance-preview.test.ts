import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

type Preview = {
  timezone: string;
  items: Array<{ startsAt: string; endsAt: string }>;
  errors?: Array<{ path: string }>;
};

/** The app previews a window's next occurrences before it is saved: POST /api/maintenance-windows/preview. */
describe('maintenance window preview (what the app shows before saving)', () => {
  let api: TestApi;
  let token: string;
  let readToken: string;
  beforeAll(async () => {
    api = await TestApi.start();
    let organizationId: number;
    ({ organizationId, token } = await api.createOrganization(['admin']));
    readToken = await api.createToken(organizationId, ['read']);
  });
  afterAll(() => api.stop());

  const preview = (body: Record<string, unknown>, as = token) =>
    api.request<Preview>('POST', '/api/maintenance-windows/preview', { token: as, body });

  it('repeats a weekly window’s wall-clock times in its timezone across a daylight-saving change, with read scope', async () => {
    // Mondays and Thursdays 02:00–04:00 in Berlin, from a Monday in March 2026 (DST starts 29 March).
    const answer = await preview(
      {
        startsAt: '2026-03-23T01:00:00Z',
        endsAt: '2026-03-23T03:00:00Z',
        timezone: 'Europe/Berlin',
        recurrence: { frequency: 'weekly', byWeekday: ['MO', 'TH'] },
        from: '2026-03-23T00:00:00Z',
      },
      readToken,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.timezone).toBe('Europe/Berlin');
    expect(answer.body.items.map((o) => o.startsAt)).toEqual([
      '2026-03-23T01:00:00.000Z',
      '2026-03-26T01:00:00.000Z',
      '2026-03-30T00:00:00.000Z', // 02:00 CEST
      '2026-04-02T00:00:00.000Z',
      '2026-04-06T00:00:00.000Z',
    ]);
    expect(answer.body.items[2]?.endsAt).toBe('2026-03-30T02:00:00.000Z');
  });

  it('answers a one-off window once, honours limit and until, and skips occurrences already over', async () => {
    const once = await preview({
      startsAt: '2030-01-01T10:00:00Z',
      endsAt: '2030-01-01T11:00:00Z',
      from: '2029-12-31T00:00:00Z',
    });
    expect(once.body).toEqual({
      timezone: 'UTC',
      items: [{ startsAt: '2030-01-01T10:00:00.000Z', endsAt: '2030-01-01T11:00:00.000Z' }],
    });
    const daily = await preview({
      startsAt: '2030-01-01T10:00:00Z',
      endsAt: '2030-01-01T11:00:00Z',
      recurrence: { frequency: 'daily', interval: 2, until: '2030-01-05T10:00:00Z' },
      from: '2030-01-01T10:30:00Z',
      limit: 10,
    });
    expect(daily.body.items.map((o) => o.startsAt)).toEqual([
      '2030-01-01T10:00:00.000Z', // still running at `from`
      '2030-01-03T10:00:00.000Z',
      '2030-01-05T10:00:00.000Z',
    ]);
  });

  it('refuses what a create refuses, at the fields, and stores nothing', async () => {
    const backwards = await preview({ startsAt: '2030-01-01T10:00:00Z', endsAt: '2030-01-01T09:00:00Z' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors?.map((e) => e.path)).toContain('endsAt');
    const weekdays = await preview({
      startsAt: '2030-01-01T10:00:00Z',
      endsAt: '2030-01-01T11:00:00Z',
      recurrence: { frequency: 'daily', byWeekday: ['MO'] },
    });
    expect(weekdays.body.errors?.map((e) => e.path)).toContain('recurrence.byWeekday');
    const zone = await preview({
      startsAt: '2030-01-01T10:00:00Z',
      endsAt: '2030-01-01T11:00:00Z',
      timezone: 'Mars/Olympus',
    });
    expect(zone.status).toBe(400);
    expect(zone.body.errors?.map((e) => e.path)).toContain('timezone');
    expect((await api.request('POST', '/api/maintenance-windows/preview', { body: {} })).status).toBe(401);
  });
});
