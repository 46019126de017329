import type { Policy } from '../api/escalation.js';
import { repeatText, type TargetDirectory, targetName, waitText } from './policy-words.js';

/** A policy's steps in words, in order: whom each notifies and how long it waits. */
export function PolicySteps({ policy, directory }: { policy: Policy; directory: TargetDirectory }) {
  return (
    <>
      <ol class="policy-steps">
        {policy.steps.map((step, index) => (
          // Steps have no id: their place is who they are.
          <li key={index}>
            {step.targets.map((target) => targetName(target, directory)).join(', ')}{' '}
            <span class="muted">— {waitText(step.waitMinutes)}</span>
          </li>
        ))}
      </ol>
      <p class="muted">Runs {repeatText(policy.repeat)}; stops when someone acknowledges or it recovers.</p>
    </>
  );
}
