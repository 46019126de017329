export { type HttpProbeResult, type ProbeOptions, type ProbeRequest, probeHttp } from './http-probe.js';
export { type Resolve, systemResolve } from './pinned-connector.js';
export { ProbeFailure } from './probe-error.js';
export { TlsContexts } from './tls-contexts.js';
