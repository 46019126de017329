import type { CheckResultDocument } from './result.repository.js';

export type ExpiryEventKind = 'ssl.expiring' | 'ssl.invalid' | 'domain.expiring';

/** What was last told about a website's certificate and domain (null: nothing seen yet). */
export interface ExpiryMarks {
  ssl: 'ok' | 'expiring' | 'invalid' | null;
  domain: 'ok' | 'expiring' | null;
}

export const NO_EXPIRY_MARKS: ExpiryMarks = { ssl: null, domain: null };

type Checks = ReadonlyArray<Pick<CheckResultDocument['checks'][number], 'name' | 'outcome'>>;

const SSL_MARK = { pass: 'ok', warn: 'expiring', fail: 'invalid' } as const;
const DOMAIN_MARK = { pass: 'ok', warn: 'expiring', fail: 'expiring' } as const;

/**
 * The expiry events a result calls for: one when the SSL check enters its warning (expiring) or
 * its failure (invalid), and one when the domain check enters warning or failure (expiring or
 * expired) — once per crossing, not per check. A skipped check says nothing and changes no mark.
 */
export function expiryCrossings(
  marks: ExpiryMarks,
  checks: Checks,
): { marks: ExpiryMarks; events: ExpiryEventKind[] } {
  const next: ExpiryMarks = { ...marks };
  const events: ExpiryEventKind[] = [];
  for (const check of checks) {
    if (check.outcome === 'skipped') continue;
    if (check.name === 'ssl') {
      next.ssl = SSL_MARK[check.outcome];
      if (next.ssl !== marks.ssl && next.ssl !== 'ok')
        events.push(next.ssl === 'invalid' ? 'ssl.invalid' : 'ssl.expiring');
    } else if (check.name === 'domainExpiry') {
      next.domain = DOMAIN_MARK[check.outcome];
      if (next.domain !== marks.domain && next.domain === 'expiring') events.push('domain.expiring');
    }
  }
  return { marks: next, events };
}
