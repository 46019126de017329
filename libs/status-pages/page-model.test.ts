import { describe, expect, it } from 'vitest';
import { buildStatusPage, dayBars, groupIntoSections } from './page-model.js';

const now = new Date('2026-11-23T12:00:00Z');

describe('dayBars', () => {
  it('no bar before the website existed or on days without checks; downtime clipped to each day', () => {
    const bars = dayBars({
      now,
      createdAt: new Date('2026-11-21T18:00:00Z'),
      checkedDays: new Set(['2026-11-21', '2026-11-22', '2026-11-23']),
      incidents: [
        {
          websiteId: 1,
          startedAt: new Date('2026-11-22T23:00:00Z'),
          resolvedAt: new Date('2026-11-23T01:00:00Z'),
        },
      ],
    });
    expect(bars).toHaveLength(90);
    expect(bars.slice(0, 87).every((bar) => bar.uptimePercent === null)).toBe(true);
    expect(bars.slice(87)).toEqual([
      // 6 h of the 21st (from its creation), all up.
      { date: '2026-11-21', uptimePercent: 100, downtimeSeconds: 0 },
      // One hour down of 24.
      { date: '2026-11-22', uptimePercent: 95.833, downtimeSeconds: 3600 },
      // One hour down of the 12 so far today.
      { date: '2026-11-23', uptimePercent: 91.667, downtimeSeconds: 3600 },
    ]);
  });
});

describe('buildStatusPage', () => {
  it('a website checked for 5 minutes, nothing flushed to the rollups yet: today’s bar and the 90 days read 100 %', () => {
    const page = buildStatusPage({
      now,
      page: {
        title: 'T',
        branding: { logoUrl: null, accentColor: null, footerText: null },
        showResponseTimes: false,
      },
      websites: [
        {
          id: 1,
          name: 'New',
          status: 'up',
          lastCheckedAt: new Date(now.getTime() - 60_000),
          createdAt: new Date(now.getTime() - 5 * 60_000),
        },
      ],
      days: [],
      hours: [],
      incidents: [],
      maintenance: [],
    });
    const [website] = page.websites;
    expect(website?.days.at(-1)).toMatchObject({ date: '2026-11-23', uptimePercent: 100 });
    expect(website?.uptime90dPercent).toBe(100);
  });

  const base = {
    now,
    page: {
      title: 'T',
      branding: { logoUrl: null, accentColor: null, footerText: null },
      showResponseTimes: false,
    },
    days: [],
    hours: [],
    incidents: [],
    maintenance: [],
  };
  const website = (id: number, status: 'up' | 'down' | 'degraded' | 'maintenance' | 'paused') => ({
    id,
    name: `W${id}`,
    status,
    lastCheckedAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
  });

  it('says the overall state in words', () => {
    const overall = (...statuses: Array<'up' | 'down' | 'degraded' | 'maintenance' | 'paused'>) =>
      buildStatusPage({ ...base, websites: statuses.map((s, i) => website(i, s)) }).overall.text;
    expect(overall('up', 'up')).toBe('All systems operational');
    expect(overall('up', 'degraded')).toBe('Degraded performance');
    expect(overall('up', 'down')).toBe('Partial outage');
    expect(overall('down', 'down', 'paused')).toBe('Major outage');
    expect(overall('up', 'maintenance')).toBe('Under maintenance');
    expect(overall('paused')).toBe('No data yet');
  });

  it('lists open incidents (with their public root cause) and recent resolved ones only, and no response times unless asked', () => {
    const data = buildStatusPage({
      ...base,
      websites: [website(1, 'down')],
      incidents: [
        {
          websiteId: 1,
          startedAt: new Date('2026-11-23T11:00:00Z'),
          resolvedAt: null,
          publicNote: { text: 'The hosting provider’s database failed over' },
        },
        {
          websiteId: 1,
          startedAt: new Date('2026-10-01T00:00:00Z'),
          resolvedAt: new Date('2026-10-01T01:00:00Z'),
        },
        { websiteId: 9, startedAt: new Date('2026-11-23T11:00:00Z'), resolvedAt: null },
      ],
    });
    expect(data.incidents).toEqual([
      {
        website: 'W1',
        startedAt: '2026-11-23T11:00:00.000Z',
        resolvedAt: null,
        durationSeconds: 3600,
        open: true,
        note: 'The hosting provider’s database failed over',
      },
    ]);
    expect(data.websites[0]?.responseTimes).toBeNull();
  });

  it('a website’s other monitors have their own bars and 90 days from their incidents, and their incidents are listed by both names', () => {
    const data = buildStatusPage({
      ...base,
      websites: [
        {
          ...website(1, 'up'),
          lastCheckedAt: new Date('2026-11-23T11:59:00Z'),
          monitors: [
            {
              kind: 'smtp',
              name: 'MX',
              health: 'down',
              history: {
                // Added two days ago; down for the last hour.
                createdAt: new Date('2026-11-21T12:00:00Z'),
                incidents: [{ startedAt: new Date('2026-11-23T11:00:00Z'), resolvedAt: null }],
              },
            },
            { kind: 'dns', name: 'A shop.example', health: 'up' },
          ],
        },
      ],
    });
    const [mail, dns] = data.websites[0]?.monitors ?? [];
    expect(mail).toMatchObject({ kind: 'Outgoing mail', name: 'MX', status: 'down' });
    expect(mail?.days).toHaveLength(90);
    expect(mail?.days.at(-1)).toMatchObject({ date: '2026-11-23', downtimeSeconds: 3600 });
    expect(mail?.days.at(-1)?.uptimePercent).toBeCloseTo(91.667, 2);
    // Before it was added: no data, whatever the website had.
    expect(mail?.days.at(-4)?.uptimePercent).toBeNull();
    expect(mail?.uptime90dPercent).toBeCloseTo((1 - 3600 / (2 * 86_400)) * 100, 2);
    // A monitor whose history is not known shows its status without bars.
    expect(dns).toMatchObject({ status: 'up', days: [], uptime90dPercent: null });
    expect(data.incidents).toEqual([
      expect.objectContaining({ website: 'W1 · Outgoing mail: MX', open: true, durationSeconds: 3600 }),
    ]);
  });
  it('a browser journey and an API flow are components of their website: status, day bars and incidents in plain words, no cause', () => {
    const data = buildStatusPage({
      ...base,
      websites: [
        {
          ...website(1, 'up'),
          lastCheckedAt: new Date('2026-11-23T11:59:00Z'),
          monitors: [
            {
              kind: 'browser',
              name: 'Checkout',
              health: 'down',
              history: {
                createdAt: new Date('2026-11-22T12:00:00Z'),
                incidents: [{ startedAt: new Date('2026-11-23T10:00:00Z'), resolvedAt: null }],
              },
            },
            {
              kind: 'api-flow',
              name: 'Sign in',
              health: 'up',
              history: { createdAt: new Date('2026-11-22T12:00:00Z'), incidents: [] },
            },
          ],
        },
      ],
    });
    const [journey, flow] = data.websites[0]?.monitors ?? [];
    expect(journey).toMatchObject({
      kind: 'Website journey',
      name: 'Checkout',
      status: 'down',
      statusText: 'Down',
    });
    expect(journey?.days.at(-1)).toMatchObject({ date: '2026-11-23', downtimeSeconds: 7200 });
    expect(journey?.uptime90dPercent).toBeCloseTo((1 - 7200 / 86_400) * 100, 2);
    expect(flow).toMatchObject({ kind: 'API', name: 'Sign in', status: 'up', uptime90dPercent: 100 });
    expect(flow?.days.at(-1)?.uptimePercent).toBe(100);
    expect(data.overall.state).toBe('partial-outage');
    expect(data.incidents).toEqual([
      expect.objectContaining({ website: 'W1 · Website journey: Checkout', open: true, note: null }),
    ]);
  });
});

