import { describe, expect, it } from 'vitest';
import {
  nextHandoff,
  type Override,
  onCallAt,
  type Schedule,
  shiftsBetween,
  shiftsOf,
  whoIsOnCallAt,
} from './on-call.js';
import { type Layer, RotationClock } from './rotation.js';

const ALICE = 1;
const BOB = 2;
const CAROL = 3;
const DAVE = 4;

const at = (iso: string) => new Date(iso);
const layer = (participants: number[], rotation: Partial<Layer['rotation']> & { startsAt: Date }): Layer => ({
  participants,
  rotation: { length: 'weekly', handoff: '09:00', ...rotation },
});
const who = (schedule: Schedule, overrides: Override[], iso: string) =>
  whoIsOnCallAt(schedule, overrides, at(iso));

describe('a weekly rotation with an override in Berlin, across both daylight-saving changes', () => {
  // Mondays 09:00 Berlin time, from Monday 16 March 2026 (09:00 CET = 08:00Z). Summer time starts
  // Sunday 29 March (02:00 CET → 03:00 CEST) and ends Sunday 25 October (03:00 CEST → 02:00 CET).
  const berlin: Schedule = {
    timezone: 'Europe/Berlin',
    layers: [layer([ALICE, BOB, CAROL], { startsAt: at('2026-03-16T08:00:00Z') })],
  };
  // Dave covers Saturday 21:00 CET to Sunday 12:00 CEST, across the spring change.
  const cover: Override[] = [
    { id: 7, userId: DAVE, from: at('2026-03-28T20:00:00Z'), to: at('2026-03-29T10:00:00Z') },
  ];

  it('hands over at 09:00 CET before the spring change', () => {
    expect(who(berlin, cover, '2026-03-16T07:59:59Z')).toBeNull(); // before the layer starts
    expect(who(berlin, cover, '2026-03-16T08:00:00Z')).toBe(ALICE);
    expect(who(berlin, cover, '2026-03-23T07:59:59Z')).toBe(ALICE);
    expect(who(berlin, cover, '2026-03-23T08:00:00Z')).toBe(BOB);
  });

  it('the override wins through the change, then the rotation goes on', () => {
    expect(who(berlin, cover, '2026-03-28T19:59:59Z')).toBe(BOB);
    expect(who(berlin, cover, '2026-03-28T20:00:00Z')).toBe(DAVE);
    expect(who(berlin, cover, '2026-03-29T00:30:00Z')).toBe(DAVE); // 01:30 CET
    expect(who(berlin, cover, '2026-03-29T01:30:00Z')).toBe(DAVE); // 03:30 CEST
    expect(who(berlin, cover, '2026-03-29T10:00:00Z')).toBe(BOB);
    expect(onCallAt(berlin, cover, at('2026-03-29T01:00:00Z'))).toEqual({
      userId: DAVE,
      since: at('2026-03-28T20:00:00Z'),
      until: at('2026-03-29T10:00:00Z'),
    });
    expect(onCallAt(berlin, cover, at('2026-03-29T12:00:00Z'))).toEqual({
      userId: BOB,
      since: at('2026-03-29T10:00:00Z'),
      until: at('2026-03-30T07:00:00Z'),
    });
  });

  it('hands over at 09:00 CEST after the spring change, not an hour later', () => {
    expect(who(berlin, cover, '2026-03-30T06:59:59Z')).toBe(BOB); // 08:59:59 CEST
    expect(who(berlin, cover, '2026-03-30T07:00:00Z')).toBe(CAROL); // 09:00 CEST
    expect(onCallAt(berlin, cover, at('2026-03-30T08:00:00Z'))).toEqual({
      userId: CAROL,
      since: at('2026-03-30T07:00:00Z'),
      until: at('2026-04-06T07:00:00Z'),
    });
  });

  it('hands over at 09:00 CET after the autumn change, not an hour earlier', () => {
    // 31 weeks after 16 March: Monday 19 October is Bob's (31 mod 3 = 1), 26 October Carol's.
    expect(who(berlin, [], '2026-10-19T06:59:59Z')).toBe(ALICE); // 08:59:59 CEST
    expect(who(berlin, [], '2026-10-19T07:00:00Z')).toBe(BOB);
    expect(who(berlin, [], '2026-10-25T00:30:00Z')).toBe(BOB); // 02:30 CEST, the first time
    expect(who(berlin, [], '2026-10-25T01:30:00Z')).toBe(BOB); // 02:30 CET, the second time
    expect(who(berlin, [], '2026-10-26T07:00:00Z')).toBe(BOB); // 08:00 CET (09:00 CEST)
    expect(who(berlin, [], '2026-10-26T07:59:59Z')).toBe(BOB);
    expect(who(berlin, [], '2026-10-26T08:00:00Z')).toBe(CAROL); // 09:00 CET
    // The week of the change is an hour longer.
    const shift = onCallAt(berlin, [], at('2026-10-22T12:00:00Z'));
    expect(shift).toEqual({
      userId: BOB,
      since: at('2026-10-19T07:00:00Z'),
      until: at('2026-10-26T08:00:00Z'),
    });
  });

  it('an override spanning the autumn change', () => {
    // Dave covers Saturday 24 October 22:00 CEST to Sunday 25 October 10:00 CET: 13 hours.
    const autumn: Override[] = [
      { id: 8, userId: DAVE, from: at('2026-10-24T20:00:00Z'), to: at('2026-10-25T09:00:00Z') },
    ];
    expect(who(berlin, autumn, '2026-10-25T00:30:00Z')).toBe(DAVE);
    expect(who(berlin, autumn, '2026-10-25T01:30:00Z')).toBe(DAVE);
    expect(who(berlin, autumn, '2026-10-25T09:00:00Z')).toBe(BOB);
    expect(nextHandoff(berlin, autumn, at('2026-10-25T03:00:00Z'))).toEqual({
      now: { userId: DAVE, since: at('2026-10-24T20:00:00Z'), until: at('2026-10-25T09:00:00Z') },
      next: { userId: BOB, at: at('2026-10-25T09:00:00Z') },
    });
  });
});

