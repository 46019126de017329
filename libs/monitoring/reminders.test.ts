import { describe, expect, it } from 'vitest';
import { reminderDue } from './reminders.js';

const since = new Date('2026-11-22T10:00:00Z');
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);

describe('reminderDue', () => {
  const down = {
    notifiedHealth: 'down',
    since,
    remindedAt: null,
    openIncidentId: 'incident-1',
    acknowledgedIncidentId: null,
  };

  it('after the interval since going down, then since the last reminder', () => {
    expect(reminderDue(down, at(29), 30, false)).toBe(false);
    expect(reminderDue(down, at(30), 30, false)).toBe(true);
    const reminded = { ...down, remindedAt: at(30) };
    expect(reminderDue(reminded, at(59), 30, false)).toBe(false);
    expect(reminderDue(reminded, at(60), 30, false)).toBe(true);
  });

  it('never with no interval, in maintenance, or unless the down was told', () => {
    expect(reminderDue(down, at(600), 0, false)).toBe(false);
    expect(reminderDue(down, at(600), 30, true)).toBe(false);
    expect(reminderDue({ ...down, notifiedHealth: 'up' }, at(600), 30, false)).toBe(false);
  });

  it('never for an acknowledged incident; again for the next one', () => {
    const acknowledged = { ...down, acknowledgedIncidentId: 'incident-1' };
    expect(reminderDue(acknowledged, at(600), 30, false)).toBe(false);
    expect(reminderDue({ ...acknowledged, openIncidentId: 'incident-2' }, at(600), 30, false)).toBe(true);
  });
});
