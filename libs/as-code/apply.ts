import { errorMessage } from '../errors/index.js';
import type { Body, Plan, Step } from './plan-steps.js';
import { isReference, type KnownIds, type Reference, type ResourceKind } from './resource-keys.js';

/** Where a plan's creates are written: the API's own services (an import makes what is missing). */
export interface ConfigurationCreator {
  /** Makes one thing; its id. */
  create(kind: Exclude<ResourceKind, 'website'>, body: Body): Promise<number>;
  /** Makes websites at once (each with its `checkConfig`): per item its id, or why it was not made. */
  createWebsites(items: readonly Body[]): Promise<Array<{ id: number } | { error: StepError }>>;
}

/** Where every step of a plan is written: the public API (the CLI). */
export interface ConfigurationWriter extends ConfigurationCreator {
  /** `address`: the thing as its route names it (a website by its publicId). */
  change(kind: ResourceKind, address: string, body: Body, checkConfig: Body | undefined): Promise<void>;
  remove(kind: ResourceKind, address: string): Promise<void>;
}

const canChange = (writer: ConfigurationCreator | ConfigurationWriter): writer is ConfigurationWriter =>
  'change' in writer && 'remove' in writer;

/** Why a step failed, as the API said it (its RFC 9457 detail and the fields it named). */
export interface StepError {
  message: string;
  errors?: Array<{ path: string; message: string }>;
}

export interface StepOutcome {
  step: Step;
  status: 'done' | 'failed' | 'skipped';
  /** The thing's id (made, changed or deleted). */
  id?: number;
  error?: StepError;
}

export interface ApplyOptions {
  /** Stop at the first failure (the CLI; what follows is not tried), or go on (an import). */
  stopOnFailure: boolean;
  /** Told after each step (and each batch of websites). */
  onProgress?: (done: number, total: number, outcome: StepOutcome) => void | Promise<void>;
}

/** Websites made in one request at most (the batch route's bound), and their bytes (the API takes 1 MiB). */
const WEBSITES_PER_BATCH = 1000;
const BATCH_BYTES = 900_000;

/** A step whose reference names a thing not made (its create failed): skipped, saying which. */
class MissingReference extends Error {
  constructor(readonly ref: Reference) {
    super(`skipped: ${ref.$ref} "${ref.key}" was not made`);
  }
}

/** The body with each reference replaced by the id of the thing it names. */
function resolved(body: Body, known: KnownIds): Body {
  const walk = (value: unknown): unknown => {
    if (isReference(value)) {
      const id = known.resolve(value);
      if (typeof id !== 'number') throw new MissingReference(value);
      return id;
    }
    if (Array.isArray(value))
      return value
        .filter((item) => !(isReference(item) && item.optional && typeof known.resolve(item) !== 'number'))
        .map(walk);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return walk(body) as Body;
}

export function asStepError(error: unknown): StepError {
  if (error instanceof MissingReference) return { message: error.message };
  const errors = (error as { errors?: unknown }).errors;
  return {
    message: errorMessage(error),
    ...(Array.isArray(errors) ? { errors: errors as StepError['errors'] } : {}),
  };
}

/**
 * Carries a plan out in order: references resolved as things are made (the organization's ids
 * first), consecutive website creates sent together. Every step's outcome is returned.
 */
export async function applyPlan(
  plan: Plan,
  writer: ConfigurationCreator | ConfigurationWriter,
  options: ApplyOptions,
): Promise<StepOutcome[]> {
  const { known } = plan;
  const outcomes: StepOutcome[] = [];
  const total = plan.steps.length;
  let stopped = false;
  const record = async (outcome: StepOutcome) => {
    outcomes.push(outcome);
    if (outcome.status === 'failed' && options.stopOnFailure) stopped = true;
    await options.onProgress?.(outcomes.length, total, outcome);
  };
  for (let i = 0; i < plan.steps.length && !stopped; ) {
    const step = plan.steps[i] as Step;
    if (step.action === 'create' && step.kind === 'website') {
      const run: Step[] = [];
      let bytes = 0;
      while (run.length < WEBSITES_PER_BATCH) {
        const next = plan.steps[i + run.length];
        if (next?.action !== 'create' || next.kind !== 'website') break;
        bytes += Buffer.byteLength(JSON.stringify(next.body));
        if (run.length > 0 && bytes > BATCH_BYTES) break;
        run.push(next);
      }
      i += run.length;
      for (const outcome of await createWebsites(run, writer, known)) await record(outcome);
      continue;
    }
    i += 1;
    await record(await runStep(step, writer, known));
  }
  return outcomes;
}

async function runStep(
  step: Step,
  writer: ConfigurationCreator | ConfigurationWriter,
  known: KnownIds,
): Promise<StepOutcome> {
  try {
    if (step.action === 'create') {
      const id = await writer.create(
        step.kind as Exclude<ResourceKind, 'website'>,
        resolved(step.body, known),
      );
      known.set(step.kind, step.key, id);
      return { step, status: 'done', id };
    }
    if (!canChange(writer))
      return {
        step,
        status: 'failed',
        error: { message: `${step.action} is not done here: this only creates` },
      };
    if (step.action === 'change') {
      const checkConfig = step.checkConfig && resolved(step.checkConfig, known);
      await writer.change(step.kind, step.address, resolved(step.body, known), checkConfig);
      return { step, status: 'done', id: step.id };
    }
    await writer.remove(step.kind, step.address);
    return { step, status: 'done', id: step.id };
  } catch (error) {
    return {
      step,
      status: error instanceof MissingReference ? 'skipped' : 'failed',
      error: asStepError(error),
    };
  }
}

async function createWebsites(
  run: Step[],
  writer: ConfigurationCreator,
  known: KnownIds,
): Promise<StepOutcome[]> {
  const outcomes = new Map<Step, StepOutcome>();
  const sendable: Array<{ step: Step; body: Body }> = [];
  for (const step of run) {
    try {
      sendable.push({ step, body: resolved((step as { body: Body }).body, known) });
    } catch (error) {
      outcomes.set(step, { step, status: 'skipped', error: asStepError(error) });
    }
  }
  if (sendable.length > 0) {
    let results: Array<{ id: number } | { error: StepError }>;
    try {
      results = await writer.createWebsites(sendable.map(({ body }) => body));
    } catch (error) {
      results = sendable.map(() => ({ error: asStepError(error) }));
    }
    for (const [k, { step }] of sendable.entries()) {
      const result = results[k] ?? { error: { message: 'no answer for this website' } };
      if ('id' in result) {
        known.set('website', step.key, result.id);
        outcomes.set(step, { step, status: 'done', id: result.id });
      } else outcomes.set(step, { step, status: 'failed', error: result.error });
    }
  }
  return run.map((step) => outcomes.get(step) as StepOutcome);
}
