import type { AuditEventRepository } from '../../libs/audit/index.js';
import { errorMessage } from '../../libs/errors/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { Invitations } from '../../libs/people/index.js';

/** How often the API deletes audit events past their retention, and invitations no longer usable. */
const AUDIT_RETENTION_INTERVAL_MS = 3_600_000;

/** The API's upkeep of what it writes: audit events past their retention, unusable invitations. */
export function startApiHousekeeping(deps: {
  auditEvents: AuditEventRepository;
  invitations: Invitations;
  logger: Logger;
}): { stop(): Promise<void> } {
  const { auditEvents, invitations, logger } = deps;
  // Audit events are written by the API, so it deletes them after AUDIT_RETENTION_DAYS too.
  const removeExpiredAuditEvents = () =>
    auditEvents.deleteExpired(new Date()).then(
      (deleted) => deleted > 0 && logger.info({ deleted }, 'expired audit events removed'),
      (error: unknown) => logger.warn({ err: errorMessage(error) }, 'audit retention failed'),
    );
  // Invitations expired (past the week they stay listed) or used, a bounded batch a pass.
  let invitationsAfterId = 0;
  const purgeInvitations = () =>
    invitations.purge(new Date(), invitationsAfterId).then(
      ({ expired, used, nextAfterId }) => {
        invitationsAfterId = nextAfterId;
        if (expired + used > 0) logger.info({ expired, used }, 'unusable invitations purged');
      },
      (error: unknown) => logger.warn({ err: errorMessage(error) }, 'invitation purge failed'),
    );
  let run = Promise.all([removeExpiredAuditEvents(), purgeInvitations()]);
  const interval = setInterval(() => {
    run = Promise.all([removeExpiredAuditEvents(), purgeInvitations()]);
  }, AUDIT_RETENTION_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(interval);
      await run;
    },
  };
}
