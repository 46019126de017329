import { describe, expect, it } from 'vitest';
import { inOrder, type TimelineEntry, transitionSteps } from './incident-timeline.js';
import { initialMonitorState, type MonitorStateDocument } from './monitor-state.js';
import { decide } from './status-machine.js';

const T0 = Date.parse('2026-11-24T10:00:00Z');
const rules = {
  confirmations: 2,
  recoveryConfirmations: 1,
  regionQuorum: 1,
  regions: ['eu', 'us'],
  freshWithinMs: 60_000,
};

/** The state after these results (region, status, seconds after T0, result id), through the status machine. */
function stateAfter(
  state: MonitorStateDocument,
  ...results: Array<[string, 'up' | 'down', number, string]>
): MonitorStateDocument {
  let next = state;
  for (const [region, status, seconds, id] of results) {
    const decision = decide(
      next,
      { region, status, inMaintenance: false, at: T0 + seconds * 1000, id },
      rules,
    );
    next = { ...next, ...decision.state };
  }
  return next;
}

describe('a region’s first failure', () => {
  it('is kept while the region stays down, and forgotten when it comes back', () => {
    const down = stateAfter(initialMonitorState(1, 7), ['eu', 'down', 0, 'r1'], ['eu', 'down', 10, 'r2']);
    expect(down.regions.eu).toMatchObject({ downSince: T0, firstDownResultId: 'r1', consecutiveDown: 2 });
    const back = stateAfter(down, ['eu', 'up', 20, 'r3']);
    expect(back.regions.eu?.downSince).toBeUndefined();
    expect(stateAfter(back, ['eu', 'down', 30, 'r4']).regions.eu).toMatchObject({ firstDownResultId: 'r4' });
  });
});

describe('transitionSteps', () => {
  const opened = stateAfter(
    initialMonitorState(1, 7),
    ['eu', 'down', 0, 'r1'],
    ['us', 'down', 5, 'r2'],
    ['eu', 'down', 10, 'r3'],
  );

  it('an incident opens: each down region’s first failure (its result), then the confirmation', () => {
    const steps = transitionSteps({
      base: initialMonitorState(1, 7),
      next: opened,
      at: new Date(T0 + 10_000),
      opened: { id: 'inc', cause: 'HTTP 503' },
      resolved: null,
      events: [{ type: 'website.down' }],
    });
    expect(
      steps.map(({ incidentId, entry }) => [
        incidentId,
        entry.kind,
        entry.region,
        entry.resultId,
        entry.at.getTime() - T0,
      ]),
    ).toEqual([
      ['inc', 'failure', 'eu', 'r1', 0],
      ['inc', 'failure', 'us', 'r2', 5000],
      ['inc', 'confirmed', null, undefined, 10_000],
    ]);
    expect(steps[2]?.entry.text).toBe('HTTP 503');
  });

  it('while open: a recovering region, maintenance, then the resolution; nothing without an incident', () => {
    const base = { ...opened, openIncidentId: 'inc' };
    const usBack = stateAfter(base, ['us', 'up', 20, 'r4']);
    const steps = transitionSteps({
      base,
      next: usBack,
      at: new Date(T0 + 20_000),
      opened: null,
      resolved: null,
      events: [{ type: 'maintenance.started' }],
    });
    expect(steps.map(({ entry }) => [entry.kind, entry.region])).toEqual([
      ['recovery', 'us'],
      ['maintenance.started', null],
    ]);
    const allBack = stateAfter(usBack, ['eu', 'up', 30, 'r5']);
    const resolved = transitionSteps({
      base: usBack,
      next: { ...allBack, openIncidentId: null },
      at: new Date(T0 + 30_000),
      opened: null,
      resolved: 'inc',
      events: [{ type: 'website.up' }],
    });
    expect(resolved.map(({ incidentId, entry }) => [incidentId, entry.kind, entry.region])).toEqual([
      ['inc', 'recovery', 'eu'],
      ['inc', 'resolved', null],
    ]);
    expect(
      transitionSteps({
        base: usBack,
        next: usBack,
        at: new Date(),
        opened: null,
        resolved: null,
        events: [],
      }),
    ).toEqual([]);
    const quiet = { ...usBack, openIncidentId: null };
    expect(
      transitionSteps({
        base: quiet,
        next: stateAfter(quiet, ['us', 'down', 40, 'r6']),
        at: new Date(),
        opened: null,
        resolved: null,
        events: [],
      }),
    ).toEqual([]);
  });
});

describe('inOrder', () => {
  const entry = (key: string, seconds: number, kind: TimelineEntry['kind']): TimelineEntry => ({
    key,
    at: new Date(T0 + seconds * 1000),
    kind,
    by: { type: 'system', id: null, name: 'webmon' },
    region: null,
    text: null,
  });

  it('by time, then by the order of kinds at one instant; a step written twice shows once', () => {
    const sorted = inOrder([
      entry('resolved', 30, 'resolved'),
      entry('ack', 12, 'acknowledged'),
      entry('confirmed', 10, 'confirmed'),
      entry('failure:eu', 10, 'failure'),
      entry('ack', 12, 'acknowledged'),
    ]);
    expect(sorted.map((e) => e.key)).toEqual(['failure:eu', 'confirmed', 'ack', 'resolved']);
  });
});
