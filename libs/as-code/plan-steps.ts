import type { z } from 'zod';
import type { FieldChange } from './field-diff.js';
import type { monitoringFile } from './monitoring-file.schema.js';
import type { KnownIds, ResourceKind } from './resource-keys.js';

/** The file as written (after its environment references were read): what is compared and sent. */
export type WrittenFile = z.input<typeof monitoringFile>;
export type WrittenWebsite = NonNullable<NonNullable<WrittenFile['customers']>[number]['websites']>[number];

export type Body = Record<string, unknown>;

/** One thing the plan does, in order; bodies may hold references to things made before them. */
export type Step =
  | { action: 'create'; kind: ResourceKind; key: string; label: string; body: Body }
  | {
      action: 'change';
      kind: ResourceKind;
      key: string;
      label: string;
      id: number;
      /** The thing as its route names it (a website by its publicId). */
      address: string;
      changes: FieldChange[];
      body: Body;
      /** A website's check configuration changes (PATCH …/check-config). */
      checkConfig?: Body;
    }
  | { action: 'delete'; kind: ResourceKind; key: string; label: string; id: number; address: string };

export interface Plan {
  steps: Step[];
  /** Things the file describes that the organization has as written (or, creating only, at all). */
  unchanged: Array<{ kind: ResourceKind; label: string }>;
  /** The organization's ids by kind and key: what the steps' references start from. */
  known: KnownIds;
  /** Creating only: things of the file left out (a key given twice), with why. */
  refused: Array<{ kind: ResourceKind; label: string; reason: string }>;
}

export interface PlanOptions {
  /** Delete what the organization has and the file does not describe. */
  prune: boolean;
  /** Only make what is missing (an import): a thing that exists is counted unchanged. */
  createOnly: boolean;
}

/** A file that cannot be planned: each problem names where it is (`customers.2.websites.0.url`). */
export class PlanProblems extends Error {
  constructor(readonly problems: Array<{ path: string; message: string }>) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
    this.name = 'PlanProblems';
  }
}
