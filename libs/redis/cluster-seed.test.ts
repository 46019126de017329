import { describe, expect, it } from 'vitest';
import { clusterSeed } from './index.js';

describe('clusterSeed', () => {
  it('reads the node, credentials and TLS a cluster client starts from', () => {
    expect(clusterSeed('rediss://app:p%40ss@redis-0.internal:7000')).toEqual({
      host: 'redis-0.internal',
      port: 7000,
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    expect(clusterSeed('redis://10.0.0.5')).toEqual({
      host: '10.0.0.5',
      port: 6379,
      username: undefined,
      password: undefined,
      tls: false,
    });
  });

  it('gives an IPv6 node without the URL brackets, as a socket takes it', () => {
    expect(clusterSeed('redis://[::1]:7001')).toMatchObject({ host: '::1', port: 7001 });
  });
});
