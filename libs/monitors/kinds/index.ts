import type { OtherMonitorKind } from '../../events/index.js';
import type { Feature, Limits } from '../../packages/index.js';
import type { Lane } from '../../scheduler/index.js';
import { apiFlowKind } from './api-flow/api-flow.kind.js';
import { browserKind } from './browser/browser.kind.js';
import { crawlKind } from './crawl/crawl.kind.js';
import { dnsKind } from './dns/dns.kind.js';
import { grpcKind } from './grpc/grpc.kind.js';
import { heartbeatKind } from './heartbeat/heartbeat.kind.js';
import { httpKind } from './http/http.kind.js';
import { icmpKind } from './icmp/icmp.kind.js';
import type { MonitorKindEntry, MonitorKindName } from './kind-entry.js';
import { lighthouseKind } from './lighthouse/lighthouse.kind.js';
import { imapKind, pop3Kind, smtpKind } from './mail/mail.kind.js';
import { portKind } from './port/port.kind.js';
import { type ProbeKind, type ProbeKindName, sealsEntry } from './probe-kind.js';
import { udpKind } from './udp/udp.kind.js';
import { websocketKind } from './websocket/websocket.kind.js';

/**
 * Every kind of monitor, one line each: its folder holds its settings' schema, its probe (I/O), its
 * verdict (pure), its evidence and its lane. Adding a kind is a folder, a line here and a fixture
 * of the conformance suite (conformance.test.ts), which every kind passes.
 */
export const MONITOR_KINDS = {
  http: httpKind,
  heartbeat: heartbeatKind,
  dns: dnsKind,
  port: portKind,
  icmp: icmpKind,
  udp: udpKind,
  grpc: grpcKind,
  websocket: websocketKind,
  smtp: smtpKind,
  imap: imapKind,
  pop3: pop3Kind,
  'api-flow': apiFlowKind,
  browser: browserKind,
  crawl: crawlKind,
  lighthouse: lighthouseKind,
} satisfies { [K in MonitorKindName]: MonitorKindEntry & { kind: K } };

const ENTRIES: readonly MonitorKindEntry[] = Object.values(MONITOR_KINDS);

/** The kinds a website has besides its HTTP check, stored as monitors of their own (registry order). */
export const STORED_MONITOR_KINDS = ENTRIES.map((entry) => entry.kind).filter(
  (kind): kind is OtherMonitorKind => kind !== 'http',
);

const storesSettings = (entry: MonitorKindEntry): entry is ProbeKind => 'fields' in entry;

/** The kinds stored with their own fields in `settings` (ICMP … POP3): the registry's entries made by `defineProbeKind`. */
export const PROBE_KINDS = Object.fromEntries(
  ENTRIES.filter(storesSettings).map((entry) => [entry.kind, entry]),
) as Record<ProbeKindName, ProbeKind>;

export const PROBE_KIND_NAMES = Object.keys(PROBE_KINDS) as ProbeKindName[];

export const isProbeKind = (kind: string): kind is ProbeKindName => Object.hasOwn(PROBE_KINDS, kind);

/** Whether a monitor of `kind` keeps this entry of its record `field` sealed (see `sealsEntry`). */
export const sealsMonitorEntry = (kind: string, field: string, name: string) =>
  isProbeKind(kind) && sealsEntry(PROBE_KINDS[kind], field, name);

/**
 * The regions a monitor of `kind` is checked from: each of its website's, or the first of them
 * for a kind checked from one (a crawl), so that region alone runs it.
 */
export function checkRegionsOf(kind: OtherMonitorKind, scheduledRegions: readonly string[]): string[] {
  const first = [...scheduledRegions].sort()[0];
  if (isProbeKind(kind) && PROBE_KINDS[kind].checkedFrom === 'one-region') return first ? [first] : [];
  return [...scheduledRegions];
}

/** The package feature, the per-website limit and the worker lane of a website's other monitors. */
export const kindTerms = (kind: OtherMonitorKind): { feature: Feature; limit: keyof Limits; lane: Lane } =>
  MONITOR_KINDS[kind];

export { type DnsVerdict, dnsEvents, dnsVerdict } from './dns/dns.verdict.js';
export { heartbeatAt, pingVerdict } from './heartbeat/heartbeat.verdict.js';
export type { MonitorKindEntry, MonitorKindName } from './kind-entry.js';
export { portVerdict } from './port/port.verdict.js';
export type {
  JourneyRunning,
  ProbeContext,
  ProbeKind,
  ProbeKindName,
  ProbeOutcome,
} from './probe-kind.js';
export type { LighthouseRunning, RunProgress, SiteRun } from './site-run.js';
