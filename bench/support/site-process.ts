import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { PlanOptions } from '../../test/support/generated-site-plan.js';
import type { Own } from './bench-databases.js';
import type { SiteReady, SiteRequests } from './generated-site-process.js';

/**
 * The generated site served by a child process (bench/support/generated-site-process.ts), so that
 * its servers' work (TLS included) is not counted as the crawler's: its origins and CA once it
 * listens, and the requests its servers received when asked.
 */
export async function startSiteProcess(own: Own, options: PlanOptions) {
  const child = own(
    spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/support/generated-site-process.ts', JSON.stringify(options)],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    ),
  );
  const [ready] = (await once(child, 'message')) as [SiteReady];
  const requests = async (): Promise<SiteRequests> => {
    child.send({ type: 'requests' });
    return ((await once(child, 'message')) as [SiteRequests])[0];
  };
  return { pid: child.pid as number, ready, requests };
}
