export {
  type ApplyOptions,
  applyPlan,
  type ConfigurationCreator,
  type ConfigurationWriter,
  type StepError,
  type StepOutcome,
} from './apply.js';
export type { FieldChange } from './field-diff.js';
export { type ExportNote, fileFromExport } from './from-export.js';
export { ApiConfiguration } from './http-configuration.js';
export { MONITORING_FILE_MAX_BYTES, readMonitoringFile, writtenFile } from './monitoring-file.js';
export { monitoringFile, monitoringFileJsonSchema } from './monitoring-file.schema.js';
export { planChanges } from './plan.js';
export { type Body, type Plan, PlanProblems, type Step, type WrittenFile } from './plan-steps.js';
export { outcomeLine, planCounts, planText } from './plan-text.js';
export { RESOURCE_KINDS, type ResourceKind, urlKey } from './resource-keys.js';
