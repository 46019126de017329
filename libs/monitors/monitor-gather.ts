import { certificateSummary, type TlsObservation } from '../checks/index.js';
import type { SiteHealthNews } from '../events/index.js';
import type { EventDetails } from '../monitoring/index.js';
import { limitsOf, type PackageDocument } from '../packages/index.js';
import type { ProbeOptions } from '../probe/index.js';
import type { SecretBox } from '../secrets/index.js';
import {
  type DnsVerdict,
  type JourneyRunning,
  type LighthouseRunning,
  MONITOR_KINDS,
  PROBE_KINDS,
  type ProbeContext,
  type ProbeOutcome,
  type RunProgress,
  type SiteRun,
} from './kinds/index.js';
import type {
  DnsCheckDocument,
  IntervalMonitor,
  MonitorLogEntry,
  PortCheckDocument,
  ProbeCheckDocument,
} from './monitor.repository.js';
import { openedSettings, redacted, sealedValues } from './sealed-settings.js';
import type { MonitorVerdict } from './verdict.js';

/** What one check of an interval monitor gathered and what its kind makes of it (no MongoDB, no lock). */
export interface Gathered {
  at: Date;
  /** The result as its log keeps it. */
  result: NonNullable<MonitorLogEntry['result']>;
  verdict: MonitorVerdict;
  /** What the events it leads to carry beside the result (a certificate, a DNS change). */
  details: Partial<EventDetails>;
  /** What it saw, alike for every kind: what a check run on request answers. */
  seen: {
    durationMs: number;
    address: string | null;
    timings: Record<string, number | null>;
    evidence: Record<string, unknown>;
  };
  /** A DNS check's verdict judges what it learned against the check as stored (an accepted change). */
  dns?: { verdict: DnsVerdict; judge(stored: DnsCheckDocument): DnsVerdict };
  /** Files the run made (a journey's screenshots and trace), to keep under its run's id. */
  artifacts?: ProbeOutcome['artifacts'];
  /** What a site-health run found (kept and compared before the result is committed). */
  site?: SiteRun;
  /** What of it is new, once kept: told as site events with the verdict (none: nothing new). */
  siteNews?: SiteHealthNews;
}

/** A long run's id given before it begins, and where its progress goes. */
export interface SiteRunHooks {
  runId: string;
  onProgress(progress: RunProgress): void;
}

export interface GatherDependencies {
  probe: ProbeOptions;
  dnsResolvers: readonly string[];
  region: string;
  /** Opens a probe check's sealed credentials to run it. */
  secrets: SecretBox;
  /** The process's browser for journeys (none: a browser check cannot run here). */
  journeys?: JourneyRunning | undefined;
  /** The process's Lighthouse (none: a Lighthouse check cannot run here). */
  lighthouse?: LighthouseRunning | undefined;
  /** Aborted when the process stops: long runs (crawls, Lighthouse) end early and are run again elsewhere. */
  stopping?: AbortSignal | undefined;
}

/** Its certificate in the events when its check did not pass. */
function sslDetails(
  tls: TlsObservation | null | undefined,
  at: Date,
  verdict: MonitorVerdict,
): Partial<EventDetails> {
  const ssl = verdict.checks.find((c) => c.name === 'ssl');
  return ssl && ssl.outcome !== 'pass' && tls ? { ssl: certificateSummary(tls, at) } : {};
}

/** A DNS check: its kind's probe asks, its verdict judges the answer against the memory it had. */
async function gatherDns(check: DnsCheckDocument, deps: GatherDependencies): Promise<Gathered> {
  const { dns } = MONITOR_KINDS;
  const answer = await dns.probe(check, {
    resolvers: deps.dnsResolvers,
    timeoutMs: check.timeoutSeconds * 1000,
  });
  const verdict = dns.verdict(check, answer, answer.startedAt);
  return {
    at: answer.startedAt,
    result: {
      region: deps.region,
      status: verdict.status,
      cause: verdict.cause,
      durationMs: answer.durationMs,
      values: answer.values,
    },
    verdict,
    seen: {
      durationMs: answer.durationMs,
      address: null,
      timings: { totalMs: answer.durationMs },
      evidence: { values: answer.values, ...(answer.error ? { error: answer.error } : {}) },
    },
    details: verdict.changed ? { dnsChange: verdict.changed } : {},
    dns: {
      verdict,
      judge: (stored) => dns.verdict(stored, answer, answer.startedAt),
    },
  };
}

