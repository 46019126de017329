import type { Db, Document } from 'mongodb';

/**
 * Whether the store answers this `find` from its primary key: on FerretDB, the filter is pushed
 * down to SQLite and SQLite searches the `_id` index (`SEARCH`, not `SCAN`); on MongoDB, at most
 * one key and one document are examined.
 */
export async function readsByPrimaryKey(db: Db, find: Document): Promise<{ byKey: boolean; plan: string }> {
  const explained = await db.command({
    explain: { find: find.find, filter: find.filter },
    verbosity: 'executionStats',
  });
  if (explained.serverInfo?.ferretdbVersion) {
    const plan = JSON.stringify(explained.queryPlanner?.Plan);
    return { byKey: explained.filterPushdown === true && plan.includes('SEARCH'), plan };
  }
  const stats = explained.executionStats ?? {};
  return {
    byKey: stats.totalDocsExamined <= 1 && stats.totalKeysExamined <= 1,
    plan: JSON.stringify(explained.queryPlanner?.winningPlan),
  };
}

/**
 * The plan of this `find` once the store reads it by primary key, waiting up to `withinMs` (the
 * embedded FerretDB's keeper adds SQLite's `_id` index to a new collection within seconds); the
 * last judgment when it never does. One answer, the one to assert: asking again may meet another.
 */
export async function judgedByPrimaryKey(
  db: Db,
  find: Document,
  withinMs = 20_000,
): Promise<{ byKey: boolean; plan: string }> {
  const until = Date.now() + withinMs;
  for (;;) {
    const judged = await readsByPrimaryKey(db, find);
    if (judged.byKey || Date.now() >= until) return judged;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
