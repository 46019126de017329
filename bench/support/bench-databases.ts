import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ThrowawayDatabases, throwawayDatabases } from '../../libs/embedded/index.js';

/** Hands a process the benchmark started to its cleanup: SIGTERM, then awaited, when the benchmark ends. */
export type Own = (child: ChildProcess) => ChildProcess;

export interface BenchStack {
  mongoUrl: string;
  redisUrl: string;
  /** The embedded servers' process ids (absent when MONGODB_URL / REDIS_URL were given). */
  pids: { mongo?: number; redis?: number };
  /** FerretDB's Prometheus metrics (its commands counted), when started here. */
  mongoMetricsUrl?: string;
  owned: Own;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/**
 * Runs part of a benchmark whose processes are stopped at its end, also when the benchmark is
 * interrupted (Ctrl-C, SIGTERM), so none outlives it. `cleanup` runs after they stopped.
 */
export async function withOwnedProcesses(
  run: (own: Own) => Promise<void>,
  cleanup: () => Promise<void> | void = () => undefined,
): Promise<void> {
  const children: ChildProcess[] = [];
  let cleaned: Promise<void> | undefined;
  const stopAll = () => {
    cleaned ??= (async () => {
      await Promise.all(children.map(stopChild));
      await cleanup();
    })();
    return cleaned;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`[bench] ${signal}: stopping what the benchmark started…`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await run((child) => {
      children.push(child);
      return child;
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopAll();
  }
}

/**
 * Runs a benchmark on throwaway FerretDB + Redis in a temporary directory (or on MONGODB_URL /
 * REDIS_URL when set). Whatever it started is stopped and the directory removed at the end.
 */
export async function withBenchDatabases(
  label: string,
  run: (stack: BenchStack) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `webmon-bench-${label}-`));
  let databases: ThrowawayDatabases | undefined;
  await withOwnedProcesses(
    async (owned) => {
      databases = await throwawayDatabases({
        dataDir,
        database: 'bench',
        mongoUrl: process.env.MONGODB_URL,
        redisUrl: process.env.REDIS_URL,
        mongoMetrics: true,
      });
      const { mongoUrl, redisUrl, pids, mongoMetricsUrl } = databases;
      await run({ mongoUrl, redisUrl, pids, owned, ...(mongoMetricsUrl ? { mongoMetricsUrl } : {}) });
    },
    async () => {
      await databases?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  );
}
