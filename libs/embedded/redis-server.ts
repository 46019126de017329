import { type EmbeddedServer, locateBinary, startServerProcess } from './server-process.js';

/**
 * Debian's redis-server, append-only, `noeviction` (BullMQ must never lose keys), loopback only.
 * `cluster`: a node of a Redis Cluster still to be formed (its state in `nodes.conf` of its directory).
 */
export function startRedisServer(options: {
  port: number;
  dataDir: string;
  cluster?: boolean;
}): Promise<EmbeddedServer> {
  const binary = process.env.REDIS_SERVER_BIN || locateBinary('redis-server', ['/usr/bin', '/usr/sbin']);
  if (!binary)
    throw new Error('redis-server is not installed: run `npm run setup` (it installs it with apt-get).');
  return startServerProcess({
    name: 'redis',
    binary,
    args: [
      '--port',
      String(options.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      options.dataDir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'yes',
      '--daemonize',
      'no',
      ...(options.cluster
        ? [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '2000',
          ]
        : []),
    ],
    dataDir: options.dataDir,
    port: options.port,
    url: `redis://127.0.0.1:${options.port}`,
  });
}
