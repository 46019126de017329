import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { ExemptAddress } from '../targets/index.js';
import type { ProbeOptions } from './http-probe.js';
import { systemResolve } from './pinned-connector.js';
import { TlsContexts } from './tls-contexts.js';

/**
 * The options every probe runs with, from the operator's settings: the SSRF guard, the system
 * resolver, the trusted roots (the system's and an extra CA file's) and our user agent. One per
 * process: building the TLS contexts parses every root.
 */
export function probeOptionsFrom(settings: {
  allowPrivateTargets: boolean;
  exemptAddresses: readonly ExemptAddress[];
  extraCaFile: string | undefined;
  /** Our version, named in the user agent. */
  version: string;
}): ProbeOptions {
  const extraCa = settings.extraCaFile ? [readFileSync(settings.extraCaFile, 'utf8')] : [];
  return {
    allowPrivateTargets: settings.allowPrivateTargets,
    exemptAddresses: settings.exemptAddresses,
    resolve: systemResolve,
    tls: new TlsContexts([...rootCertificates, ...extraCa]),
    userAgent: `webmon/${settings.version} (website monitoring)`,
  };
}
