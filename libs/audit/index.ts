export { auditRoutes } from './audit.routes.js';
export { AUDIT_EVENTS, AuditEventRepository, auditEventIndexes } from './audit-event.repository.js';
export {
  type Actor,
  AUDIT_RETENTION_DAYS,
  type AuditEventDocument,
  type NewAuditEvent,
} from './audit-event.schema.js';
export { type AuditNote, auditNoteOf, noteForAudit, type SignInMethod } from './audit-note.js';
export { type FieldChange, fieldChanges } from './field-changes.js';
