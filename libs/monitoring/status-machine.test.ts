import { describe, expect, it } from 'vitest';
import type { HealthStatus } from '../checks/index.js';
import {
  type DecisionRules,
  decide,
  INITIAL_STATE,
  type MonitorState,
  reportedStatus,
  settle,
} from './status-machine.js';

const oneRegion: DecisionRules = {
  confirmations: 2,
  recoveryConfirmations: 1,
  regionQuorum: 1,
  regions: ['eu'],
  freshWithinMs: 60_000,
};

/** Results a second apart, so every region stays fresh unless a test moves the clock. */
let clock = 1_000_000;
const at = () => (clock += 1000);

/** Feeds results in order and returns the health after each, plus the incidents and rechecks. */
function replay(
  results: Array<[string, HealthStatus]>,
  rules: DecisionRules,
  start: MonitorState = INITIAL_STATE,
) {
  let state = start;
  return results.map(([region, status]) => {
    const decision = decide(state, { region, status, inMaintenance: false, at: at() }, rules);
    state = decision.state;
    return { health: state.health, incident: decision.incident, recheck: decision.recheckSoon };
  });
}

/** The state after these statuses in region eu, inside or outside maintenance. */
function stateAfter(statuses: HealthStatus[], inMaintenance: boolean, start: MonitorState = INITIAL_STATE) {
  let state = start;
  for (const status of statuses)
    state = decide(state, { region: 'eu', status, inMaintenance, at: at() }, oneRegion).state;
  return state;
}

describe('decide', () => {
  it('the first good result makes a new website up', () => {
    expect(replay([['eu', 'up']], oneRegion)).toEqual([{ health: 'up', incident: null, recheck: false }]);
  });

  it('needs `confirmations` down results in a row, re-checking soon in between', () => {
    expect(
      replay(
        [
          ['eu', 'up'],
          ['eu', 'down'],
          ['eu', 'down'],
        ],
        oneRegion,
      ),
    ).toEqual([
      { health: 'up', incident: null, recheck: false },
      { health: 'up', incident: null, recheck: true },
      { health: 'down', incident: 'open', recheck: false },
    ]);
  });

  it('a single blip does not open an incident', () => {
    expect(
      replay(
        [
          ['eu', 'up'],
          ['eu', 'down'],
          ['eu', 'up'],
          ['eu', 'down'],
        ],
        oneRegion,
      ).map((r) => r.health),
    ).toEqual(['up', 'up', 'up', 'up']);
  });

  it('recovers after `recoveryConfirmations` good results', () => {
    const rules = { ...oneRegion, recoveryConfirmations: 2 };
    expect(
      replay(
        [
          ['eu', 'down'],
          ['eu', 'down'],
          ['eu', 'up'],
          ['eu', 'up'],
        ],
        rules,
      ),
    ).toEqual([
      { health: 'unknown', incident: null, recheck: true },
      { health: 'down', incident: 'open', recheck: false },
      { health: 'down', incident: null, recheck: true },
      { health: 'up', incident: 'resolve', recheck: false },
    ]);
  });

  it('degraded and back to up without an incident', () => {
    expect(
      replay(
        [
          ['eu', 'up'],
          ['eu', 'degraded'],
          ['eu', 'up'],
        ],
        oneRegion,
      ),
    ).toEqual([
      { health: 'up', incident: null, recheck: false },
      { health: 'degraded', incident: null, recheck: false },
      { health: 'up', incident: null, recheck: false },
    ]);
  });

  it('confirmations of 1 makes down at once', () => {
    expect(replay([['eu', 'down']], { ...oneRegion, confirmations: 1 })[0]).toEqual({
      health: 'down',
      incident: 'open',
      recheck: false,
    });
  });

  describe('several regions', () => {
    const twoOfThree: DecisionRules = {
      confirmations: 2,
      recoveryConfirmations: 1,
      regionQuorum: 2,
      regions: ['eu', 'us', 'ap'],
      freshWithinMs: 60_000,
    };

    it('one region down is not enough when the quorum is two', () => {
      const health = replay(
        [
          ['eu', 'up'],
          ['us', 'up'],
          ['eu', 'down'],
          ['eu', 'down'],
          ['eu', 'down'],
        ],
        twoOfThree,
      ).map((r) => r.health);
      expect(health.at(-1)).toBe('up');
    });

    it('two regions confirming down open one incident', () => {
      const results = replay(
        [
          ['eu', 'down'],
          ['us', 'down'],
          ['eu', 'down'],
          ['us', 'down'],
        ],
        twoOfThree,
      );
      expect(results.map((r) => r.incident)).toEqual([null, null, null, 'open']);
    });

    it('resolves when the quorum no longer holds', () => {
      const results = replay(
        [
          ['eu', 'down'],
          ['us', 'down'],
          ['eu', 'down'],
          ['us', 'down'],
          ['eu', 'up'],
        ],
        twoOfThree,
      );
      expect(results.at(-1)).toMatchObject({ health: 'up', incident: 'resolve' });
    });

    it('a quorum larger than the regions checked is capped', () => {
      const results = replay(
        [
          ['eu', 'down'],
          ['eu', 'down'],
        ],
        { ...twoOfThree, regions: ['eu'] },
      );
      expect(results.at(-1)?.health).toBe('down');
    });

    it('forgets regions the website is no longer checked from', () => {
      const start = replay(
        [
          ['eu', 'down'],
          ['us', 'down'],
          ['eu', 'down'],
          ['us', 'down'],
        ],
        twoOfThree,
      );
      expect(start.at(-1)?.health).toBe('down');
      let state: MonitorState = INITIAL_STATE;
      for (const [region, status] of [
        ['eu', 'down'],
        ['us', 'down'],
        ['eu', 'down'],
        ['us', 'down'],
      ] as const) {
        state = decide(state, { region, status, inMaintenance: false, at: at() }, twoOfThree).state;
      }
      const after = decide(
        state,
        { region: 'eu', status: 'up', inMaintenance: false, at: at() },
        { ...twoOfThree, regions: ['eu'] },
      );
      expect(Object.keys(after.state.regions)).toEqual(['eu']);
      expect(after.state.health).toBe('up');
    });

    it('degraded in one region makes the website degraded', () => {
      expect(
        replay(
          [
            ['eu', 'up'],
            ['us', 'degraded'],
          ],
          twoOfThree,
        ).at(-1)?.health,
      ).toBe('degraded');
    });
  });
});

