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

/** The filters a command looks documents up by. */
const FILTERS_OF: Record<string, (command: Document) => Document[]> = {
  find: (command) => [command.filter],
  update: (command) => command.updates.map((update: Document) => update.q),
  delete: (command) => command.deletes.map((deletion: Document) => deletion.q),
  findAndModify: (command) => [command.query],
};

/**
 * Whether a command reads or writes by primary key: a `find` explained, or an update, delete or
 * findAndModify whose filter holds an `_id` equality, explained as the `find` of that `_id` (the
 * store looks the document up as it would); an insert claims its `_id` and reads nothing. Any other
 * command (aggregate, count, distinct, getMore) is not.
 */
export async function commandByPrimaryKey(
  db: Db,
  name: string,
  command: Document,
): Promise<{ byKey: boolean; plan: string }> {
  if (name === 'insert') return { byKey: true, plan: 'an insert' };
  const filtersOf = FILTERS_OF[name];
  if (!filtersOf) return { byKey: false, plan: `a ${name}` };
  for (const filter of filtersOf(command)) {
    const id = filter?._id;
    // `_id: {$in: …}` and ranges scan on FerretDB 1.24.
    const isEquality =
      id !== undefined &&
      (id === null || typeof id !== 'object' || !Object.keys(id).some((key) => key.startsWith('$')));
    if (!isEquality) return { byKey: false, plan: `${JSON.stringify(filter)}: not an _id equality` };
    // A write's other fields are checked on the one document its `_id` finds.
    const judged = await judgedByPrimaryKey(db, {
      find: command[name],
      filter: name === 'find' ? filter : { _id: id },
    });
    if (!judged.byKey) return judged;
  }
  return { byKey: true, plan: 'by _id' };
}
