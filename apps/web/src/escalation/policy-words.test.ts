import { describe, expect, it } from 'vitest';
import { noneLabel, repeatText, targetName, targetOf, targetValue, waitText } from './policy-words.js';

const directory = {
  schedules: [{ id: 3, name: 'Ops nights' }],
  people: [{ id: 5, name: 'Bob Baker' }],
  channels: [{ id: 7, name: 'Ops hook' }],
};

describe('an escalation policy in words', () => {
  it('names each kind of target, and one it cannot find by its kind and id', () => {
    expect(targetName({ schedule: 3 }, directory)).toBe('Ops nights (whoever is on call)');
    expect(targetName({ user: 5 }, directory)).toBe('Bob Baker');
    expect(targetName({ channel: 7 }, directory)).toBe('Ops hook (channel)');
    expect(targetName({ user: 9 }, directory)).toBe('Person 9');
    expect(targetName({ channel: 3 }, directory)).toBe('Channel 3 (channel)');
  });

  it('turns a target into an option value and back', () => {
    for (const target of [{ schedule: 3 }, { user: 5 }, { channel: 7 }])
      expect(targetOf(targetValue(target))).toEqual(target);
    expect(targetOf('')).toBeNull();
    expect(targetOf('website:1')).toBeNull();
    expect(targetOf('user:x')).toBeNull();
  });

  it('says waits and repeats', () => {
    expect(waitText(0)).toBe('goes on at once');
    expect(waitText(5)).toBe('waits 5 min');
    expect(waitText(60)).toBe('waits 1 h');
    expect(waitText(90)).toBe('waits 1 h 30 min');
    expect(waitText(1440)).toBe('waits 24 h');
    expect(repeatText(0)).toBe('once through');
    expect(repeatText(2)).toBe('3 times through');
  });

  it('says what none falls back to: the first level naming a policy, else channels only', () => {
    const customer = { whose: 'the customer’s', policy: null };
    const organization = { whose: 'the organization’s default', policy: 'Business hours' };
    expect(noneLabel([customer, organization])).toBe(
      'None (falls back to the organization’s default: Business hours)',
    );
    expect(noneLabel([{ ...customer, policy: 'Acme 24/7' }, organization])).toBe(
      'None (falls back to the customer’s: Acme 24/7)',
    );
    expect(noneLabel([customer, { ...organization, policy: null }])).toBe(
      'None (no escalation: alerts go to their channels only)',
    );
    expect(noneLabel([])).toBe('None (no escalation: alerts go to their channels only)');
  });
});
