import { errorMessage } from '../../libs/errors/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { MonitorRepository, RunArtifacts } from '../../libs/monitors/index.js';
import type { SiteHealthRecorder } from '../../libs/site-health/index.js';
import type { WorkerServices } from './compose.js';

const RETENTION_CLEANUP_MS = 10 * 60_000;

/**
 * The worker's background upkeep: rollups folded (the former layout once, each settled month after
 * its turn), and results, rollups, monitor logs and runs' files past their retention removed every
 * 10 minutes.
 */
export function startHousekeeping(deps: {
  services: Pick<WorkerServices, 'rollups' | 'results' | 'mutex' | 'organizations' | 'websiteRepository'>;
  monitorRepository: MonitorRepository;
  runArtifacts: Pick<RunArtifacts, 'deleteExpired'>;
  /** Site health's fixed findings and Lighthouse runs. */
  siteHealth: Pick<SiteHealthRecorder, 'deleteExpired'>;
  logger: Logger;
}): { stop(): void } {
  const { services, monitorRepository, runArtifacts, siteHealth, logger } = deps;
  // Rollups kept the former way are folded into the per-website documents, one worker at a time.
  void services.rollups
    .foldLegacyRollups((work) => services.mutex.ifFree('rollups:legacy-fold', work))
    .then(
      (folded) => folded > 0 && logger.info({ folded }, 'rollups of the former layout folded in'),
      (error: unknown) =>
        logger.warn(
          { err: errorMessage(error) },
          'rollups of the former layout not folded in yet; retried at the next start',
        ),
    );
  // After a month's turn, each website's last two months are folded (every region in one document),
  // one worker at a time, so the month's reports read one document per website and month.
  const foldLastMonth = () =>
    services.rollups
      .foldSettledMonths(
        new Date(),
        (after, limit) => websitesAfter(services, after, limit),
        (work) => services.mutex.ifFree('rollups:month-fold', work),
      )
      .then(
        (folded) => folded > 0 && logger.info({ folded }, "websites' last months of rollups folded"),
        (error: unknown) =>
          logger.warn(
            { err: errorMessage(error) },
            'rollups of the last months not folded yet; retried in 10 minutes',
          ),
      );
  void foldLastMonth();
  const cleanup = setInterval(() => {
    Promise.all([
      services.results.deleteExpired(new Date()),
      services.rollups.deleteExpired(new Date()),
      monitorRepository.deleteExpiredLog(new Date()),
      runArtifacts.deleteExpired(new Date()),
      siteHealth.deleteExpired(new Date()),
    ]).then(
      ([deleted, rolledUp, monitorLog, files, site]) =>
        deleted + rolledUp + monitorLog + files + site > 0 &&
        logger.info(
          {
            deleted,
            rollupsDeleted: rolledUp,
            monitorLogDeleted: monitorLog,
            runFilesDeleted: files,
            siteHealthDeleted: site,
          },
          'expired check results, rollups, monitor logs, runs’ files and site-health records removed',
        ),
      (error: unknown) => logger.warn({ err: errorMessage(error) }, 'retention cleanup failed'),
    );
    void foldLastMonth();
  }, RETENTION_CLEANUP_MS);
  return { stop: () => clearInterval(cleanup) };
}

/** Up to `limit` websites after `after`, organization by organization, from their lists. */
async function websitesAfter(
  services: Pick<WorkerServices, 'organizations' | 'websiteRepository'>,
  after: { organizationId: number; websiteId: number },
  limit: number,
): Promise<Array<{ organizationId: number; websiteId: number }>> {
  const found: Array<{ organizationId: number; websiteId: number }> = [];
  for (const organizationId of await services.organizations.idsFrom(after.organizationId)) {
    const afterId = organizationId === after.organizationId ? after.websiteId : 0;
    const ids = await services.websiteRepository.idsAfter(organizationId, afterId, limit - found.length);
    found.push(...ids.map((websiteId) => ({ organizationId, websiteId })));
    if (found.length >= limit) break;
  }
  return found;
}
