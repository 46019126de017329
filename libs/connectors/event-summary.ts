import type { EventKind, EventPayload } from '../events/index.js';

export type Severity = 'critical' | 'error' | 'warning' | 'info';

/** An event in words, for chat messages, tickets and mails. */
export interface EventSummary {
  title: string;
  /** Why, when the result says (the request error, or the checks that failed or warned). */
  reason: string | null;
  severity: Severity;
  /** The event ends a problem (website up, maintenance over). */
  recovery: boolean;
}

const SEVERITY: Record<EventKind, Severity> = {
  'website.down': 'critical',
  'website.up': 'info',
  'website.degraded': 'warning',
  'ssl.expiring': 'warning',
  'ssl.invalid': 'error',
  'domain.expiring': 'warning',
  'website.unmonitored': 'warning',
  'website.monitored': 'info',
  'maintenance.started': 'info',
  'maintenance.ended': 'info',
  test: 'info',
};

const HEADLINE: Record<EventKind, string> = {
  'website.down': 'is down',
  'website.up': 'is up again',
  'website.degraded': 'is degraded',
  'ssl.expiring': 'has an SSL certificate expiring soon',
  'ssl.invalid': 'has an invalid SSL certificate',
  'domain.expiring': 'has a domain expiring soon',
  'website.unmonitored': 'is no longer checked from any region',
  'website.monitored': 'is checked again',
  'maintenance.started': 'entered maintenance',
  'maintenance.ended': 'left maintenance',
  test: '',
};

function reasonOf(data: EventPayload['data']): string | null {
  if (data.unmonitored) return data.unmonitored.reason;
  const { result } = data;
  if (!result) return null;
  if (result.error) return result.error.message;
  const failing = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn');
  return failing.length > 0 ? failing.map((c) => c.message || c.name).join('; ') : null;
}

export function summarize(payload: EventPayload): EventSummary {
  const { website } = payload.data;
  const title =
    payload.type === 'test'
      ? 'Test notification from webmon: this channel works'
      : `${website?.name ?? 'A website'} ${payload.data.reminder === true ? 'is still down' : HEADLINE[payload.type]}`;
  return {
    title,
    reason: reasonOf(payload.data),
    severity: SEVERITY[payload.type],
    recovery:
      payload.type === 'website.up' ||
      payload.type === 'maintenance.ended' ||
      payload.type === 'website.monitored',
  };
}
