import type { Schemas } from '../api/client.js';

/** The kinds that probe a service, as the API document names them. */
export const PROBE_KINDS = ['icmp', 'udp', 'grpc', 'websocket', 'smtp', 'imap', 'pop3'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];
export type ProbeCheck = Extract<Schemas['Monitor'], { kind: ProbeKind }>;
/**
 * The kinds added by choosing one on the website's page: the probe kinds, an API flow, a browser
 * journey, a site crawl and a Lighthouse check (forms of their own).
 */
export const CHOSEN_KINDS = [...PROBE_KINDS, 'api-flow', 'browser', 'crawl', 'lighthouse'] as const;
export type ChosenKind = (typeof CHOSEN_KINDS)[number];
