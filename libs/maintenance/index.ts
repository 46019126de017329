export {
  MAINTENANCE_QUEUE,
  type MaintenanceJobData,
  MaintenanceQueue,
  startMaintenanceWorker,
} from './maintenance.queue.js';
export { type MaintenanceSpan, maintenanceSpan, spanBoundary, spanCovers } from './maintenance-span.js';
export { type MaintenanceReconcileReport, MaintenanceSync } from './maintenance-sync.js';
export {
  MAINTENANCE_WINDOWS,
  MAX_WINDOWS_PER_WEBSITE,
  type MaintenanceWindowDocument,
  MaintenanceWindowRepository,
  maintenanceWindowIndexes,
} from './maintenance-window.repository.js';
export {
  batchBody,
  batchView,
  checkView,
  createWindowBody,
  occurrencesQuery,
  occurrencesView,
  patchWindowBody,
  recurrenceSchema,
  type WindowInput,
  windowProblems,
  windowView,
} from './maintenance-window.schema.js';
export {
  assertValidWindow,
  createMaintenanceWindow,
  currentWindow,
  type MaintenanceDependencies,
  toWindowView,
} from './maintenance-windows.js';
export {
  activeOccurrence,
  isKnownTimezone,
  MAX_WINDOW_DAYS,
  type Occurrence,
  occurrences,
  type Recurrence,
  WEEKDAYS,
  type Weekday,
  type WindowSchedule,
} from './recurrence.js';
