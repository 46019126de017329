import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { throwawayDatabases } from '../../libs/embedded/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUrl: string;
    redisUrl: string;
  }
}

/**
 * Starts one FerretDB and one redis-server for the whole run (free ports, a temporary directory),
 * unless MONGODB_URL / REDIS_URL point at servers to use instead. Each test file then works in a
 * database and under a Redis key prefix of its own.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-test-'));
  const { mongoUrl, redisUrl, stop } = await throwawayDatabases({
    dataDir,
    database: 'test',
    mongoUrl: process.env.MONGODB_URL,
    redisUrl: process.env.REDIS_URL,
  });
  project.provide('mongoUrl', mongoUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
