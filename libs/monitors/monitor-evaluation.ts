import type { ResultSummary } from '../events/index.js';
import type { DecisionRules, PlannedEvent } from '../monitoring/index.js';
import type { PackageDocument } from '../packages/index.js';
import type { DnsObservation, PortObservation } from '../probe/index.js';
import { countedFrom, heartbeatDeadline } from './heartbeat-schedule.js';
import type { DnsCheckDocument, HeartbeatDocument, PortCheckDocument } from './monitor.repository.js';
import {
  certificateCheck,
  downVerdict as down,
  type MonitorVerdict,
  upVerdict as up,
  verdictWithCertificate,
} from './verdict.js';

/**
 * Pure decisions of the monitors other than a website's HTTP check: what a ping, a missed deadline,
 * a DNS answer or a port's answer says, as a result the status machine takes (`afterResult`).
 */

/** The one "region" a heartbeat's results come from: pings reach the API, not a region's worker. */
export const PUSH_REGION = 'push';

export type { MonitorVerdict } from './verdict.js';

/** The result an event carries for a verdict. */
export function verdictSummary(verdict: MonitorVerdict, region: string, at: Date): ResultSummary {
  return {
    region,
    startedAt: at,
    httpStatus: null,
    error: verdict.code && verdict.cause ? { code: verdict.code, message: verdict.cause } : null,
    checks: verdict.checks,
  };
}

/**
 * The rules a heartbeat is decided by: one region (pings), down and up at the first word (a missed
 * deadline is already late by the grace), reminders as the package says.
 */
export function heartbeatRules(pkg: PackageDocument): DecisionRules & { reminderIntervalMinutes: number } {
  return {
    confirmations: 1,
    recoveryConfirmations: 1,
    regionQuorum: 1,
    regions: [PUSH_REGION],
    freshWithinMs: Number.MAX_SAFE_INTEGER,
    reminderIntervalMinutes: pkg.alerting.reminderIntervalMinutes,
  };
}

/** The rules of a DNS or port check: the package's confirmations and quorum over the website's regions. */
export function intervalCheckRules(
  check: Pick<DnsCheckDocument, 'intervalSeconds'>,
  regions: readonly string[],
  pkg: PackageDocument,
  recheckDelayMs: number,
): DecisionRules & { reminderIntervalMinutes: number } {
  return {
    ...pkg.alerting,
    regions,
    // Two intervals and a re-check, as a website's regions.
    freshWithinMs: 2 * check.intervalSeconds * 1000 + recheckDelayMs,
  };
}

const iso = (at: Date) => at.toISOString().replace('.000Z', 'Z');

/** A ping's verdict: a success is up, a failure (`/fail`, a non-zero exit code) down with the log's first line. */
export function pingVerdict(ping: {
  kind: 'success' | 'failure';
  exitCode: number | null;
  body: string;
}): MonitorVerdict {
  if (ping.kind === 'success') return up();
  const firstLine = ping.body
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 200);
  const said =
    ping.exitCode === null ? 'the job reported a failure' : `the job exited with code ${ping.exitCode}`;
  return down('HEARTBEAT_FAILED', firstLine ? `${said}: ${firstLine}` : said);
}

/**
 * Where a heartbeat stands at `now`: null while its deadline is ahead (with the deadline), else the
 * missed or overran verdict.
 */