describe('a weekly rotation in New York, across both changes', () => {
  // Mondays 09:00 New York time from Monday 2 March 2026 (09:00 EST = 14:00Z); summer time from
  // Sunday 8 March (02:00 EST → 03:00 EDT) to Sunday 1 November (02:00 EDT → 01:00 EST).
  const newYork: Schedule = {
    timezone: 'America/New_York',
    layers: [layer([ALICE, BOB], { startsAt: at('2026-03-02T14:00:00Z') })],
  };

  it('hands over at 09:00 EST, then at 09:00 EDT', () => {
    expect(who(newYork, [], '2026-03-02T14:00:00Z')).toBe(ALICE);
    expect(who(newYork, [], '2026-03-09T12:59:59Z')).toBe(ALICE); // 08:59:59 EDT
    expect(who(newYork, [], '2026-03-09T13:00:00Z')).toBe(BOB); // 09:00 EDT
  });

  it('hands over at 09:00 EST after the autumn change', () => {
    // 35 weeks after 2 March: Monday 2 November is Bob's (35 mod 2 = 1).
    expect(who(newYork, [], '2026-11-02T13:00:00Z')).toBe(ALICE); // 08:00 EST
    expect(who(newYork, [], '2026-11-02T13:59:59Z')).toBe(ALICE);
    expect(who(newYork, [], '2026-11-02T14:00:00Z')).toBe(BOB); // 09:00 EST
  });

  it('an override across the spring change wins over the layer', () => {
    const cover: Override[] = [
      { id: 1, userId: CAROL, from: at('2026-03-08T05:00:00Z'), to: at('2026-03-08T09:00:00Z') },
    ];
    expect(who(newYork, cover, '2026-03-08T06:59:59Z')).toBe(CAROL); // 01:59:59 EST
    expect(who(newYork, cover, '2026-03-08T07:00:00Z')).toBe(CAROL); // 03:00 EDT
    expect(who(newYork, cover, '2026-03-08T09:00:00Z')).toBe(ALICE);
  });

  it('a handoff time the change skips is the time after the gap; one it repeats, the first', () => {
    const daily: Schedule = {
      timezone: 'America/New_York',
      layers: [
        layer([ALICE, BOB], { length: 'daily', handoff: '02:30', startsAt: at('2026-03-06T12:00:00Z') }),
      ],
    };
    // Saturday 7 March 02:30 EST is Alice's first turn; Sunday 8 March has no 02:30: 03:30 EDT.
    expect(who(daily, [], '2026-03-07T07:30:00Z')).toBe(ALICE);
    expect(who(daily, [], '2026-03-08T07:29:59Z')).toBe(ALICE);
    expect(who(daily, [], '2026-03-08T07:30:00Z')).toBe(BOB); // 03:30 EDT
    expect(who(daily, [], '2026-03-09T06:30:00Z')).toBe(ALICE); // 02:30 EDT
    const autumn: Schedule = {
      timezone: 'America/New_York',
      layers: [
        layer([ALICE, BOB], { length: 'daily', handoff: '01:30', startsAt: at('2026-10-30T12:00:00Z') }),
      ],
    };
    // 01:30 on 1 November happens at 05:30Z (EDT) and 06:30Z (EST): the handoff is the first.
    expect(who(autumn, [], '2026-11-01T05:29:59Z')).toBe(ALICE);
    expect(who(autumn, [], '2026-11-01T05:30:00Z')).toBe(BOB);
    expect(who(autumn, [], '2026-11-01T06:30:00Z')).toBe(BOB);
  });
});

