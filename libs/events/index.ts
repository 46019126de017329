export { DEPENDENTS_LISTED, dependentsToldTo } from './dependents-told.js';
export {
  checkResultSchema,
  type EventData,
  type EventDocument,
  type EventDraft,
  type EventPayload,
  eventDataSchema,
  eventDocumentSchema,
  eventWebsiteSchema,
  isDownEvent,
  isSiteFinding,
  isUpEvent,
  type Jsonified,
  MAX_EVENT_FINDINGS,
  MONITOR_KIND_NOUNS,
  monitorEventKind,
  OTHER_MONITOR_KINDS,
  type OtherMonitorKind,
  type ResultSummary,
  resultSummarySchema,
  type SiteHealthNews,
  siteHealthNewsSchema,
  toPayload,
} from './event.schema.js';
export { EVENT_KINDS, type EventKind, WEBSITE_STATUSES } from './event-kinds.js';
export { EVENTS, EventOutbox, type EventOutboxOptions, eventIndexes } from './event-outbox.js';