describe('maintenance: health followed, nobody told until it ends', () => {
  const up = stateAfter(['up'], false);

  it('a failure confirmed inside maintenance changes the health but notifies nothing and opens no incident', () => {
    let state = up;
    const decisions = (['down', 'down', 'down'] as const).map((status) => {
      const decision = decide(state, { region: 'eu', status, inMaintenance: true, at: at() }, oneRegion);
      state = decision.state;
      return decision;
    });
    expect(decisions.map((d) => [d.state.health, d.notification, d.incident])).toEqual([
      ['up', null, null],
      ['down', null, null],
      ['down', null, null],
    ]);
    expect(decisions[1]?.change).toEqual({ from: 'up', to: 'down' });
    expect(state.notifiedHealth).toBe('up');
  });

  it('at the end, one notification when the health differs from the one last notified', () => {
    const downInside = stateAfter(['down', 'down'], true, up);
    const end = settle(downInside);
    expect(end.notification).toEqual({ from: 'up', to: 'down' });
    expect(end.incident).toBe('open');
    expect(end.state.notifiedHealth).toBe('down');
    // Told once: settling again, or the next result outside, tells nothing more.
    expect(settle(end.state).notification).toBeNull();
    expect(
      decide(end.state, { region: 'eu', status: 'down', inMaintenance: false, at: at() }, oneRegion)
        .notification,
    ).toBeNull();
  });

  it('a website down before maintenance and recovered inside it is told up (incident resolved) at the end', () => {
    const down = stateAfter(['down', 'down'], false);
    expect(down.notifiedHealth).toBe('down');
    const end = settle(stateAfter(['up'], true, down));
    expect(end.notification).toEqual({ from: 'down', to: 'up' });
    expect(end.incident).toBe('resolve');
  });

  it('nothing is told when the health inside maintenance came back to the one notified', () => {
    expect(settle(stateAfter(['down', 'down', 'up'], true, up)).notification).toBeNull();
    expect(
      settle(stateAfter(['down', 'down'], true, stateAfter(['down', 'down'], false))).notification,
    ).toBeNull();
  });

  it('the first result after the window notifies even if the end was not settled yet', () => {
    const inside = stateAfter(['down', 'down'], true, up);
    const after = decide(inside, { region: 'eu', status: 'down', inMaintenance: false, at: at() }, oneRegion);
    expect(after.change).toBeNull();
    expect(after.notification).toEqual({ from: 'up', to: 'down' });
    expect(after.incident).toBe('open');
  });
});

describe('reportedStatus', () => {
  it.each([
    [{ paused: true, inMaintenance: true, cancelled: true, unmonitored: true }, 'cancelled'],
    [{ paused: true, inMaintenance: true, unmonitored: true }, 'paused'],
    [{ paused: false, inMaintenance: true, unmonitored: true }, 'unmonitored'],
    [{ paused: false, inMaintenance: true }, 'maintenance'],
    [{ paused: false, inMaintenance: false }, 'down'],
  ])('%j → %s', (website, status) => {
    expect(reportedStatus('down', website)).toBe(status);
  });
});