describe('daily and {hours} rotations', () => {
  it('a daily handoff stays at 09:00 local, so the turn over the change is 23 hours', () => {
    const daily: Schedule = {
      timezone: 'Europe/Berlin',
      layers: [layer([ALICE, BOB], { length: 'daily', startsAt: at('2026-03-27T08:00:00Z') })],
    };
    expect(who(daily, [], '2026-03-27T08:00:00Z')).toBe(ALICE);
    expect(who(daily, [], '2026-03-28T08:00:00Z')).toBe(BOB);
    expect(onCallAt(daily, [], at('2026-03-28T12:00:00Z'))).toEqual({
      userId: BOB,
      since: at('2026-03-28T08:00:00Z'),
      until: at('2026-03-29T07:00:00Z'), // 09:00 CEST
    });
    expect(who(daily, [], '2026-03-29T07:30:00Z')).toBe(ALICE);
  });

  it('{hours: 12} counts exact hours, so the handoff moves on the wall clock', () => {
    const twelve: Schedule = {
      timezone: 'Europe/Berlin',
      layers: [layer([ALICE, BOB], { length: { hours: 12 }, startsAt: at('2026-03-28T08:00:00Z') })],
    };
    expect(who(twelve, [], '2026-03-28T19:59:59Z')).toBe(ALICE); // 20:59:59 CET
    expect(who(twelve, [], '2026-03-28T20:00:00Z')).toBe(BOB);
    // Twelve hours after 21:00 CET is 10:00 CEST: at 09:30 CEST Bob is still on.
    expect(who(twelve, [], '2026-03-29T07:30:00Z')).toBe(BOB);
    expect(who(twelve, [], '2026-03-29T08:00:00Z')).toBe(ALICE);
  });

  it('starts at the first handoff at or after startsAt', () => {
    const late: Schedule = {
      timezone: 'Europe/Berlin',
      layers: [layer([ALICE, BOB], { length: 'daily', startsAt: at('2026-05-04T08:00:00Z') })], // 10:00 CEST
    };
    expect(who(late, [], '2026-05-04T12:00:00Z')).toBeNull();
    expect(who(late, [], '2026-05-05T07:00:00Z')).toBe(ALICE); // the next day's 09:00
    expect(nextHandoff(late, [], at('2026-05-04T12:00:00Z'))).toEqual({
      now: null,
      next: { userId: ALICE, at: at('2026-05-05T07:00:00Z') },
    });
  });
});

