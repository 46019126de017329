import { describe, expect, it } from 'vitest';
import { escalationParts, heldText, withScheduleNames } from './timeline-words.js';

const escalation = { policyId: 4, policyName: 'Business critical', round: 0, step: 1 };

describe('an incident timeline’s escalation and held items in words', () => {
  it('splits an escalation step into its label and each target’s outcome', () => {
    expect(
      escalationParts({
        escalation,
        text: 'Business critical, step 2 of 3 (round 1 of 2): Bob by voice: sent; Carol: no contact method takes alerts now; Ops hook: sent; Everything: told by the alert itself',
      }),
    ).toEqual({
      label: 'step 2 of 3 (round 1 of 2)',
      outcomes: [
        { text: 'Bob by voice: sent', ok: true },
        { text: 'Carol: no contact method takes alerts now', ok: false },
        { text: 'Ops hook: sent', ok: true },
        { text: 'Everything: told by the alert itself', ok: true },
      ],
    });
    expect(escalationParts({ escalation, text: 'Business critical, step 2 of 3: nobody to notify' })).toEqual(
      {
        label: 'step 2 of 3',
        outcomes: [{ text: 'nobody to notify', ok: false }],
      },
    );
  });

  it('keeps a text of another shape whole, and answers null for an item that is no escalation', () => {
    expect(escalationParts({ escalation, text: 'something else' })).toEqual({
      label: 'step 2',
      outcomes: [{ text: 'something else', ok: false }],
    });
    expect(escalationParts({ escalation, text: null })).toEqual({ label: 'step 2', outcomes: [] });
    expect(escalationParts({ text: 'Business critical, step 1 of 1: x: sent' })).toBeNull();
  });

  it('names the schedule someone was on call in, when it is known', () => {
    const names = new Map([[3, 'Primary']]);
    expect(withScheduleNames('Alice (on call, schedule 3) by sms: sent', names)).toBe(
      'Alice (on call in Primary) by sms: sent',
    );
    expect(withScheduleNames('Bob (on call, schedule 4) by voice: sent', names)).toBe(
      'Bob (on call, schedule 4) by voice: sent',
    );
  });

  it('says a held item as a sentence', () => {
    expect(heldText('held: Shared server is down (it depends on it)')).toBe(
      'Held: Shared server is down (it depends on it)',
    );
    expect(heldText(null)).toBe('Held: a website it depends on is down');
  });
});
