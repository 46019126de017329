import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { ProbeOptions } from './http-probe.js';
import { newHopConnection, resolveGuarded } from './pinned-connector.js';

export interface GuardedConnectorOptions {
  /** A connection not made within this fails (undici's connect timeout). */
  timeoutMs?: number;
  /** Once aborted, no lookup starts a connection. */
  signal?: AbortSignal;
  /** What a refused or unresolvable host fails with (the guard's own error when absent). */
  refused?: (error: unknown) => Error;
}

/**
 * An undici connector that connects only where the SSRF guard allows, for clients that keep
 * connections (a crawl, a sitemap read): each new connection's host resolved once and judged by
 * `resolveGuarded` (so no second lookup can rebind it), that very address connected to, and the
 * certificate verified against the probe's trusted roots for the host name.
 */
export function guardedConnector(
  probe: ProbeOptions,
  options: GuardedConnectorOptions = {},
): buildConnector.connector {
  const connect = buildConnector({
    secureContext: probe.tls.contextFor(null),
    rejectUnauthorized: true,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
  return (target, callback) => {
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    resolveGuarded(probe, newHopConnection(), hostname, port, options.signal).then(
      (address) =>
        connect(
          { ...target, hostname: address, servername: isIP(hostname) ? undefined : hostname },
          callback,
        ),
      (error: unknown) =>
        callback(
          options.refused?.(error) ?? (error instanceof Error ? error : new Error(String(error))),
          null,
        ),
    );
  };
}
