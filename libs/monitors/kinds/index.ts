import type { OtherMonitorKind } from '../../events/index.js';
import type { Feature, Limits } from '../../packages/index.js';
import type { Lane } from '../../scheduler/index.js';
import { grpcKind } from './grpc.kind.js';
import { icmpKind } from './icmp.kind.js';
import { imapKind, pop3Kind, smtpKind } from './mail.kind.js';
import { type ProbeKind, type ProbeKindName, sealsEntry } from './probe-kind.js';
import { udpKind } from './udp.kind.js';
import { websocketKind } from './websocket.kind.js';

/** Every kind that probes a service from each region on an interval: one line each. */
export const PROBE_KINDS = {
  icmp: icmpKind,
  udp: udpKind,
  grpc: grpcKind,
  websocket: websocketKind,
  smtp: smtpKind,
  imap: imapKind,
  pop3: pop3Kind,
} satisfies Record<ProbeKindName, ProbeKind>;

export const PROBE_KIND_NAMES = Object.keys(PROBE_KINDS) as ProbeKindName[];

export const isProbeKind = (kind: string): kind is ProbeKindName => Object.hasOwn(PROBE_KINDS, kind);

/** Whether a monitor of `kind` keeps this entry of its record `field` sealed (see `sealsEntry`). */
export const sealsMonitorEntry = (kind: string, field: string, name: string) =>
  isProbeKind(kind) && sealsEntry(PROBE_KINDS[kind], field, name);

const BUILT_IN = {
  heartbeat: { feature: 'heartbeats', limit: 'maxHeartbeatsPerWebsite', lane: 'fast' },
  dns: { feature: 'dnsChecks', limit: 'maxDnsChecksPerWebsite', lane: 'fast' },
  port: { feature: 'portChecks', limit: 'maxPortChecksPerWebsite', lane: 'fast' },
} as const satisfies Record<string, { feature: Feature; limit: keyof Limits; lane: Lane }>;

/** The package feature, the per-website limit and the worker lane of any kind of monitor. */
export const kindTerms = (kind: OtherMonitorKind): { feature: Feature; limit: keyof Limits; lane: Lane } =>
  isProbeKind(kind) ? PROBE_KINDS[kind] : BUILT_IN[kind];

export type {
  ProbeContext,
  ProbeKind,
  ProbeKindName,
  ProbeOutcome,
} from './probe-kind.js';
