import { networkInterfaces } from 'node:os';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { MonitoringNodeRepository } from './monitoring-node.repository.js';

/** @defaultValue 10 s, a third of the activity window so one missed beat does not deactivate a node. */
export const HEARTBEAT_INTERVAL_MS = 10_000;

/** The configured public IP, else the first external IPv4 address of this host. */
export function nodeAddress(configured: string | undefined): string | undefined {
  if (configured) return configured;
  for (const addresses of Object.values(networkInterfaces())) {
    const external = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
    if (external) return external.address;
  }
  return undefined;
}

/**
 * Registers this node and keeps its heartbeat fresh. A failed beat is logged and retried within a
 * second: a MongoDB outage must not stop the worker, nor leave it looking dead once MongoDB is back.
 */
export async function startHeartbeat(options: {
  nodes: MonitoringNodeRepository;
  node: { nodeId: string; ip: string; region: string; version: string };
  logger: Logger;
  intervalMs?: number;
}): Promise<{ stop(): Promise<void> }> {
  const startedAt = new Date();
  const beat = () => options.nodes.heartbeat({ ...options.node, startedAt }, new Date());
  await beat();
  options.logger.info(options.node, 'monitoring node registered');
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // A failed beat is tried again every second, not at the next tick: once MongoDB is back, this
  // node must look alive again before anyone judges the fleet by heartbeats stale since the outage.
  const next = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      beat().then(
        () => {
          if (failing) options.logger.info('heartbeat restored');
          failing = false;
          next(options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
        },
        (error: unknown) => {
          if (!failing) options.logger.warn({ err: errorMessage(error) }, 'heartbeat failed');
          failing = true;
          next(Math.min(1000, options.intervalMs ?? HEARTBEAT_INTERVAL_MS));
        },
      );
    }, delayMs);
  };
  next(options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await options.nodes.markStopped(options.node.nodeId, new Date());
    },
  };
}
