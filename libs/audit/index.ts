export {
  AUDIT_EVENTS,
  AuditEventRepository,
  auditEventIndexes,
  MAX_EXAMINED,
} from './audit-event.repository.js';
export {
  type Actor,
  AUDIT_RETENTION_DAYS,
  type AuditEventDocument,
  auditEventPage,
  type NewAuditEvent,
  toAuditEventView,
} from './audit-event.schema.js';
export { type AuditNote, auditNoteOf, noteForAudit, type SignInMethod } from './audit-note.js';
export { type FieldChange, fieldChanges } from './field-changes.js';
