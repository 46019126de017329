import type { EventKind } from '../notifications/index.js';

/** The website as an event describes it. */
export interface PayloadWebsite {
  id: number;
  publicId: string;
  name: string;
  url: string;
  customerId: number;
}

/** What a webhook receives, and what every connector formats (SPEC: event payload). */
export interface EventPayload {
  id: string;
  type: EventKind;
  createdAt: string;
  organizationId: number;
  data: {
    website: PayloadWebsite | null;
    previousStatus: string | null;
    status: string | null;
    incident: string | null;
    result?: unknown;
    [extra: string]: unknown;
  };
}

interface ResultSummary {
  httpStatus?: number | null;
  error?: { message?: string } | null;
  checks?: Array<{ name?: string; outcome?: string; message?: string }>;
}

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
  'maintenance.started': 'entered maintenance',
  'maintenance.ended': 'left maintenance',
  test: '',
};

function reasonOf(result: unknown): string | null {
  if (typeof result !== 'object' || result === null) return null;
  const { error, checks } = result as ResultSummary;
  if (error?.message) return error.message;
  const failing = (checks ?? []).filter((c) => c.outcome === 'fail' || c.outcome === 'warn');
  const messages = failing.map((c) => c.message ?? c.name).filter((m): m is string => Boolean(m));
  return messages.length > 0 ? messages.join('; ') : null;
}

export function summarize(payload: EventPayload): EventSummary {
  const { website } = payload.data;
  const title =
    payload.type === 'test'
      ? 'Test notification from webmon: this channel works'
      : `${website?.name ?? 'A website'} ${payload.data.reminder === true ? 'is still down' : HEADLINE[payload.type]}`;
  return {
    title,
    reason: reasonOf(payload.data.result),
    severity: SEVERITY[payload.type],
    recovery: payload.type === 'website.up' || payload.type === 'maintenance.ended',
  };
}
