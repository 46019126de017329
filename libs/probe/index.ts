export {
  type BodyBounds,
  type BodyDecoding,
  type BodyRead,
  type BoundedBody,
  isDecodable,
  readBoundedBody,
  readBoundedText,
} from './bounded-body.js';
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
export {
  decodeHealthResponse,
  type GrpcObservation,
  type GrpcProbeRequest,
  probeGrpc,
  SERVING_STATUSES,
  type ServingStatus,
} from './grpc-probe.js';
export { type GuardedConnectorOptions, guardedConnector } from './guarded-connector.js';
export { type HttpProbeResult, type ProbeOptions, type ProbeRequest, probeHttp } from './http-probe.js';
export {
  type IcmpObservation,
  type IcmpProbeRequest,
  ProbeUnavailableError,
  parsePingOutput,
  probeIcmp,
} from './icmp-probe.js';
export {
  MAIL_PROTOCOLS,
  MAIL_SECURITY,
  type MailObservation,
  type MailProbeRequest,
  type MailProtocol,
  type MailSecurity,
  probeMail,
} from './mail-probe.js';
export {
  newHopConnection,
  type Resolve,
  resolveGuarded,
  systemResolve,
  untilAborted,
} from './pinned-connector.js';
export {
  type PortObservation,
  type PortProbeOptions,
  type PortProbeRequest,
  probePort,
} from './port-probe.js';
export { ProbeFailure } from './probe-error.js';
export { probeOptionsFrom } from './probe-options.js';
export { TlsContexts } from './tls-contexts.js';
export { probeUdp, REPLY_KEPT_BYTES, type UdpObservation, type UdpProbeRequest } from './udp-probe.js';
export {
  probeWebSocket,
  type WebSocketObservation,
  type WebSocketProbeRequest,
} from './websocket-probe.js';
