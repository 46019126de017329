import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedServer, findFreePort, startFerretDb } from '../libs/embedded/index.js';

/** The query FerretDB 1.24's SQLite backend runs for a lookup by `_id` (backends/sqlite/collection.go). */
const lookupPlan = (file: string, table: string) =>
  execFileSync('sqlite3', [
    file,
    `EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM "${table}" WHERE _ferretdb_sjson->'$._id' = '"w7"'`,
  ]).toString();

describe('embedded FerretDB', () => {
  let dataDir: string;
  let ferret: EmbeddedServer;
  let client: MongoClient;
  const said: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'webmon-ferret-'));
    ferret = await startFerretDb({
      port: await findFreePort(),
      dataDir,
      database: 'lookups',
      say: (message) => said.push(message),
    });
    client = await MongoClient.connect(ferret.url);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await ferret?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('looks documents up by _id through an index, also in collections created after the start', async () => {
    const websites = client.db().collection<{ _id: string; n: number }>('websites');
    await websites.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `w${n}`, n })));
    const file = join(dataDir, 'sqlite', 'lookups.sqlite');
    const table = () =>
      execFileSync('sqlite3', [
        file,
        `SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'websites%'`,
      ])
        .toString()
        .trim();
    await expect
      .poll(() => lookupPlan(file, table()), { timeout: 20_000, interval: 250 })
      .toContain('USING INDEX');
    // FerretDB still sees only its own indexes, and reads and writes as before.
    expect((await websites.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
    await websites.updateOne({ _id: 'w7' }, { $set: { n: 700 } });
    expect(await websites.findOne({ _id: 'w7' })).toEqual({ _id: 'w7', n: 700 });
    await expect(websites.insertOne({ _id: 'w7', n: 1 })).rejects.toThrow(/duplicate key/);

    await client
      .db('other')
      .collection('later')
      .insertOne({ _id: 'w7' } as never);
    const later = join(dataDir, 'sqlite', 'other.sqlite');
    expect(readdirSync(join(dataDir, 'sqlite'))).toContain('other.sqlite');
    const laterTable = execFileSync('sqlite3', [
      later,
      `SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'later%'`,
    ])
      .toString()
      .trim();
    await expect
      .poll(() => lookupPlan(later, laterTable), { timeout: 20_000, interval: 250 })
      .toContain('USING INDEX');
    expect(said).toEqual([]);
  }, 60_000);
});
