import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type EmbeddedServer, goBinDirs, locateBinary, startServerProcess } from './server-process.js';
import { keepIdLookupIndexes } from './sqlite-id-index.js';

export function locateFerretDb(): string {
  const binary = process.env.FERRETDB_BIN || locateBinary('ferretdb', goBinDirs());
  if (!binary) {
    throw new Error('ferretdb is not installed: run `npm run setup` (it builds FerretDB 1.24 with Go).');
  }
  return binary;
}

/**
 * FerretDB 1.24 on its SQLite backend, listening on loopback only, with telemetry off, its debug
 * HTTP listener off (or, for a benchmark, on `metricsPort`: its Prometheus counters of commands at
 * `/debug/metrics`), and the `_id` lookup indexes its queries need kept beside its tables.
 */
export async function startFerretDb(options: {
  port: number;
  dataDir: string;
  database: string;
  /** Serve FerretDB's own metrics on this loopback port. */
  metricsPort?: number;
  /** Where the index keeper says what went wrong (default: standard error). */
  say?: (message: string) => void;
}): Promise<EmbeddedServer> {
  const sqliteDir = join(options.dataDir, 'sqlite');
  mkdirSync(sqliteDir, { recursive: true });
  const server = await startServerProcess({
    name: 'ferretdb',
    binary: locateFerretDb(),
    args: [
      '--handler=sqlite',
      // WAL (FerretDB's default) with synchronous=NORMAL: a commit no longer waits for an fsync;
      // FerretDB killed loses nothing, a power loss can lose the last moments of writes, as
      // MongoDB's default journal (committed every 100 ms) can. Writes took a quarter less time.
      `--sqlite-url=file:${sqliteDir}/?_pragma=synchronous(normal)`,
      `--state-dir=${options.dataDir}`,
      `--listen-addr=127.0.0.1:${options.port}`,
      '--telemetry=disable',
      `--debug-addr=${options.metricsPort ? `127.0.0.1:${options.metricsPort}` : '-'}`,
      '--log-level=warn',
    ],
    // Go collects garbage each time the heap doubles (GOGC=100). Waiting until it grows fivefold
    // cut FerretDB's CPU by a fifth in the notifier benchmark (63 → 50 s), for 65–105 MiB more
    // memory at its peak (145 → 209–250 MiB).
    env: { DO_NOT_TRACK: '1', GOGC: '400' },
    dataDir: options.dataDir,
    port: options.port,
    url: `mongodb://127.0.0.1:${options.port}/${options.database}`,
  });
  const say = options.say ?? ((message: string) => process.stderr.write(`[ferretdb] ${message}\n`));
  const indexes = keepIdLookupIndexes({ sqliteDir, say });
  return {
    ...server,
    async stop() {
      await indexes.stop();
      await server.stop();
    },
  };
}
