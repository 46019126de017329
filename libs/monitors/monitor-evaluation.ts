import type { ResultSummary } from '../events/index.js';
import type { DecisionRules } from '../monitoring/index.js';
import type { PackageDocument } from '../packages/index.js';
import type { DnsCheckDocument } from './monitor.repository.js';
import type { MonitorVerdict } from './verdict.js';

/**
 * The rules the status machine (`afterResult`) decides the monitors other than a website's HTTP
 * check by, and the result their events carry. Each kind's own verdicts are in its folder of kinds/.
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
