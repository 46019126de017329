export {
  checkResultSchema,
  EVENT_KINDS,
  type EventData,
  type EventDocument,
  type EventDraft,
  type EventKind,
  type EventPayload,
  eventDataSchema,
  eventDocumentSchema,
  eventWebsiteSchema,
  type Jsonified,
  type ResultSummary,
  resultSummarySchema,
  toPayload,
  WEBSITE_STATUSES,
} from './event.schema.js';
export { EVENTS, EventOutbox, type EventOutboxOptions, eventIndexes } from './event-outbox.js';
