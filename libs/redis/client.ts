import type { Cluster, Redis as SingleRedis } from 'ioredis';

/** A connection to one Redis or to a Redis Cluster (`REDIS_CLUSTER`); `isCluster` tells them apart. */
export type Redis = SingleRedis | Cluster;
