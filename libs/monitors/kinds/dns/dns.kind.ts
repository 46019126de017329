import { type DnsObservation, resolveDns } from '../../../probe/index.js';
import type { IntervalKindEntry } from '../kind-entry.js';
import { keptText } from '../probe-kind.js';
import { dnsSettings } from './dns.schema.js';
import { type DnsJudged, dnsVerdict } from './dns.verdict.js';

/** Where a DNS check asks, under one deadline: the resolvers configured for the monitoring ([]: the system's). */
export interface DnsContext {
  resolvers: readonly string[];
  timeoutMs: number;
}

/**
 * The probe (I/O only): the resolvers' answer for the record. The query goes to the resolvers the
 * operator configured, never to an address of the name asked about, so the SSRF guard has no
 * target here; what comes back is data, judged by the verdict.
 */
export const probeDns = (check: Pick<DnsJudged, 'host' | 'recordType'>, context: DnsContext) =>
  resolveDns(
    { name: check.host, recordType: check.recordType, timeoutMs: context.timeoutMs },
    { resolvers: context.resolvers },
  );

/** Of an answer (up to 64 KiB over TCP), evidence keeps this many characters of values. */
const EVIDENCE_VALUE_CHARS = 4000;

/** What the answer said, bounded: its values while they fit (each cut), how many more there were. */
export function dnsEvidence(answer: Pick<DnsObservation, 'values' | 'error'>): Record<string, unknown> {
  const values: string[] = [];
  let chars = 0;
  for (const value of answer.values) {
    const kept = keptText(value, 500);
    if (chars + kept.length > EVIDENCE_VALUE_CHARS) break;
    values.push(kept);
    chars += kept.length;
  }
  const omitted = answer.values.length - values.length;
  return {
    values,
    ...(omitted > 0 ? { valuesOmitted: omitted } : {}),
    ...(answer.error ? { error: answer.error } : {}),
  };
}

/**
 * A record's answer, expected or unchanged: checked from each region on an interval as the probe
 * kinds are, but its verdict reads what it learned before (`Gathered.dns` judges the answer again
 * against the memory stored when it is written), so it is a probe and a verdict, not one check.
 */
export const dnsKind = {
  kind: 'dns',
  noun: 'DNS check',
  description:
    "A record (A, AAAA, CNAME, MX, TXT, NS, CAA) asked of the configured resolvers: down when the answer is not `expected` (compared as a set) or the lookup fails; with 'unchanged' the first answer is learned and a different one raises dns.changed until acknowledged or relearnAfterSeconds have passed. Package feature `dnsChecks`, limit `maxDnsChecksPerWebsite`.",
  feature: 'dnsChecks',
  limit: 'maxDnsChecksPerWebsite',
  lane: 'fast',
  trigger: 'interval',
  settings: dnsSettings,
  probe: probeDns,
  verdict: dnsVerdict,
  evidence: dnsEvidence,
} satisfies IntervalKindEntry;
