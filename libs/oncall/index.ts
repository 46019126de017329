export { FeedTokens, ONCALL_FEEDS } from './feed-tokens.js';
export { type Calendar, type CalendarEvent, icalendar } from './icalendar.js';
export {
  type Handoff,
  type LookupOptions,
  nextHandoff,
  type OnCall,
  type Override,
  onCallAt,
  type Schedule,
  type Shift,
  type ShiftSource,
  shiftsBetween,
  shiftsOf,
  whoIsOnCallAt,
} from './on-call.js';
export type { Layer, Rotation, RotationLength } from './rotation.js';
export {
  ONCALL_SCHEDULES,
  onCallScheduleIndexes,
  type ScheduleDocument,
  ScheduleRepository,
  type StoredLayer,
  type StoredOverride,
} from './schedule.repository.js';
export {
  createOverrideBody,
  createScheduleBody,
  feedsView,
  MAX_OVERRIDE_DAYS,
  MAX_SHIFT_SPAN_DAYS,
  onCallQuery,
  onCallView,
  overrideParams,
  overrideView,
  patchScheduleBody,
  personParams,
  personView,
  type ScheduleInput,
  scheduleView,
  shiftsQuery,
  shiftsView,
} from './schedule.schema.js';
export {
  KEPT_ENDED_OVERRIDE_DAYS,
  type OnCallAnswer,
  type OnCallDependencies,
  type OnCallPeople,
  type OnCallPerson,
  OnCallService,
  type PersonShift,
} from './schedule.service.js';
export { toOverrideView, toScheduleView } from './schedule-view.js';
export { isKnownTimezone } from './zoned-clock.js';
