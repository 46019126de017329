/**
 * A child process of bench/site-health.ts serving the generated site (test/support/generated-site.ts)
 * and its neighbours, so that the benchmark's own CPU and memory are the crawler's alone, not its
 * TLS server's too. The plan options come as JSON in its first argument. Driven over IPC:
 *   ← { type: 'ready', origins, ca, linkCount }         (once listening)
 *   → { type: 'requests' }  ← { type: 'requests', byServer, privateHits }
 * It closes its servers and exits on SIGTERM or when its parent goes.
 */

import {
  type GeneratedSite,
  type SiteRequest,
  startGeneratedSite,
} from '../../test/support/generated-site.js';
import type { PlanOptions, SiteOrigins } from '../../test/support/generated-site-plan.js';

export interface SiteReady {
  type: 'ready';
  origins: SiteOrigins;
  /** The site's CA certificate (PEM), for the crawler's trusted roots. */
  ca: string;
  /** The plan's link count here, to check the parent's own plan of the same seed against. */
  linkCount: number;
}

export interface SiteRequests {
  type: 'requests';
  /** Requests each server received so far. */
  byServer: Record<SiteRequest['server'], number>;
  /** Requests that reached the server on 127.0.0.2 (the guard must keep the crawl from it). */
  privateHits: number;
}

const send = (message: SiteReady | SiteRequests) => process.send?.(message);
let site: GeneratedSite | null = null;

async function shutDown(): Promise<void> {
  await site?.close();
  process.exit(0);
}

process.once('SIGTERM', () => void shutDown());
process.once('disconnect', () => void shutDown());
process.on('message', (message: { type: 'requests' }) => {
  if (message.type !== 'requests' || !site) return;
  const byServer: SiteRequests['byServer'] = { https: 0, http: 0, external: 0 };
  for (const request of site.requests) byServer[request.server]++;
  send({ type: 'requests', byServer, privateHits: site.privateHits() });
});

const options = JSON.parse(process.argv[2] ?? '{}') as Partial<PlanOptions>;
site = await startGeneratedSite(options);
send({ type: 'ready', origins: site.plan.origins, ca: site.ca.cert, linkCount: site.plan.linkCount });
