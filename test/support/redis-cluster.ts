import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { type EmbeddedServer, findFreePort, startRedisServer } from '../../libs/embedded/index.js';

/** A Redis Cluster of local masters (no replicas) on 127.0.0.1, formed with `redis-cli --cluster create`. */
export interface LocalRedisCluster {
  /** One node's URL: what REDIS_URL names with REDIS_CLUSTER=true. */
  url: string;
  nodes: EmbeddedServer[];
  /** A direct client of each node (no redirects followed), in `nodes` order. */
  clients: Redis[];
  /** The node (index in `nodes`) serving a hash slot. */
  ownerOf(slot: number): number;
  stop(): Promise<void>;
}

export async function startLocalRedisCluster(size = 3): Promise<LocalRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'webmon-redis-cluster-'));
  const nodes: EmbeddedServer[] = [];
  for (let n = 0; n < size; n++)
    nodes.push(
      await startRedisServer({ port: await findFreePort(), dataDir: join(dir, `node-${n}`), cluster: true }),
    );
  await promisify(execFile)(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ],
    { timeout: 30_000 },
  );
  const clients = nodes.map((node) => new Redis(node.url));
  // Formed when every node agrees that every slot is served.
  for (const client of clients) {
    for (let tries = 0; !(await client.cluster('INFO')).includes('cluster_state:ok'); tries++) {
      if (tries > 100) throw new Error('the local Redis Cluster did not reach cluster_state:ok in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const ranges = (await clients[0]?.cluster('SLOTS')) ?? [];
  return {
    url: nodes[0]?.url ?? '',
    nodes,
    clients,
    ownerOf(slot) {
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      if (!range) throw new Error(`slot ${slot} is served by no node`);
      return nodes.findIndex((node) => node.port === range[2]?.[1]);
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await Promise.all(nodes.map((node) => node.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
