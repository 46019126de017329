import { describe, expect, it } from 'vitest';
import { isActive, type NodeLiveness, placeWebsite, servingRegions } from './fleet-membership.js';

const now = new Date('2026-11-23T10:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const node = (region: string, beatSecondsAgo: number, extra: Partial<NodeLiveness> = {}): NodeLiveness => ({
  region,
  lastHeartbeatAt: ago(beatSecondsAgo),
  stoppedAt: null,
  disabled: false,
  ...extra,
});

describe('fleet membership', () => {
  it.each([
    ['heartbeat 5 s ago', node('eu', 5), true],
    ['heartbeat 30 s ago', node('eu', 30), true],
    ['heartbeat 31 s ago', node('eu', 31), false],
    ['stopped cleanly', node('eu', 1, { stoppedAt: ago(1) }), false],
    ['disabled by an operator', node('eu', 1, { disabled: true }), false],
  ])('a node with %s is active: %s', (_label, n, active) => {
    expect(isActive(n, now)).toBe(active);
  });

  it('a region serves while one of its nodes is active; sorted, unique', () => {
    expect(
      servingRegions(
        [node('us-east', 40), node('eu-west', 2), node('eu-west', 3), node('ap', 1, { stoppedAt: ago(1) })],
        now,
      ),
    ).toEqual(['eu-west']);
    expect(servingRegions([node('b', 1), node('a', 1)], now)).toEqual(['a', 'b']);
    expect(servingRegions([], now)).toEqual([]);
  });

  it.each([
    // requested, multiRegion, serving, preferred → regions, unmonitored?
    [[], true, ['eu', 'us'], undefined, ['eu', 'us'], false],
    [[], false, ['eu', 'us'], undefined, ['eu'], false],
    [[], false, ['eu', 'us'], 'us', ['us'], false],
    [[], false, ['eu'], 'us', ['eu'], false],
    [[], true, [], undefined, [], true],
    [[], false, [], 'us', [], true],
    [['us', 'ap'], true, ['eu', 'us'], undefined, ['us'], false],
    [['us'], false, ['eu'], undefined, [], true],
  ] as const)(
    'requested %j, multiRegion %s, serving %j, preferred %s → %j (unmonitored: %s)',
    (requested, multiRegion, serving, preferredRegion, regions, unmonitored) => {
      const placement = placeWebsite({ requested, multiRegion, serving, preferredRegion });
      expect(placement.regions).toEqual(regions);
      expect(placement.unmonitoredReason !== null).toBe(unmonitored);
    },
  );

  it('a single-region website stays where it is checked while that region serves', () => {
    const place = (current: string[], serving: string[]) =>
      placeWebsite({ requested: [], multiRegion: false, serving, preferredRegion: 'us', current }).regions;
    expect(place(['eu'], ['aa', 'eu', 'us'])).toEqual(['eu']);
    expect(place(['eu'], ['aa', 'us'])).toEqual(['us']);
    expect(place([], ['aa', 'eu'])).toEqual(['aa']);
  });

  it('says why a website is unmonitored', () => {
    expect(
      placeWebsite({ requested: ['us-east'], multiRegion: false, serving: ['eu'] }).unmonitoredReason,
    ).toBe('no active monitoring node in its region us-east');
    expect(placeWebsite({ requested: [], multiRegion: true, serving: [] }).unmonitoredReason).toBe(
      'no active monitoring node in any region',
    );
  });
});
