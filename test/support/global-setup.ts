import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  type EmbeddedServer,
  findFreePort,
  startFerretDb,
  startRedisServer,
  urlOrStartedServer,
} from '../../libs/embedded/index.js';

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
  const started: EmbeddedServer[] = [];
  const mongoUrl = await urlOrStartedServer(
    process.env.MONGODB_URL,
    async () =>
      startFerretDb({ port: await findFreePort(), dataDir: join(dataDir, 'ferretdb'), database: 'test' }),
    started,
  );
  const redisUrl = await urlOrStartedServer(
    process.env.REDIS_URL,
    async () => startRedisServer({ port: await findFreePort(), dataDir: join(dataDir, 'redis') }),
    started,
  );
  project.provide('mongoUrl', mongoUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await Promise.all(started.map((server) => server.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
