export { auditRoutes } from './audit.routes.js';
export { AUDIT_EVENTS, AuditEventRepository, auditEventIndexes } from './audit-event.repository.js';
export { AUDIT_RETENTION_DAYS, type AuditEventDocument } from './audit-event.schema.js';
export { type AuditNote, noteForAudit, type SignInMethod } from './audit-note.js';
export { type AuditRecorderOptions, auditRecorder } from './audit-recorder.js';
export { type FieldChange, fieldChanges } from './field-changes.js';
