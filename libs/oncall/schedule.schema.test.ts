import { describe, expect, it } from 'vitest';
import { validate } from '../contract/index.js';
import { createOverrideBody, createScheduleBody, patchScheduleBody, shiftsQuery } from './schedule.schema.js';

const rotation = { length: 'weekly', handoff: '09:00', startsAt: '2026-03-16T09:00:00+01:00' };
const schedule = { name: 'Ops', timezone: 'Europe/Berlin', layers: [{ participants: [1, 2], rotation }] };
const pathsOf = (result: ReturnType<typeof validate>) =>
  result.success ? [] : result.errors.map((e) => e.path);

describe('schedule and override bodies', () => {
  it('takes a schedule as the issue writes it, endsAt null by default', () => {
    const result = validate(createScheduleBody, schedule);
    expect(result.success).toBe(true);
    if (result.success) {
      expect(result.data.layers[0]?.rotation.startsAt).toEqual(new Date('2026-03-16T08:00:00Z'));
      expect(result.data.layers[0]?.rotation.endsAt).toBeNull();
    }
    expect(
      validate(createScheduleBody, {
        ...schedule,
        layers: [{ participants: [], rotation: { ...rotation, length: { hours: 12 } } }],
      }).success,
    ).toBe(true);
  });

  it('names each bad field', () => {
    const bad = validate(createScheduleBody, {
      name: '',
      timezone: 'Mars/Olympus',
      layers: [
        { participants: [1, 1], rotation: { ...rotation, handoff: '9:00' } },
        { participants: [0], rotation: { ...rotation, length: { hours: 0 } } },
        { participants: [3], rotation: { ...rotation, length: 'monthly' } },
      ],
    });
    expect(pathsOf(bad)).toEqual(
      expect.arrayContaining([
        'name',
        'timezone',
        'layers.0.participants',
        'layers.0.rotation.handoff',
        'layers.1.participants.0',
        'layers.1.rotation.length.hours',
        'layers.2.rotation.length',
      ]),
    );
    expect(pathsOf(validate(createScheduleBody, { ...schedule, layers: [] }))).toEqual(['layers']);
    const backwards = { ...rotation, endsAt: '2026-03-01T00:00:00Z' };
    expect(
      pathsOf(
        validate(createScheduleBody, { ...schedule, layers: [{ participants: [1], rotation: backwards }] }),
      ),
    ).toEqual(['layers.0.rotation.endsAt']);
    expect(pathsOf(validate(patchScheduleBody, {}))).toEqual(['']);
    expect(pathsOf(validate(patchScheduleBody, { colour: 'red' }))).toEqual(['colour']);
  });

  it('an override runs forward, at most 31 days', () => {
    const from = '2026-03-28T20:00:00Z';
    expect(validate(createOverrideBody, { userId: 4, from, to: '2026-03-29T10:00:00Z' }).success).toBe(true);
    expect(pathsOf(validate(createOverrideBody, { userId: 4, from, to: from }))).toEqual(['to']);
    expect(pathsOf(validate(createOverrideBody, { userId: 4, from, to: '2026-05-01T00:00:00Z' }))).toEqual([
      'to',
    ]);
    expect(pathsOf(validate(createOverrideBody, { userId: 4, from: 'yesterday', to: from }))).toEqual([
      'from',
    ]);
  });

  it('a span of shifts is at most 92 days', () => {
    expect(validate(shiftsQuery, { from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z' }).success).toBe(
      true,
    );
    expect(
      pathsOf(validate(shiftsQuery, { from: '2026-01-01T00:00:00Z', to: '2026-05-01T00:00:00Z' })),
    ).toEqual(['to']);
  });
});
