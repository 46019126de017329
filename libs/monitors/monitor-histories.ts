import { readFanOut } from '../db/index.js';
import type { IncidentDocument, MonitorStateRepository } from '../monitoring/index.js';
import type { MonitorRepository } from './monitor.repository.js';

/** Websites whose monitors are read at once (each a list read by primary key, then each monitor's incidents). */
const WEBSITES_AT_ONCE = 8;

/**
 * Each monitor of these websites by `<kind>:<id>`: when it was added and its incidents open or
 * resolved since `since` (what a status page's bars of its days are drawn from), every read by
 * primary key.
 */
export async function monitorHistories(
  deps: {
    repository: Pick<MonitorRepository, 'listByWebsite'>;
    states: Pick<MonitorStateRepository, 'incidentsOfMonitorSince'>;
  },
  organizationId: number,
  websiteIds: readonly number[],
  since: Date,
): Promise<Map<string, { createdAt: Date; incidents: IncidentDocument[] }>> {
  const histories = new Map<string, { createdAt: Date; incidents: IncidentDocument[] }>();
  const limit = readFanOut(WEBSITES_AT_ONCE);
  await Promise.all(
    websiteIds.map((websiteId) =>
      limit.run(async () => {
        const monitors = await deps.repository.listByWebsite(organizationId, websiteId);
        await Promise.all(
          monitors.map(async (monitor) => {
            const ref = { kind: monitor.kind, id: monitor.id };
            const incidents = await deps.states.incidentsOfMonitorSince(
              organizationId,
              websiteId,
              ref,
              since,
            );
            histories.set(`${monitor.kind}:${monitor.id}`, { createdAt: monitor.createdAt, incidents });
          }),
        );
      }),
    ),
  );
  return histories;
}
