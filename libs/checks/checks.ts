import { type AssertionOutcome, evaluateAssertions, failedAssertionLine } from './assertions.js';
import type { CheckConfig } from './check-config.js';
import type { Observation, TlsObservation } from './observation.js';

/** The package's thresholds the checks apply (a package's alerting settings carry them). */
export interface CheckThresholds {
  responseTimeThresholdMs: number;
  sslExpiryWarningDays: number;
  domainExpiryWarningDays: number;
}

export type CheckOutcome = 'pass' | 'warn' | 'fail' | 'skipped';
export type CheckName =
  | 'status'
  | 'ssl'
  | 'httpsRedirect'
  | 'size'
  | 'responseTime'
  | 'keyword'
  | 'domainExpiry'
  | 'assertions';

export interface CheckResult {
  name: CheckName;
  outcome: CheckOutcome;
  message: string;
  value: number | string | null;
  /** The assertions check: each assertion's verdict. */
  assertions?: AssertionOutcome[];
}

export interface CheckContext {
  config: CheckConfig;
  alerting: CheckThresholds;
  now: Date;
}

type Check = (observation: Observation, context: CheckContext) => Omit<CheckResult, 'name'>;

const DAY_MS = 86_400_000;
const skipped = (message: string) => ({ outcome: 'skipped' as const, message, value: null });
const noResponse = (o: Observation) => o.httpStatus === null;

/** "200", "200-299": does `status` match one of them? */
export function statusMatches(status: number, expected: readonly string[]): boolean {
  return expected.some((spec) => {
    const [low, high = low] = spec.split('-').map(Number);
    return status >= (low as number) && status <= (high as number);
  });
}

const status: Check = (o, { config }) => {
  if (noResponse(o)) return skipped('no response');
  const ok = statusMatches(o.httpStatus as number, config.expectedStatusCodes);
  return {
    outcome: ok ? 'pass' : 'fail',
    message: ok
      ? `status ${o.httpStatus}`
      : `status ${o.httpStatus}, expected ${config.expectedStatusCodes.join(', ')}`,
    value: o.httpStatus,
  };
};

/** Whole days until the certificate expires (negative once expired). */
function certificateDaysLeft(tls: TlsObservation, now: Date): number {
  return Math.floor((tls.validTo.getTime() - now.getTime()) / DAY_MS);
}

/** The certificate as a result shows it; `valid` is exactly what the SSL check does not fail. */
export function certificateSummary(tls: TlsObservation, now: Date) {
  return {
    validTo: tls.validTo,
    daysLeft: certificateDaysLeft(tls, now),
    issuer: tls.issuer,
    subject: tls.subject,
    valid: certificateProblem(tls, now) === null,
  };
}

/** Why the certificate fails the SSL check, or null. */
function certificateProblem(tls: TlsObservation, now: Date): string | null {
  if (!tls.chainTrusted) return `certificate not trusted: ${tls.chainError ?? 'unknown issuer'}`;
  if (!tls.hostnameMatches) return 'certificate does not match the host name';
  if (tls.validTo.getTime() <= now.getTime()) return `certificate expired on ${tls.validTo.toISOString()}`;
  if (tls.validFrom.getTime() > now.getTime()) return 'certificate not yet valid';
  return null;
}

const ssl: Check = (o, { alerting, now }) => {
  if (!o.tls) return skipped(o.url.startsWith('https:') ? 'no TLS handshake completed' : 'not an https URL');
  const daysLeft = certificateDaysLeft(o.tls, now);
  const problem = certificateProblem(o.tls, now);
  if (problem) return { outcome: 'fail', message: problem, value: daysLeft };
  if (daysLeft <= alerting.sslExpiryWarningDays)
    return { outcome: 'warn', message: `certificate expires in ${daysLeft} day(s)`, value: daysLeft };
  return { outcome: 'pass', message: `certificate valid for ${daysLeft} more days`, value: daysLeft };
};

const REDIRECT_STATUSES = new Set([301, 302, 307, 308]);

const httpsRedirect: Check = (o) => {
  const answer = o.httpsRedirect;
  if (!answer) return skipped('not observed');
  if (answer.error)
    return { outcome: 'fail', message: `http:// request failed: ${answer.error.message}`, value: null };
  const host = new URL(o.url).hostname;
  let target: URL | null = null;
  try {
    target = answer.location ? new URL(answer.location, `http://${host}/`) : null;
  } catch {
    target = null;
  }
  const ok =
    answer.status !== null &&
    REDIRECT_STATUSES.has(answer.status) &&
    target?.protocol === 'https:' &&
    target.hostname === host;
  return {
    outcome: ok ? 'pass' : 'fail',
    message: ok
      ? `http:// answers ${answer.status} to ${target?.href}`
      : `http:// answers ${answer.status ?? 'nothing'}${answer.location ? ` to ${answer.location}` : ''}, not a redirect to https://${host}`,
    value: answer.status,
  };
};

