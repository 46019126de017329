import { grpcKind } from './grpc.kind.js';
import { icmpKind } from './icmp.kind.js';
import { imapKind, pop3Kind, smtpKind } from './mail.kind.js';
import type { ProbeKind, ProbeKindName } from './probe-kind.js';
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

export {
  LANES,
  type Lane,
  type ProbeContext,
  type ProbeKind,
  type ProbeKindName,
  type ProbeOutcome,
} from './probe-kind.js';
