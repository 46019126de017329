// Three months of full rollup buckets for benchmark websites, as the workers would have left them.
import type { Db } from 'mongodb';
import { RollupRepository, WEBSITE_ROLLUPS } from '../../libs/monitoring/index.js';

/** Full rollup buckets of the last three months for every website (region `local`), as the workers leave them. */
export async function storeRollupHistory(
  db: Db,
  websiteIds: number[],
  organizationId: number,
): Promise<number> {
  await new RollupRepository(db).registerRegion('local');
  const cell = {
    checks: 288,
    up: 288,
    degraded: 0,
    down: 0,
    responseMsSum: 57_600,
    responseMsCount: 288,
    responseMsMax: 400,
  };
  const cellsOf = (count: number, first: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, n) => [String(first + n).padStart(2, '0'), cell]));
  const now = new Date();
  const months = [0, 1, 2, 3].map(
    (back) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)),
  );
  const days = [0, 1].map((back) => new Date(Math.floor(now.getTime() / 86_400_000 - back) * 86_400_000));
  const expiresAt = new Date(now.getTime() + 91 * 86_400_000);
  let stored = 0;
  for (let first = 0; first < websiteIds.length; first += 200) {
    const documents = websiteIds.slice(first, first + 200).flatMap((websiteId) => [
      ...months.map((month) => ({
        _id: `${websiteId}:local:day:${month.toISOString().slice(0, 7)}`,
        organizationId,
        websiteId,
        region: 'local',
        period: 'day',
        cells: cellsOf(28, 1),
        expiresAt,
      })),
      ...days.map((day) => ({
        _id: `${websiteId}:local:hour:${day.toISOString().slice(0, 10)}`,
        organizationId,
        websiteId,
        region: 'local',
        period: 'hour',
        cells: cellsOf(24, 0),
        expiresAt,
      })),
    ]);
    await db.collection(WEBSITE_ROLLUPS).insertMany(documents as never[]);
    stored += documents.length;
  }
  return stored;
}
