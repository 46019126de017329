import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../errors/index.js';
import { locateBinary } from './server-process.js';

const run = promisify(execFile);

/** The index this keeper adds beside a collection table; FerretDB's own metadata never lists it. */
const INDEX_SUFFIX = '__id_lookup';

const TABLES_WITHOUT_INDEX = `SELECT t.name FROM sqlite_master t
  WHERE t.type = 'table' AND t.sql LIKE '%_ferretdb_sjson TEXT%'
  AND NOT EXISTS (SELECT 1 FROM sqlite_master i WHERE i.type = 'index' AND i.name = t.name || '${INDEX_SUFFIX}');`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface IdLookupIndexKeeper {
  stop(): Promise<void>;
}

/**
 * FerretDB 1.24's SQLite backend reads, updates and deletes a document by `_id` with
 * `WHERE _ferretdb_sjson->'$._id' = ?` but indexes `_id` as `_ferretdb_sjson->"_id"`. SQLite uses an
 * expression index only for the same expression, so every primary-key lookup scans and parses the
 * whole table (6 ms at 1,000 documents of 3 KB; 1.4 ms with the index). This adds, to every
 * collection table of the database files in `sqliteDir`, an index on the expression the lookups use,
 * checking again every `intervalMs` for collections created since (a file unchanged since its last
 * check is skipped). SQLite's own locking orders it with FerretDB's writes.
 */
export function keepIdLookupIndexes(options: {
  sqliteDir: string;
  intervalMs?: number;
  say: (message: string) => void;
}): IdLookupIndexKeeper {
  const intervalMs = options.intervalMs ?? 5000;
  const sqlite3 = process.env.SQLITE3_BIN || locateBinary('sqlite3', ['/usr/bin']);
  if (!sqlite3) {
    options.say(
      'sqlite3 is not installed: lookups by _id on the embedded FerretDB scan their collection (run `npm run setup`)',
    );
    return { stop: async () => {} };
  }
  const checked = new Map<string, string>();
  const reported = new Set<string>();
  const sqlite = (file: string, sql: string) =>
    run(sqlite3, ['-batch', '-noheader', '-cmd', '.timeout 10000', file, sql], { timeout: 60_000 });

  async function signatureOf(file: string): Promise<string> {
    const parts = await Promise.all(
      [file, `${file}-wal`].map((path) =>
        stat(path).then(
          (info) => `${info.size}:${info.mtimeMs}`,
          () => '-',
        ),
      ),
    );
    return parts.join('/');
  }

  async function indexFile(file: string): Promise<void> {
    const signature = await signatureOf(file);
    if (checked.get(file) === signature) return;
    const tables = (await sqlite(file, TABLES_WITHOUT_INDEX)).stdout.split('\n').filter(Boolean);
    if (tables.length > 0) {
      const statements = tables.map(
        (table) =>
          `CREATE INDEX IF NOT EXISTS ${quoted(table + INDEX_SUFFIX)} ON ${quoted(table)} (_ferretdb_sjson->'$._id');`,
      );
      await sqlite(file, statements.join('\n'));
    }
    // The creation itself changes the file: remember the state after it.
    checked.set(file, await signatureOf(file));
  }

  async function pass(): Promise<void> {
    const files = (await readdir(options.sqliteDir).catch(() => [])).filter((name) =>
      name.endsWith('.sqlite'),
    );
    for (const name of files) {
      try {
        await indexFile(join(options.sqliteDir, name));
      } catch (error) {
        const message = `could not add _id lookup indexes to ${name}: ${errorMessage(error)}`;
        if (!reported.has(message)) options.say(message);
        reported.add(message);
      }
    }
  }

  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      current = pass().finally(() => {
        if (!stopped) schedule(intervalMs);
      });
    }, delayMs);
    timer.unref();
  };
  schedule(Math.min(intervalMs, 1000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
