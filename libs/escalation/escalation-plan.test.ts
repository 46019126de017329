import { describe, expect, it } from 'vitest';
import {
  applicablePolicyId,
  FIRST_STEP,
  stepAfter,
  stepKey,
  stepLabel,
  waitAfterMs,
} from './escalation-plan.js';

const step = (waitMinutes: number) => ({ targets: [{ user: 1 }], waitMinutes });

describe('escalation plan', () => {
  it('walks the steps, then the repeats, then stops', () => {
    const policy = { steps: [step(2), step(5), step(0)], repeat: 1 };
    const seen = [];
    for (let at: ReturnType<typeof stepAfter> = FIRST_STEP; at; at = stepAfter(policy, at))
      seen.push(stepKey(at));
    expect(seen).toEqual(['r0s0', 'r0s1', 'r0s2', 'r1s0', 'r1s1', 'r1s2']);
  });

  it('a policy without repeats ends after its last step', () => {
    expect(stepAfter({ steps: [step(1)], repeat: 0 }, FIRST_STEP)).toBeNull();
  });

  it('scales waits (tests shorten two minutes to a fraction of a second)', () => {
    expect(waitAfterMs(step(2), 1)).toBe(120_000);
    expect(waitAfterMs(step(2), 0.001)).toBe(120);
    expect(waitAfterMs(step(0), 1)).toBe(0);
  });

  it('labels steps and rounds for the timeline', () => {
    expect(stepLabel({ steps: [step(1), step(1)], repeat: 0 }, { round: 0, step: 1 })).toBe('step 2 of 2');
    expect(stepLabel({ steps: [step(1)], repeat: 2 }, { round: 1, step: 0 })).toBe(
      'step 1 of 1 (round 2 of 3)',
    );
  });

  it('the website’s policy wins over its customer’s, which wins over the organization’s', () => {
    expect(applicablePolicyId({ website: 3, customer: 2, organization: 1 })).toBe(3);
    expect(applicablePolicyId({ website: null, customer: 2, organization: 1 })).toBe(2);
    expect(applicablePolicyId({ website: undefined, customer: null, organization: 1 })).toBe(1);
    expect(applicablePolicyId({ website: null, customer: null, organization: null })).toBeNull();
  });
});
