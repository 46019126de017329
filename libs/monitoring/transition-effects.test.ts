import { describe, expect, it } from 'vitest';
import type { Lease } from '../locks/index.js';
import { afterResult } from './monitor-decisions.js';
import { initialMonitorState } from './monitor-state.js';
import { type EventLinks, effectsOf, type TransitionPlan } from './transition-effects.js';

const at = new Date('2026-11-23T10:00:00Z');
const website = {
  organizationId: 1,
  id: 7,
  publicId: 'shop7',
  name: 'Tea Shop',
  url: 'https://shop.example/',
  customerId: 3,
  monitor: { kind: 'browser' as const, id: 12, name: 'Buy a teapot' },
};
const lease: Lease = { fence: 1, lapsed: false, lost: false, stillHeld: async () => true };
const cause = 'Step 9 (Add to basket): not done within 2 s';

/** A browser journey's first failing run, confirmed at once, with its run's screenshot. */
function journeyDown(): TransitionPlan {
  const state = initialMonitorState(1, 7, { kind: 'browser', id: 12 });
  const outcome = afterResult(
    state,
    { region: 'eu-west', status: 'down', startedAt: at, inMaintenance: false, checks: [], cause },
    {
      confirmations: 1,
      recoveryConfirmations: 1,
      regionQuorum: 1,
      regions: ['eu-west'],
      freshWithinMs: 1_200_000,
      reminderIntervalMinutes: 0,
    },
  );
  return {
    trigger: `result:eu-west:${at.getTime()}`,
    at,
    outcome,
    details: {
      result: {
        region: 'eu-west',
        startedAt: at,
        httpStatus: null,
        error: { code: 'JOURNEY_STEP_FAILED', message: cause },
        checks: [],
      },
      screenshot: { runId: '0123456789abcdef01234567', name: 'failure' },
    },
  };
}

const links: Required<EventLinks> = {
  incident: (id) => `https://monitor.example/incidents/${id}`,
  screenshot: (publicId, shot) =>
    `https://monitor.example/api/websites/${publicId}/results/${shot.runId}/screenshot`,
};

describe('a failing browser journey’s transition', () => {
  it('tells browser.down with the failing step as the cause and its screenshot’s link, not the run’s ids', () => {
    const base = initialMonitorState(1, 7, { kind: 'browser', id: 12 });
    const { effects } = effectsOf(website, base, journeyDown(), lease, links.incident, links.screenshot);
    expect(effects.openIncident?.cause).toBe(cause);
    const [event] = effects.events;
    expect(event?.type).toBe('browser.down');
    expect(event?.data).toMatchObject({
      monitor: { kind: 'browser', monitorId: 12, name: 'Buy a teapot' },
      result: { error: { message: cause } },
      screenshotUrl: 'https://monitor.example/api/websites/shop7/results/0123456789abcdef01234567/screenshot',
    });
    expect(event?.data).not.toHaveProperty('screenshot');
  });

  it('without the app’s address (no PUBLIC_URL) the alert carries no link', () => {
    const base = initialMonitorState(1, 7, { kind: 'browser', id: 12 });
    const { effects } = effectsOf(website, base, journeyDown(), lease, undefined, undefined);
    expect(effects.events[0]?.data).not.toHaveProperty('screenshotUrl');
    expect(effects.events[0]?.data).not.toHaveProperty('incidentUrl');
  });
});
