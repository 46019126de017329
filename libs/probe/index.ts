export {
  DNS_RECORD_TYPES,
  type DnsErrorCode,
  type DnsObservation,
  type DnsQuery,
  type DnsRecordType,
  normalizeDnsValue,
  parseDnsResolvers,
  resolveDns,
} from './dns-probe.js';
export { type HttpProbeResult, type ProbeOptions, type ProbeRequest, probeHttp } from './http-probe.js';
export { type Resolve, systemResolve } from './pinned-connector.js';
export {
  type PortObservation,
  type PortProbeOptions,
  type PortProbeRequest,
  probePort,
} from './port-probe.js';
export { ProbeFailure } from './probe-error.js';
export { TlsContexts } from './tls-contexts.js';
