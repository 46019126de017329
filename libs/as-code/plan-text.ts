import type { StepOutcome } from './apply.js';
import type { Plan, Step } from './plan-steps.js';
import { isReference } from './resource-keys.js';

const SIGN = { create: '+', change: '~', delete: '-' } as const;
const MAX_VALUE_CHARS = 120;

/** A value as the plan shows it: JSON, a reference by its key, long ones cut. */
function shown(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    isReference(item) ? `${item.key} (to be made)` : item,
  );
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** A step's line, and a change's fields under it. */
export function stepLines(step: Step): string[] {
  const head = `${SIGN[step.action]} ${step.action} ${step.label}`;
  if (step.action !== 'change') return [head];
  return [
    head,
    ...step.changes.map((change) => `    ${change.field}: ${shown(change.from)} → ${shown(change.to)}`),
  ];
}

export function planCounts(plan: Plan): Record<Step['action'], number> {
  const counts = { create: 0, change: 0, delete: 0 };
  for (const step of plan.steps) counts[step.action] += 1;
  return counts;
}

/** The plan as `webmon plan` prints it. */
export function planText(plan: Plan): string {
  const counts = planCounts(plan);
  const summary = `Plan: ${counts.create} to create, ${counts.change} to change, ${counts.delete} to delete (${plan.unchanged.length} unchanged).`;
  if (plan.steps.length === 0)
    return `No changes: the organization matches the file (${plan.unchanged.length} things).`;
  return [...plan.steps.flatMap(stepLines), '', summary].join('\n');
}

/** An outcome's line as `webmon apply` prints it while it goes. */
export function outcomeLine(done: number, total: number, outcome: StepOutcome): string {
  const { step } = outcome;
  const where = `[${done}/${total}]`;
  if (outcome.status === 'done') return `${where} ${SIGN[step.action]} ${step.action}d ${step.label}`;
  const fields = (outcome.error?.errors ?? [])
    .map((error) => `\n      ${error.path}: ${error.message}`)
    .join('');
  return `${where} ! ${step.action} ${step.label} ${outcome.status}: ${outcome.error?.message ?? ''}${fields}`;
}
