/** A dependency the readiness probe checks. */
export interface ReadinessCheck {
  name: string;
  isReady(): Promise<boolean>;
  /**
   * Set when the process goes on working without it (the worker checks through a MongoDB outage):
   * while it is down the answer is 200 `degraded`, with this said in `degraded`, not 503.
   */
  whileDown?: string;
}

export type Readiness =
  | { status: 'ready'; checks: Record<string, 'up' | 'down'> }
  | { status: 'degraded'; checks: Record<string, 'up' | 'down'>; degraded: Record<string, string> }
  /** A dependency without which the process cannot work is down: `down` names them. */
  | { status: 'not-ready'; checks: Record<string, 'up' | 'down'>; down: string[] };

/** Asks every check at once; /readyz of the API and of the ops server answer from this. */
export async function readinessOf(readinessChecks: readonly ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    readinessChecks.map(async (check) => [check.name, (await check.isReady()) ? 'up' : 'down'] as const),
  );
  const checks = Object.fromEntries(results);
  const downChecks = readinessChecks.filter((check) => checks[check.name] === 'down');
  const down = downChecks.filter((check) => check.whileDown === undefined).map((check) => check.name);
  if (down.length > 0) return { status: 'not-ready', checks, down };
  if (downChecks.length > 0)
    return {
      status: 'degraded',
      checks,
      degraded: Object.fromEntries(downChecks.map((check) => [check.name, check.whileDown ?? ''])),
    };
  return { status: 'ready', checks };
}

/** Seconds a prober waits before asking a process that is not ready again. */
export const NOT_READY_RETRY_AFTER = '5';

/** The 503's detail when the process is not ready. */
export const notReadyDetail = (down: readonly string[]) => `Not ready: ${down.join(', ')} unreachable.`;