describe('layers, overrides and gaps', () => {
  const base = layer([ALICE, BOB], { startsAt: at('2026-06-01T07:00:00Z') }); // Mondays 09:00 CEST
  // Carol covers the weekend of 6–7 June: a later layer with an end.
  const weekend = layer([CAROL], {
    length: 'daily',
    startsAt: at('2026-06-06T07:00:00Z'),
    endsAt: at('2026-06-08T07:00:00Z'),
  });

  it('a later layer wins while it has someone on; the earlier one shows before and after it', () => {
    const schedule: Schedule = { timezone: 'Europe/Berlin', layers: [base, weekend] };
    expect(who(schedule, [], '2026-06-05T12:00:00Z')).toBe(ALICE);
    expect(who(schedule, [], '2026-06-06T12:00:00Z')).toBe(CAROL);
    expect(who(schedule, [], '2026-06-08T07:00:00Z')).toBe(BOB);
    expect(
      shiftsBetween(schedule, [], at('2026-06-05T00:00:00Z'), at('2026-06-09T00:00:00Z')).map((s) => [
        s.userId,
        s.from.toISOString(),
        s.source,
      ]),
    ).toEqual([
      [ALICE, '2026-06-05T00:00:00.000Z', { kind: 'layer', layer: 0 }],
      [CAROL, '2026-06-06T07:00:00.000Z', { kind: 'layer', layer: 1 }],
      [BOB, '2026-06-08T07:00:00.000Z', { kind: 'layer', layer: 0 }],
    ]);
  });

  it('an empty layer has no one, and lets the earlier one show', () => {
    const empty = layer([], { startsAt: at('2026-06-01T07:00:00Z') });
    expect(who({ timezone: 'UTC', layers: [base, empty] }, [], '2026-06-02T12:00:00Z')).toBe(ALICE);
    const nobody: Schedule = { timezone: 'UTC', layers: [empty] };
    expect(who(nobody, [], '2026-06-02T12:00:00Z')).toBeNull();
    expect(nextHandoff(nobody, [], at('2026-06-02T12:00:00Z'))).toEqual({ now: null, next: null });
    expect(shiftsBetween(nobody, [], at('2026-06-01T00:00:00Z'), at('2026-06-30T00:00:00Z'))).toEqual([]);
  });

  it('overrides win over every layer; of two overlapping, the one made last', () => {
    const schedule: Schedule = { timezone: 'Europe/Berlin', layers: [base, weekend] };
    const overrides: Override[] = [
      { id: 1, userId: DAVE, from: at('2026-06-06T10:00:00Z'), to: at('2026-06-06T14:00:00Z') },
      { id: 2, userId: BOB, from: at('2026-06-06T12:00:00Z'), to: at('2026-06-06T13:00:00Z') },
    ];
    expect(who(schedule, overrides, '2026-06-06T11:00:00Z')).toBe(DAVE);
    expect(who(schedule, overrides, '2026-06-06T12:30:00Z')).toBe(BOB);
    expect(who(schedule, overrides, '2026-06-06T13:30:00Z')).toBe(DAVE);
    expect(who(schedule, overrides, '2026-06-06T14:00:00Z')).toBe(CAROL);
    const shifts = shiftsBetween(schedule, overrides, at('2026-06-06T09:00:00Z'), at('2026-06-06T15:00:00Z'));
    expect(shifts.map((s) => [s.userId, s.from.toISOString(), s.to.toISOString(), s.source])).toEqual([
      [CAROL, '2026-06-06T09:00:00.000Z', '2026-06-06T10:00:00.000Z', { kind: 'layer', layer: 1 }],
      [DAVE, '2026-06-06T10:00:00.000Z', '2026-06-06T12:00:00.000Z', { kind: 'override', overrideId: 1 }],
      [BOB, '2026-06-06T12:00:00.000Z', '2026-06-06T13:00:00.000Z', { kind: 'override', overrideId: 2 }],
      [DAVE, '2026-06-06T13:00:00.000Z', '2026-06-06T14:00:00.000Z', { kind: 'override', overrideId: 1 }],
      [CAROL, '2026-06-06T14:00:00.000Z', '2026-06-06T15:00:00.000Z', { kind: 'layer', layer: 1 }],
    ]);
  });

  it('someone away leaves a gap in their layer, and their overrides no longer count', () => {
    const schedule: Schedule = { timezone: 'Europe/Berlin', layers: [base] };
    const overrides: Override[] = [
      { id: 1, userId: BOB, from: at('2026-06-03T10:00:00Z'), to: at('2026-06-03T14:00:00Z') },
    ];
    const isAway = (userId: number) => userId === BOB;
    expect(whoIsOnCallAt(schedule, overrides, at('2026-06-03T12:00:00Z'), { isAway })).toBe(ALICE);
    expect(whoIsOnCallAt(schedule, overrides, at('2026-06-09T12:00:00Z'), { isAway })).toBeNull();
    expect(nextHandoff(schedule, overrides, at('2026-06-03T12:00:00Z'), { isAway })).toEqual({
      now: { userId: ALICE, since: at('2026-06-01T07:00:00Z'), until: at('2026-06-08T07:00:00Z') },
      // Alice again after Bob's empty week: no one else is ever on call.
      next: null,
    });
  });

  it('one person on a layer without end: on call with no end in sight', () => {
    const solo: Schedule = {
      timezone: 'UTC',
      layers: [layer([ALICE], { length: 'daily', startsAt: at('2026-01-01T09:00:00Z') })],
    };
    expect(nextHandoff(solo, [], at('2026-02-01T00:00:00Z'))).toEqual({
      now: { userId: ALICE, since: at('2026-01-01T09:00:00Z'), until: null },
      next: null,
    });
  });

  it('a person’s shifts over a span: each stretch without a break one shift, overrides included', () => {
    const schedule: Schedule = { timezone: 'Europe/Berlin', layers: [base] };
    const overrides: Override[] = [
      // Alice takes the first day of Bob's week: her week runs on into it.
      { id: 1, userId: ALICE, from: at('2026-06-08T07:00:00Z'), to: at('2026-06-09T07:00:00Z') },
    ];
    const mine = shiftsOf(schedule, overrides, ALICE, at('2026-06-01T00:00:00Z'), at('2026-06-22T00:00:00Z'));
    expect(mine.map((s) => [s.from.toISOString(), s.to.toISOString()])).toEqual([
      ['2026-06-01T07:00:00.000Z', '2026-06-09T07:00:00.000Z'],
      ['2026-06-15T07:00:00.000Z', '2026-06-22T00:00:00.000Z'],
    ]);
  });
});

describe('invalid rotations', () => {
  it('refuses a handoff that is not HH:MM and a length under an hour', () => {
    const startsAt = at('2026-01-01T00:00:00Z');
    expect(() => new RotationClock('UTC', { length: 'daily', handoff: '24:00', startsAt })).toThrow(
      RangeError,
    );
    expect(() => new RotationClock('UTC', { length: 'daily', handoff: '9:00', startsAt })).toThrow(
      RangeError,
    );
    expect(() => new RotationClock('UTC', { length: { hours: 0 }, handoff: '09:00', startsAt })).toThrow(
      RangeError,
    );
  });

  it('refuses a zone Intl does not know', () => {
    const schedule: Schedule = {
      timezone: 'Mars/Olympus',
      layers: [layer([ALICE], { startsAt: at('2026-01-01T00:00:00Z') })],
    };
    expect(() => whoIsOnCallAt(schedule, [], at('2026-02-01T00:00:00Z'))).toThrow(RangeError);
  });
});
