import { describe, expect, it } from 'vitest';
import { afterPlacement, afterResult, atMaintenanceBoundary, statusEventFor } from './monitor-decisions.js';
import { initialMonitorState, type MonitorStateDocument } from './monitor-state.js';
import { type DecisionRules, decide, type RegionTrack, reevaluate } from './status-machine.js';

const T0 = Date.parse('2026-11-23T10:00:00Z');
const rules: DecisionRules = {
  confirmations: 2,
  recoveryConfirmations: 1,
  regionQuorum: 1,
  regions: ['eu-west', 'us-east'],
  // 2 × a 10 s interval + a 1 s re-check
  freshWithinMs: 21_000,
};
const track = (lastStatus: RegionTrack['lastStatus'], secondsAgo: number, down = 0, up = 0): RegionTrack => ({
  lastStatus,
  consecutiveDown: down,
  consecutiveUp: up,
  lastResultAt: T0 - secondsAgo * 1000,
});
const state = (over: Partial<MonitorStateDocument> = {}): MonitorStateDocument => ({
  ...initialMonitorState(1, 7),
  ...over,
});
const downInBoth = state({
  health: 'down',
  notifiedHealth: 'down',
  openIncidentId: 'inc-1',
  regions: { 'eu-west': track('down', 5, 2), 'us-east': track('down', 5, 2) },
});

describe('quorum over fresh regions', () => {
  it.each([
    // us-east last reported … ago, eu-west now reports up → health
    ['while us-east is fresh (10 s)', 10, 'down'],
    ['once us-east is stale (30 s)', 30, 'up'],
  ])('a down website with eu-west back up %s stays %s', (_label, usEastAgo, health) => {
    const start = {
      ...downInBoth,
      regions: { ...downInBoth.regions, 'us-east': track('down', usEastAgo, 2) },
    };
    const decision = decide(start, { region: 'eu-west', status: 'up', inMaintenance: false, at: T0 }, rules);
    expect(decision.state.health).toBe(health);
  });

  it('the quorum is capped by the fresh regions, not by the regions that exist', () => {
    const quorumOfTwo = { ...rules, regionQuorum: 2 };
    const start = state({
      health: 'up',
      notifiedHealth: 'up',
      regions: { 'us-east': track('up', 300, 0, 5) },
    });
    let next = decide(
      start,
      { region: 'eu-west', status: 'down', inMaintenance: false, at: T0 },
      quorumOfTwo,
    );
    next = decide(
      next.state,
      { region: 'eu-west', status: 'down', inMaintenance: false, at: T0 + 1000 },
      quorumOfTwo,
    );
    expect(next.state.health).toBe('down');
  });

  it.each([
    ['its last region gone, eu-west up', ['eu-west'], { 'eu-west': track('up', 3, 0, 1) }, 'up', 'resolve'],
    ['us-east gone, eu-west still down', ['eu-west'], { 'eu-west': track('down', 3, 2) }, 'down', null],
    ['no fresh region left', ['eu-west'], { 'eu-west': track('up', 60, 0, 1) }, 'down', null],
  ] as const)(
    're-evaluated when a region stops serving (%s)',
    (_label, regions, tracks, health, incident) => {
      const start = { ...downInBoth, regions: { ...tracks, 'us-east': track('down', 3, 2) } };
      const decision = reevaluate(start, { ...rules, regions }, T0, false);
      expect(decision.state.health).toBe(health);
      expect(decision.incident).toBe(incident);
      expect(Object.keys(decision.state.regions)).toEqual(['eu-west']);
    },
  );
});

