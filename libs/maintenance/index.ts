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
