import type { Schemas } from '../api/client.js';

/** The kinds that probe a service, as the API document names them. */
export const PROBE_KINDS = ['icmp', 'udp', 'grpc', 'websocket', 'smtp', 'imap', 'pop3'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];
export type ProbeCheck = Extract<Schemas['Monitor'], { kind: ProbeKind }>;
