import { networkInterfaces } from 'node:os';
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
 * Registers this node and keeps its heartbeat fresh. A failed beat is logged and retried at the
 * next tick: a short MongoDB outage must not stop the worker.
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
  const timer = setInterval(() => {
    beat().then(
      () => {
        if (failing) options.logger.info('heartbeat restored');
        failing = false;
      },
      (error: unknown) => {
        if (!failing)
          options.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'heartbeat failed',
          );
        failing = true;
      },
    );
  }, options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(timer);
      await options.nodes.markStopped(options.node.nodeId, new Date());
    },
  };
}