describe('sections', () => {
  it('groups the websites in the sections’ order, those in none last, ids not on the page skipped', () => {
    expect(
      groupIntoSections(
        [1, 2, 3, 4, 5],
        [
          { name: 'Shop', websiteIds: [3, 1, 99] },
          { name: 'Empty', websiteIds: [] },
          { name: 'Mail', websiteIds: [5] },
        ],
      ),
    ).toEqual([
      { name: 'Shop', websiteIds: [3, 1] },
      { name: 'Empty', websiteIds: [] },
      { name: 'Mail', websiteIds: [5] },
      { name: null, websiteIds: [2, 4] },
    ]);
    expect(groupIntoSections([1, 2], [])).toEqual([]);
    expect(groupIntoSections([1], [{ name: 'All', websiteIds: [1] }])).toEqual([
      { name: 'All', websiteIds: [1] },
    ]);
  });

  it('orders the page’s websites as its sections do, in the page’s language', () => {
    const page = buildStatusPage({
      now,
      page: {
        title: 'T',
        branding: { logoUrl: null, accentColor: null, footerText: null },
        showResponseTimes: false,
        language: 'de',
        timezone: 'Europe/Berlin',
        sections: [
          { name: 'Mail', websiteIds: [3] },
          { name: 'Shop', websiteIds: [2, 1] },
        ],
      },
      websites: [1, 2, 3, 4].map((id) => ({
        id,
        name: `W${id}`,
        status: 'up' as const,
        lastCheckedAt: now,
        createdAt: new Date(now.getTime() - 86_400_000),
      })),
      days: [],
      hours: [],
      incidents: [],
      maintenance: [],
    });
    expect(page.websites.map((w) => w.name)).toEqual(['W3', 'W2', 'W1', 'W4']);
    expect(page.sections).toEqual([
      { name: 'Mail', websites: [0] },
      { name: 'Shop', websites: [1, 2] },
      { name: null, websites: [3] },
    ]);
    expect(page).toMatchObject({ language: 'de', timezone: 'Europe/Berlin' });
    expect(page.overall.text).toBe('Alle Systeme betriebsbereit');
    expect(page.websites[0]?.statusText).toBe('Betriebsbereit');
  });
});
