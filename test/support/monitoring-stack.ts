import type { Registry } from 'prom-client';
import { startWorker, type WorkerOptions } from '../../apps/worker/worker.js';
import { createLogger, type Logger } from '../../libs/logging/index.js';
import { createCustomer, createPackage, TestApi } from './harness.js';
import { startHttpTarget, type Target } from './targets.js';

/**
 * An API and a worker on the same throwaway servers, an organization with a customer whose package
 * allows 10 s intervals and confirms a failure with 2 results (re-checked after 1 s), and a local
 * HTTP target: what the end-to-end monitoring tests share.
 */
export interface MonitoringStack {
  api: TestApi;
  token: string;
  organizationId: number;
  customerId: number;
  target: Target;
  /** The worker's metrics: tests wait on its counters (checks made, dropped) rather than on time. */
  metrics: Registry;
  /** The website's status as GET /status answers it. */
  status(websiteId: number): Promise<{ status: string; openIncidentId: string | null }>;
  stop(): Promise<void>;
}

export async function startMonitoringStack(
  nodeId: string,
  workerOptions: WorkerOptions = {},
  env: Record<string, string> = {},
  /** Where the worker logs (tests that read its lines); by default, as the API's level says. */
  workerLogger?: Logger,
): Promise<MonitoringStack> {
  const api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', RECHECK_DELAY_SECONDS: '1', ...env });
  const { organizationId, token } = await api.createOrganization(['admin']);
  const pkg = await createPackage(api, token, {
    limits: { minCheckIntervalSeconds: 10 },
    alerting: { confirmations: 2 },
  });
  const customerId = await createCustomer(api, token, pkg.id);
  const target = await startHttpTarget();
  const worker = await startWorker(
    { ...api.config, NODE_PUBLIC_IP: '203.0.113.10', NODE_ID: nodeId },
    workerLogger ?? createLogger('worker', api.config.LOG_LEVEL),
    workerOptions,
  );
  return {
    api,
    token,
    organizationId,
    customerId,
    target,
    metrics: worker.metrics,
    status: async (websiteId) =>
      (
        await api.request<{ status: string; openIncidentId: string | null }>(
          'GET',
          `/api/websites/${websiteId}/status`,
          { token },
        )
      ).body,
    async stop() {
      await worker.stop();
      await target.close();
      await api.stop();
    },
  };
}
