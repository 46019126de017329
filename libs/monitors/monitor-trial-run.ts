import { DomainError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { PackageDocument } from '../packages/index.js';
import { type ProbeOptions, ProbeUnavailableError } from '../probe/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { JourneyRunning } from './kinds/index.js';
import type { IntervalMonitor, MonitorKind } from './monitor.repository.js';
import { gather } from './monitor-gather.js';
import { keepRunArtifacts, type RunArtifacts } from './run-artifacts.js';

/** A run on request keeps its files (a journey's screenshots and trace) this long: to look at, not a history. */
const TRIAL_RUN_FILES_DAYS = 1;

/** What a check run on request answered (`runNow`): not stored, not decided. */
export interface RunOutcome {
  kind: Exclude<MonitorKind, 'heartbeat'>;
  monitorId: number;
  startedAt: Date;
  status: 'up' | 'degraded' | 'down';
  cause: string | null;
  durationMs: number;
  address: string | null;
  timings: Record<string, number | null>;
  evidence: Record<string, unknown>;
}

/**
 * Runs the check once from this process, through `ports` (the guard, the resolver, the roots) and
 * under its own timeout: what it found, a test of its settings (`MonitorService.runNow`).
 */
export async function trialRun(
  monitor: IntervalMonitor,
  pkg: PackageDocument,
  ports: {
    probe: ProbeOptions;
    dnsResolvers: readonly string[];
    secrets: SecretBox;
    journeys?: JourneyRunning | undefined;
    artifacts?: Pick<RunArtifacts, 'store'> | undefined;
    logger: Logger;
  },
): Promise<RunOutcome> {
  const { probe, dnsResolvers, secrets, journeys } = ports;
  const ran = await gather(monitor, pkg, {
    probe,
    dnsResolvers,
    secrets,
    region: 'api',
    journeys,
  }).catch((error: unknown) => {
    if (error instanceof ProbeUnavailableError)
      throw new DomainError('internal', `This API host cannot run the check: ${error.message}`);
    throw error;
  });
  const gathered = await keepRunArtifacts(ports, monitor, ran, TRIAL_RUN_FILES_DAYS);
  const { status, cause } = gathered.verdict;
  return {
    kind: monitor.kind,
    monitorId: monitor.id,
    startedAt: gathered.at,
    status,
    cause,
    ...gathered.seen,
  };
}
