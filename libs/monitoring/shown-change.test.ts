import { describe, expect, it } from 'vitest';
import { initialMonitorState, type MonitorStateDocument } from './monitor-state.js';
import { overviewShowsChange } from './shown-change.js';

const at = new Date('2026-11-29T12:00:00Z');
const state = (over: Partial<MonitorStateDocument> = {}): MonitorStateDocument => ({
  ...initialMonitorState(1, 100),
  health: 'up',
  reported: { status: 'up', since: new Date('2026-11-29T11:00:00Z') },
  ...over,
});
const monitor = { monitor: { kind: 'port' as const, id: 7 } };
const website = { monitor: null };

describe('whether a transition changed what the overview shows', () => {
  it.each<[string, typeof monitor | typeof website, Partial<MonitorStateDocument>, boolean]>([
    ['another monitor went down', monitor, { health: 'down' }, true],
    ['another monitor stayed up (a check, nothing else)', monitor, { lastResultAt: at }, false],
    ['the website went into maintenance', website, { maintenanceActive: true }, true],
    [
      'the website’s reported status moved (placement: unmonitored)',
      website,
      { reported: { status: 'unmonitored', since: at } },
      true,
    ],
    [
      'the website’s state moved but not what it reports (a check told by the feed)',
      website,
      { lastResultAt: at },
      false,
    ],
  ])('%s: %s', (_name, subject, after, expected) => {
    expect(overviewShowsChange(subject, state(), state(after), at)).toBe(expected);
  });

  it('a maintenance span that covers the time counts even before its start job ran', () => {
    const span = {
      windowId: 3,
      startsAt: new Date('2026-11-29T11:30:00Z'),
      endsAt: new Date('2026-11-29T13:00:00Z'),
    };
    expect(overviewShowsChange(website, state(), state({ maintenance: span }), at)).toBe(true);
    expect(overviewShowsChange(website, state({ maintenance: span }), state({ maintenance: span }), at)).toBe(
      false,
    );
  });
});
