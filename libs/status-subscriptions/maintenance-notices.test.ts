import { describe, expect, it } from 'vitest';
import type { MaintenanceWindowDocument } from '../maintenance/index.js';
import { MAINTENANCE_TELL_WITHIN_MS, maintenanceNotices, phaseToTell } from './maintenance-notices.js';

const HOUR = 3_600_000;
const now = new Date('2026-11-30T12:00:00Z');
const at = (hours: number) => new Date(now.getTime() + hours * HOUR);

const window = (overrides: Partial<MaintenanceWindowDocument>): MaintenanceWindowDocument => ({
  id: 5,
  organizationId: 1,
  websiteId: 7,
  title: 'Database upgrade',
  startsAt: at(2),
  endsAt: at(3),
  timezone: 'Europe/Amsterdam',
  recurrence: null,
  createdAt: now,
  updatedAt: now,
  ...overrides,
});

describe('maintenance notices', () => {
  it('announce an occurrence within the notice days, then its start and its end, each just once in time', () => {
    const occurrence = { startsAt: at(2), endsAt: at(3) };
    expect(phaseToTell(occurrence, now, 7)).toBe('scheduled');
    expect(phaseToTell({ startsAt: at(24 * 8), endsAt: at(24 * 8 + 1) }, now, 7)).toBeNull();
    expect(phaseToTell(occurrence, at(2), 7)).toBe('started');
    expect(phaseToTell(occurrence, new Date(at(2).getTime() + MAINTENANCE_TELL_WITHIN_MS), 7)).toBeNull();
    expect(phaseToTell(occurrence, at(3), 7)).toBe('ended');
    expect(phaseToTell(occurrence, at(4), 7)).toBeNull();
    // No notice days: not announced, still told as it starts.
    expect(phaseToTell(occurrence, now, 0)).toBeNull();
  });

  it('are one per occurrence and phase of the page’s websites, with the window’s times', () => {
    const notices = maintenanceNotices({
      page: { id: 3, organizationId: 1, maintenanceNoticeDays: 2 },
      windows: [
        window({}),
        // Daily, running now: started (today's), and tomorrow's announced.
        window({
          id: 6,
          startsAt: at(-0.1),
          endsAt: at(0.5),
          recurrence: { frequency: 'daily', interval: 1 },
        }),
        // Another website's, not on the page.
        window({ id: 8, websiteId: 99 }),
      ],
      websiteNames: new Map([[7, 'Shop']]),
      now,
    });
    expect(notices.map((n) => [n._id, n.kind])).toEqual([
      [`maintenance:3:5:${at(2).getTime()}:scheduled`, 'maintenance.scheduled'],
      [`maintenance:3:6:${now.getTime()}:scheduled`, 'maintenance.scheduled'],
    ]);
    expect(notices[1]).toMatchObject({
      window: { startsAt: at(23.9) },
      text: 'It repeats daily; you are told of it once.',
    });
    expect(notices[0]).toMatchObject({
      components: [7],
      componentNames: ['Shop'],
      window: { startsAt: at(2), endsAt: at(3) },
      title: 'Database upgrade',
      status: 'Scheduled',
    });
  });
});