export function heartbeatAt(
  heartbeat: Pick<
    HeartbeatDocument,
    | 'schedule'
    | 'graceSeconds'
    | 'maxRunSeconds'
    | 'createdAt'
    | 'lastSuccessAt'
    | 'lastStartAt'
    | 'quietSince'
  >,
  now: Date,
): { deadline: Date; verdict: MonitorVerdict | null } {
  const deadline = heartbeatDeadline(heartbeat, heartbeat);
  if (deadline.at > now) return { deadline: deadline.at, verdict: null };
  if (deadline.reason === 'overran')
    return {
      deadline: deadline.at,
      verdict: down(
        'HEARTBEAT_OVERRAN',
        `a run started at ${iso(heartbeat.lastStartAt as Date)} has not finished within ${heartbeat.maxRunSeconds} s`,
      ),
    };
  const since = heartbeat.lastSuccessAt ? `no ping since ${iso(heartbeat.lastSuccessAt)}` : 'no ping yet';
  return {
    deadline: deadline.at,
    verdict: down(
      'HEARTBEAT_MISSED',
      `${since}: one was expected by ${iso(deadline.expectedAt)} (grace ${heartbeat.graceSeconds} s, counted from ${iso(countedFrom(heartbeat))})`,
    ),
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
const listed = (values: readonly string[]) => (values.length === 0 ? 'no record' : values.join(', '));

/** A DNS check's verdict, and what it remembers after it ('unchanged': the answer learned, a change pending). */
export interface DnsVerdict extends MonitorVerdict {
  memory: Pick<DnsCheckDocument, 'learned' | 'pendingChange'>;
  /** The answer changed from the learned one (dns.changed tells it). */
  changed: { previous: string[]; current: string[] } | null;
}

export function dnsVerdict(
  check: Pick<
    DnsCheckDocument,
    'expected' | 'learned' | 'pendingChange' | 'relearnAfterSeconds' | 'recordType' | 'host'
  >,
  answer: Pick<DnsObservation, 'values' | 'error'>,
  now: Date,
): DnsVerdict {
  const memory = { learned: check.learned, pendingChange: check.pendingChange };
  if (answer.error) return { ...down(answer.error.code, answer.error.message), memory, changed: null };
  const values = answer.values;
  if (check.expected !== 'unchanged') {
    if (sameSet(values, check.expected)) return { ...up(), memory, changed: null };
    return {
      ...down(
        'DNS_UNEXPECTED',
        `${check.recordType} ${check.host}: expected ${listed(check.expected)}, got ${listed(values)}`,
      ),
      memory,
      changed: null,
    };
  }
  if (!check.learned || sameSet(values, check.learned.values))
    return {
      ...up(),
      memory: { learned: check.learned ?? { values, at: now }, pendingChange: null },
      changed: null,
    };
  const pending =
    check.pendingChange && sameSet(check.pendingChange.current, values) ? check.pendingChange : null;
  // The new answer has stood for the period nobody acknowledged it in: it is the one held to now.
  if (pending && now.getTime() - pending.since.getTime() >= check.relearnAfterSeconds * 1000)
    return { ...up(), memory: { learned: { values, at: now }, pendingChange: null }, changed: null };
  const previous = check.learned.values;
  return {
    ...down(
      'DNS_CHANGED',
      `${check.recordType} ${check.host} changed: was ${listed(previous)}, now ${listed(values)}`,
    ),
    memory: { learned: check.learned, pendingChange: pending ?? { previous, current: values, since: now } },
    changed: { previous, current: values },
  };
}

/** The events of a DNS check's outcome: a change is told as dns.changed, not as dns.down. */
export function dnsEvents(events: readonly PlannedEvent[], verdict: DnsVerdict): PlannedEvent[] {
  if (!verdict.changed) return [...events];
  return events.map((event) =>
    event.type === 'website.down' && !event.reminder ? { ...event, type: 'dns.changed' as const } : event,
  );
}

/** A port check's verdict: connected (and its banner and certificate as asked), else down with why. */
export function portVerdict(
  check: Pick<PortCheckDocument, 'tls' | 'expectBanner'>,
  observation: Pick<PortObservation, 'error' | 'tls' | 'bannerMatched' | 'banner'>,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): MonitorVerdict {
  const ssl = check.tls ? certificateCheck(observation.tls, alerting, now) : null;
  const banner =
    check.expectBanner !== null && observation.bannerMatched === false
      ? down(
          'BANNER_MISMATCH',
          `the banner did not start with "${check.expectBanner}": got ${observation.banner === null || observation.banner === '' ? 'nothing' : `"${observation.banner}"`}`,
        )
      : null;
  return verdictWithCertificate(observation.error, ssl, banner);
}
