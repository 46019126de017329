export { currentWindow, maintenanceRoutes } from './maintenance.routes.js';
export {
  MAINTENANCE_WINDOWS,
  MAX_WINDOWS_PER_WEBSITE,
  type MaintenanceWindowDocument,
  MaintenanceWindowRepository,
  maintenanceWindowIndexes,
} from './maintenance-window.repository.js';
export {
  activeOccurrence,
  isKnownTimezone,
  MAX_WINDOW_DAYS,
  nextBoundary,
  type Occurrence,
  occurrences,
  type Recurrence,
  WEEKDAYS,
  type Weekday,
  type WindowSchedule,
} from './recurrence.js';