const contextOf = (
  check: IntervalMonitor,
  pkg: PackageDocument,
  deps: GatherDependencies,
  run?: SiteRunHooks,
): ProbeContext => ({
  probe: deps.probe,
  timeoutMs: check.timeoutSeconds * 1000,
  alerting: pkg.alerting,
  limits: limitsOf(pkg),
  ...(deps.journeys ? { journeys: deps.journeys } : {}),
  ...(deps.lighthouse ? { lighthouse: deps.lighthouse } : {}),
  ...(deps.stopping ? { signal: deps.stopping } : {}),
  ...(run ? { runId: run.runId, onProgress: run.onProgress } : {}),
});

/** A port check: its kind's check, its result written as a port check's log has always kept it. */
async function gatherPort(
  check: PortCheckDocument,
  pkg: PackageDocument,
  deps: GatherDependencies,
): Promise<Gathered> {
  const { host, port, tls, expectBanner } = check;
  const outcome = await MONITOR_KINDS.port.check(
    { host, port, tls, expectBanner },
    contextOf(check, pkg, deps),
  );
  const { verdict, startedAt, timings } = outcome;
  const certificate = verdict.checks.some((c) => c.name === 'ssl') ? outcome.tls : null;
  return {
    at: startedAt,
    result: {
      region: deps.region,
      status: verdict.status,
      cause: verdict.cause,
      durationMs: outcome.durationMs,
      address: outcome.address,
      connectMs: timings.connectMs,
      tlsMs: timings.tlsMs,
      banner: outcome.evidence.banner,
      certificate: certificate ? certificateSummary(certificate, startedAt) : null,
    },
    verdict,
    seen: { durationMs: outcome.durationMs, address: outcome.address, timings, evidence: outcome.evidence },
    details: sslDetails(outcome.tls, startedAt, verdict),
  };
}

/**
 * A check of a probe kind with its sealed settings opened (and its secrets put in where its fields
 * name them); what it saw comes back with every sealed value blanked, whatever the server echoed.
 */
export async function runProbeCheck(
  check: ProbeCheckDocument,
  context: ProbeContext,
  box: SecretBox,
): Promise<ProbeOutcome> {
  const kind = PROBE_KINDS[check.kind];
  const sealed = check.sealed ?? [];
  const opened = openedSettings(kind, check.settings, sealed, box);
  const outcome = await kind.check(opened, context);
  return { ...outcome, evidence: redacted(outcome.evidence, sealedValues(opened, sealed)) };
}

/** A failing run's screenshot of the page at the failure, when it kept one: alerts link to it. */
function failureScreenshot(
  artifacts: ProbeOutcome['artifacts'],
  verdict: MonitorVerdict,
): Partial<EventDetails> {
  if (verdict.status === 'up' || !artifacts) return {};
  const kept = artifacts.files.some((file) => file.kind === 'screenshot' && file.name === 'failure');
  return kept ? { screenshot: { runId: artifacts.runId, name: 'failure' } } : {};
}

/** A check of a probe kind: its kind gathers and decides. */
async function gatherProbe(
  check: ProbeCheckDocument,
  pkg: PackageDocument,
  deps: GatherDependencies,
  run?: SiteRunHooks,
): Promise<Gathered> {
  const outcome = await runProbeCheck(check, contextOf(check, pkg, deps, run), deps.secrets);
  const { verdict, startedAt, durationMs, address, timings, evidence, artifacts, site } = outcome;
  const seen = { durationMs, address, timings, evidence };
  return {
    at: startedAt,
    result: { region: deps.region, status: verdict.status, cause: verdict.cause, ...seen },
    verdict,
    seen,
    details: { ...sslDetails(outcome.tls, startedAt, verdict), ...failureScreenshot(artifacts, verdict) },
    ...(artifacts && artifacts.files.length > 0 ? { artifacts } : {}),
    ...(site ? { site } : {}),
  };
}

/** One check of an interval monitor of any kind: I/O under its own deadline, then its kind's pure verdict. */
export function gather(
  monitor: IntervalMonitor,
  pkg: PackageDocument,
  deps: GatherDependencies,
  run?: SiteRunHooks,
): Promise<Gathered> {
  if (monitor.kind === 'dns') return gatherDns(monitor, deps);
  if (monitor.kind === 'port') return gatherPort(monitor, pkg, deps);
  return gatherProbe(monitor, pkg, deps, run);
}
