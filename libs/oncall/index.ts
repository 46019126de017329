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
export { createScheduleBody, type ScheduleInput } from './schedule.schema.js';
export { isKnownTimezone } from './zoned-clock.js';
