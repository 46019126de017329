import type { PlannedEvent } from '../../../monitoring/index.js';
import type { DnsObservation, DnsRecordType } from '../../../probe/index.js';
import { downVerdict as down, type MonitorVerdict, upVerdict as up } from '../../verdict.js';

/** What a DNS check remembers between checks ('unchanged'): the answer it holds to, a change not learned yet. */
export interface DnsMemory {
  learned: { values: string[]; at: Date } | null;
  pendingChange: { previous: string[]; current: string[]; since: Date } | null;
}

/** What a DNS check's verdict reads: its question, what it expects and its memory. */
export interface DnsJudged extends DnsMemory {
  recordType: DnsRecordType;
  host: string;
  expected: string[] | 'unchanged';
  relearnAfterSeconds: number;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
const listed = (values: readonly string[]) => (values.length === 0 ? 'no record' : values.join(', '));

/** A DNS check's verdict, and what it remembers after it ('unchanged': the answer learned, a change pending). */
export interface DnsVerdict extends MonitorVerdict {
  memory: DnsMemory;
  /** The answer changed from the learned one (dns.changed tells it). */
  changed: { previous: string[]; current: string[] } | null;
}

export function dnsVerdict(
  check: DnsJudged,
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