describe('which events a monitor tells', () => {
  it.each([
    ['unknown', 'up', null],
    ['unknown', 'down', 'website.down'],
    ['up', 'down', 'website.down'],
    ['down', 'up', 'website.up'],
    ['up', 'degraded', 'website.degraded'],
    ['degraded', 'up', 'website.up'],
    ['down', 'degraded', 'website.degraded'],
  ] as const)('%s → %s: %s', (from, to, event) => {
    expect(statusEventFor({ from, to })).toBe(event);
  });

  const placement = (over: Partial<Parameters<typeof afterPlacement>[1]> = {}) => ({
    at: new Date(T0),
    rules,
    inMaintenance: false,
    paused: false,
    cancelled: false,
    wasUnmonitored: false,
    unmonitored: false,
    ...over,
  });

  it.each([
    [
      'checking stops',
      { unmonitored: true, rules: { ...rules, regions: [] } },
      ['website.unmonitored'],
      'unmonitored',
    ],
    ['checking resumes', { wasUnmonitored: true }, ['website.monitored'], 'up'],
    [
      'paused while unmonitored',
      { wasUnmonitored: true, paused: true, rules: { ...rules, regions: [] } },
      [],
      'paused',
    ],
    [
      'still unmonitored (reason changed)',
      { wasUnmonitored: true, unmonitored: true, rules: { ...rules, regions: [] } },
      [],
      'unmonitored',
    ],
    ['its customer cancelled', { cancelled: true, rules: { ...rules, regions: [] } }, [], 'cancelled'],
  ] as const)('placement: %s → %j, reported %s', (_label, facts, events, reported) => {
    const up = state({ health: 'up', notifiedHealth: 'up', regions: { 'eu-west': track('up', 2, 0, 3) } });
    const outcome = afterPlacement(up, placement(facts));
    expect(outcome.events.map((e) => e.type)).toEqual(events);
    expect(outcome.state.reported).toEqual({ status: reported, since: new Date(T0) });
  });

  it('a region gone that held a down tells website.up and resolves the incident', () => {
    const start = {
      ...downInBoth,
      regions: { 'eu-west': track('up', 2, 0, 2), 'us-east': track('down', 2, 2) },
    };
    const outcome = afterPlacement(start, placement({ rules: { ...rules, regions: ['eu-west'] } }));
    expect(outcome.events.map((e) => e.type)).toEqual(['website.up']);
    expect(outcome.incident).toBe('resolve');
  });

  it('a result: status change, then expiry crossings; the reported status keeps when it began', () => {
    const up = state({
      health: 'up',
      notifiedHealth: 'up',
      reported: { status: 'up', since: new Date(T0 - 3_600_000) },
      regions: { 'eu-west': track('up', 5, 0, 3) },
    });
    const result = (status: 'up' | 'down', at: number) => ({
      region: 'eu-west',
      status,
      startedAt: new Date(at),
      inMaintenance: false,
      checks: [{ name: 'ssl' as const, outcome: 'warn' as const }],
      cause: status === 'down' ? 'HTTP 503' : null,
    });
    const steady = afterResult(up, result('up', T0), { ...rules, reminderIntervalMinutes: 0 });
    expect(steady.events.map((e) => e.type)).toEqual(['ssl.expiring']);
    expect(steady.state.reported?.since).toEqual(new Date(T0 - 3_600_000));
    const first = afterResult(steady.state, result('down', T0 + 1000), {
      ...rules,
      reminderIntervalMinutes: 0,
    });
    const second = afterResult(first.state, result('down', T0 + 2000), {
      ...rules,
      reminderIntervalMinutes: 0,
    });
    expect([first.events, second.events].map((events) => events.map((e) => e.type))).toEqual([
      [],
      ['website.down'],
    ]);
    expect(second.state.reported).toEqual({ status: 'down', since: new Date(T0 + 2000) });
    expect(second.incident).toBe('open');
  });

  it('a maintenance end tells maintenance.ended, then the status that changed inside', () => {
    const inside = state({ health: 'down', notifiedHealth: 'up', maintenanceActive: true });
    const outcome = atMaintenanceBoundary(inside, { active: false, at: new Date(T0), paused: false });
    expect(outcome.events.map((e) => e.type)).toEqual(['maintenance.ended', 'website.down']);
    expect(outcome.incident).toBe('open');
  });
});
