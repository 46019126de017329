/** How a person proved who they are at a sign-in: the password alone, or with a TOTP or a recovery code. */
export type SignInMethod = 'password' | 'totp' | 'recovery-code';

/**
 * What a route tells the audit log beyond what the recorder reads itself: how a sign-in was made,
 * a two-factor change it made on the way (a recovery code used up), and, for a route that
 * `tellsAuditBefore`, its resource before the write as the resource's GET shows it.
 */
export interface AuditNote {
  signIn?: { method: SignInMethod };
  recoveryCodeUsed?: { userId: number; recoveryCodesLeft: number };
  before?: unknown;
}

const notes = new WeakMap<object, AuditNote>();

/** Adds to the request's note for the audit log (kept with the request, gone with it); `request` is its context. */
export function noteForAudit(request: object, note: AuditNote): void {
  notes.set(request, { ...notes.get(request), ...note });
}

export const auditNoteOf = (request: object): AuditNote | undefined => notes.get(request);
