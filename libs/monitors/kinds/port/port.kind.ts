import { probePort } from '../../../probe/index.js';
import { defineCheckedKind } from '../probe-kind.js';
import { portSettings } from './port.schema.js';
import { portVerdict } from './port.verdict.js';

/**
 * A TCP (or TLS) service: probed as the other kinds are, through the SSRF guard and the pinned
 * address. Stored with its fields at the top of its document (as before the probe kinds), so it is
 * not one of `PROBE_KINDS`.
 */
export const portKind = defineCheckedKind({
  kind: 'port',
  noun: 'port check',
  feature: 'portChecks',
  limit: 'maxPortChecksPerWebsite',
  lane: 'fast',
  description:
    'A TCP connection to host:port (the address the SSRF guard allows), with `tls` a handshake whose certificate is judged as for HTTPS, with `expectBanner` the first line the server sends must start with it. Down when the connection, handshake or banner fails. Package feature `portChecks`, limit `maxPortChecksPerWebsite`.',
  settings: portSettings,
  probe: (s, context) => probePort({ ...s, host: s.host ?? '', timeoutMs: context.timeoutMs }, context.probe),
  verdict: (s, seen, context, now) => portVerdict(s, seen, context.alerting, now),
  // The banner is cut to 200 characters by the probe; no secret is sent, so none can come back.
  evidence: (seen) => ({ banner: seen.banner, ...(seen.error ? { error: seen.error } : {}) }),
  timings: (seen) => seen.timings,
  tls: (seen) => seen.tls,
});
