import { z } from 'zod';

/** How long audit events are kept. */
export const AUDIT_RETENTION_DAYS = 400;

export const actorSchema = z.object({
  type: z.enum(['user', 'token', 'anonymous']),
  /** The user's or token's id; null for an anonymous caller (a sign-in that failed). */
  id: z.number().int().nullable(),
  role: z.string().optional(),
  scopes: z.array(z.string()).optional(),
});
export type Actor = z.infer<typeof actorSchema>;

export const fieldChangeSchema = z.object({
  path: z.string(),
  old: z.unknown().optional(),
  new: z.unknown().optional(),
  writeOnly: z.literal(true).optional(),
});

const signInSchema = z.object({
  method: z
    .enum(['password', 'totp', 'recovery-code'])
    .describe('What proved the person: the password alone, with a TOTP code, or with a recovery code'),
});

/** An audit event as stored in `audit_events` (parsed before every insert). */
export const auditEventDocument = z.object({
  /** `<organizationId>/<seq, 12 digits>`: the organization's events in order, read by primary key. */
  _id: z.string(),
  organizationId: z.number().int().min(0),
  seq: z.number().int().min(1),
  at: z.date(),
  /** Deleted by the retention sweep after this. */
  expiresAt: z.date(),
  actor: actorSchema,
  /** The operation (`updateWebsite`, `login`). */
  action: z.string(),
  method: z.string(),
  /** The route pattern (`/api/websites/:websiteRef`). */
  route: z.string(),
  /** The resource kind (`websites`, `notification-channels`, `auth`). */
  resource: z.string(),
  resourceId: z.string().nullable(),
  outcome: z.enum(['succeeded', 'failed']),
  status: z.number().int(),
  address: z.string(),
  requestId: z.string(),
  changes: z.array(fieldChangeSchema),
  /** Who an anonymous attempt named (the e-mail a sign-in tried); never a password or code. */
  subject: z.object({ email: z.string() }).optional(),
  /** How a sign-in was made (`method` is the HTTP method): the password alone, with a TOTP or a recovery code. */
  signIn: signInSchema.optional(),
});
export type AuditEventDocument = z.infer<typeof auditEventDocument>;
export type NewAuditEvent = Omit<AuditEventDocument, '_id' | 'seq' | 'expiresAt'>;

export const auditEventView = z
  .object({
    id: z.number().int().describe('The event’s number in its organization, increasing with time'),
    at: z.iso.datetime(),
    actor: actorSchema,
    action: z.string(),
    method: z.string(),
    route: z.string(),
    resource: z.string(),
    resourceId: z.string().nullable(),
    outcome: z.enum(['succeeded', 'failed']),
    status: z.number().int(),
    address: z.string(),
    requestId: z.string(),
    changes: z.array(fieldChangeSchema),
    subject: z.object({ email: z.string() }).optional(),
    signIn: signInSchema
      .optional()
      .describe('On sign-ins whose password was right: how the person signed in'),
  })
  .meta({ id: 'AuditEvent' });

export const auditEventPage = z
  .object({
    items: z.array(auditEventView),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` for the next (older) page; null at the end. A page may be short.'),
  })
  .meta({ id: 'AuditEventPage' });

export function toAuditEventView(event: AuditEventDocument): z.input<typeof auditEventView> {
  const { _id, seq, organizationId, expiresAt, at, ...rest } = event;
  return { ...rest, id: seq, at: at.toISOString() };
}