const size: Check = (o, { config }) => {
  if (o.sizeBytes === null) return skipped('no body');
  const bytes = o.sizeBytes;
  const tooSmall = config.minPageSize !== null && bytes < config.minPageSize;
  const tooLarge = config.maxPageSize !== null && bytes > config.maxPageSize;
  const shown = `${bytes}${o.bodyTruncated ? '+' : ''} bytes`;
  if (tooSmall) return { outcome: 'fail', message: `${shown}, below ${config.minPageSize}`, value: bytes };
  if (tooLarge) return { outcome: 'fail', message: `${shown}, above ${config.maxPageSize}`, value: bytes };
  return { outcome: 'pass', message: shown, value: bytes };
};

const responseTime: Check = (o, { config, alerting }) => {
  if (noResponse(o)) return skipped('no response');
  const threshold = config.responseTimeThresholdMs ?? alerting.responseTimeThresholdMs;
  const total = Math.round(o.timings.total);
  return total > threshold
    ? { outcome: 'warn', message: `${total} ms, slower than ${threshold} ms`, value: total }
    : { outcome: 'pass', message: `${total} ms`, value: total };
};

const keyword: Check = (o, { config }) => {
  if (o.body === null) return skipped('no body');
  if (!config.keyword) return skipped('no keyword configured');
  const text = o.body.toString('utf8');
  const found = config.keywordCaseSensitive
    ? text.includes(config.keyword)
    : text.toLocaleLowerCase().includes(config.keyword.toLocaleLowerCase());
  const wanted = config.keywordMode === 'present';
  const ok = found === wanted;
  return {
    outcome: ok ? 'pass' : 'fail',
    message: `"${config.keyword}" ${found ? 'found' : 'not found'}${ok ? '' : ` (expected ${wanted ? 'present' : 'absent'})`}`,
    value: null,
  };
};

const domainExpiry: Check = (o, { alerting, now }) => {
  if (!o.domain) return skipped('not observed');
  if (!o.domain.expiresAt)
    return skipped(
      `expiry of ${o.domain.name} unknown: ${o.domain.error ?? 'no date in the registry answer'}`,
    );
  const daysLeft = Math.floor((o.domain.expiresAt.getTime() - now.getTime()) / DAY_MS);
  if (daysLeft < 0)
    return {
      outcome: 'fail',
      message: `${o.domain.name} expired on ${o.domain.expiresAt.toISOString().slice(0, 10)}`,
      value: daysLeft,
    };
  if (daysLeft <= alerting.domainExpiryWarningDays) {
    return { outcome: 'warn', message: `${o.domain.name} expires in ${daysLeft} day(s)`, value: daysLeft };
  }
  return { outcome: 'pass', message: `${o.domain.name} expires in ${daysLeft} days`, value: daysLeft };
};

/** Failed assertions named in the message, at most this many (all are in `assertions`). */
const NAMED_FAILURES = 3;

const assertions: Check = (o, { config }) => {
  // Without an answer there is nothing to assert on; the request's failure is the result's cause.
  if (noResponse(o)) return skipped('no response');
  const outcomes = evaluateAssertions(config.assertions ?? [], o);
  const failed = outcomes.filter((outcome) => !outcome.passed);
  const named = failed.slice(0, NAMED_FAILURES).map(failedAssertionLine).join('; ');
  const more = failed.length > NAMED_FAILURES ? `; and ${failed.length - NAMED_FAILURES} more` : '';
  return failed.length === 0
    ? { outcome: 'pass', message: `${outcomes.length} assertion(s) hold`, value: null, assertions: outcomes }
    : { outcome: 'fail', message: `${named}${more}`, value: failed.length, assertions: outcomes };
};

/** Every check, with the switch that turns it on. */
export const CHECKS = {
  status: { enabled: (c) => c.checkStatusEnabled, run: status },
  ssl: { enabled: (c) => c.checkSslEnabled, run: ssl },
  httpsRedirect: { enabled: (c) => c.checkHttpsRedirectEnabled, run: httpsRedirect },
  size: { enabled: (c) => c.checkSizeEnabled, run: size },
  responseTime: { enabled: (c) => c.checkResponseTimeEnabled, run: responseTime },
  keyword: { enabled: (c) => c.checkKeywordEnabled, run: keyword },
  domainExpiry: { enabled: (c) => c.checkDomainExpiryEnabled, run: domainExpiry },
  assertions: { enabled: (c) => (c.assertions ?? []).length > 0, run: assertions },
} satisfies Record<CheckName, { enabled: (config: CheckConfig) => boolean; run: Check }>;

export type HealthStatus = 'up' | 'degraded' | 'down';

/**
 * Runs the enabled checks over an observation. down: the request failed or a check failed;
 * degraded: only warnings; up: otherwise.
 */
export function evaluate(
  observation: Observation,
  context: CheckContext,
): { status: HealthStatus; checks: CheckResult[] } {
  const checks = (Object.keys(CHECKS) as CheckName[])
    .filter((name) => CHECKS[name].enabled(context.config))
    .map((name) => ({ name, ...CHECKS[name].run(observation, context) }));
  const status: HealthStatus =
    observation.error || checks.some((c) => c.outcome === 'fail')
      ? 'down'
      : checks.some((c) => c.outcome === 'warn')
        ? 'degraded'
        : 'up';
  return { status, checks };
}
