import { join } from 'node:path';
import { startFerretDb } from './ferretdb.js';
import { findFreePort } from './ports.js';
import { startRedisServer } from './redis-server.js';
import type { EmbeddedServer } from './server-process.js';

export interface ThrowawayDatabases {
  mongoUrl: string;
  redisUrl: string;
  /** Process ids of the servers started here (a benchmark reads their CPU time); absent for given URLs. */
  pids: { mongo?: number; redis?: number };
  /** FerretDB's Prometheus metrics, when asked for and started here. */
  mongoMetricsUrl?: string;
  /** Stops the servers started here (none when both URLs were given). */
  stop(): Promise<void>;
}

/**
 * MongoDB and Redis for a test run or a benchmark: the given URLs, or FerretDB and redis-server
 * started on free loopback ports with their data under `dataDir`.
 */
export async function throwawayDatabases(options: {
  dataDir: string;
  database: string;
  mongoUrl?: string;
  redisUrl?: string;
  /** Serve the started FerretDB's metrics (`mongoMetricsUrl`). */
  mongoMetrics?: boolean;
}): Promise<ThrowawayDatabases> {
  const started: EmbeddedServer[] = [];
  const stop = async () => {
    await Promise.all(started.map((server) => server.stop()));
  };
  const pids: ThrowawayDatabases['pids'] = {};
  try {
    let mongoUrl = options.mongoUrl;
    let mongoMetricsUrl: string | undefined;
    if (!mongoUrl) {
      const metricsPort = options.mongoMetrics ? await findFreePort() : undefined;
      const server = await startFerretDb({
        port: await findFreePort(),
        dataDir: join(options.dataDir, 'ferretdb'),
        database: options.database,
        ...(metricsPort ? { metricsPort } : {}),
      });
      if (metricsPort) mongoMetricsUrl = `http://127.0.0.1:${metricsPort}/debug/metrics`;
      started.push(server);
      mongoUrl = server.url;
      pids.mongo = server.pid;
    }
    let redisUrl = options.redisUrl;
    if (!redisUrl) {
      const server = await startRedisServer({
        port: await findFreePort(),
        dataDir: join(options.dataDir, 'redis'),
      });
      started.push(server);
      redisUrl = server.url;
      pids.redis = server.pid;
    }
    return { mongoUrl, redisUrl, pids, stop, ...(mongoMetricsUrl ? { mongoMetricsUrl } : {}) };
  } catch (error) {
    await stop();
    throw error;
  }
}
