import type { DnsRecordType } from '../probe/index.js';
import type { BatchItem } from '../websites/index.js';

/** An HTTP method a website may use (as `POST /api/websites` takes it). */
export type ImportedMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * A monitor of another tool that is not an HTTP check, in the words of our kind it becomes: the
 * fields its create route takes (validated there, and by `toCheck` before).
 */
export type SourceCheck =
  | { kind: 'heartbeat'; periodSeconds: number; graceSeconds?: number }
  | { kind: 'dns'; host: string; recordType: DnsRecordType; expected: string[] | 'unchanged' }
  | { kind: 'port'; host: string; port: number; tls: boolean }
  | { kind: 'icmp'; host: string; count?: number }
  | { kind: 'grpc'; host: string; port: number; tls: boolean; service: string }
  | { kind: 'websocket'; url: string; headers?: Record<string, string>; subprotocol?: string }
  | { kind: 'smtp' | 'imap' | 'pop3'; host: string; port: number; security: 'starttls' | 'tls' | 'none' };

/**
 * A monitor of another tool, as its export describes it, in our words (pure data: every format's
 * parser makes these; one mapping turns HTTP ones into websites, another the others into checks).
 */
export interface SourceMonitor {
  /** Where it is in the source, for the report: "row 3", "monitor 17". */
  source: string;
  name: string;
  /** What it checks: HTTP (a website), another kind (a check of a website), or nothing we can (the reason). */
  kind:
    | { type: 'http' }
    | { type: 'check'; sourceType: string; check: SourceCheck }
    | { type: 'unsupported'; sourceType: string; reason: string };
  url: string;
  method?: ImportedMethod;
  headers?: Record<string, string>;
  body?: string;
  basicAuth?: { username: string; password: string };
  keyword?: { value: string; mode: 'present' | 'absent'; caseSensitive: boolean };
  intervalSeconds?: number;
  timeoutSeconds?: number;
  /** Codes or ranges such as "200-299". */
  acceptedStatusCodes?: string[];
  maxRedirects?: number;
  /** Paused in the source: imported paused. */
  paused?: boolean;
  /** The customer it goes to, by name or id, when the import reads it from the source (a column). */
  customer?: string;
  /** The source does not count certificate problems (our SSL check off). */
  ignoreTls?: boolean;
  /** What of the source could not be carried over (said in the report). */
  notes?: string[];
}

/** Header names whose values are credentials: imported as secret headers (sealed, write-only). */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
]);

/** Our bounds a source's value is brought within (and the report says so). */
export interface MappingBounds {
  minIntervalSeconds: number;
}
const MAX_INTERVAL_SECONDS = 86_400;
/** The API's own bound (`timeoutSeconds` at most 120). */
const MAX_TIMEOUT_SECONDS = 120;
const MAX_REDIRECTS = 20;

/**
 * A source's interval and timeout within our bounds: the interval at least the package's minimum
 * and at most a day, the timeout below the interval and at most `maxTimeout` (each change said).
 */
export function boundedTiming(
  monitor: Pick<SourceMonitor, 'intervalSeconds' | 'timeoutSeconds'>,
  bounds: MappingBounds,
  maxTimeout: number,
  adjusted: string[],
): { interval: number; timeout: number | undefined } {
  let interval = Math.round(monitor.intervalSeconds ?? 300);
  const lowest = Math.max(bounds.minIntervalSeconds, 10);
  if (interval < lowest) {
    adjusted.push(`interval ${interval} s raised to ${lowest} s (the package's minimum)`);
    interval = lowest;
  } else if (interval > MAX_INTERVAL_SECONDS) {
    adjusted.push(`interval ${interval} s lowered to ${MAX_INTERVAL_SECONDS} s`);
    interval = MAX_INTERVAL_SECONDS;
  }
  let timeout =
    monitor.timeoutSeconds === undefined ? undefined : Math.max(1, Math.round(monitor.timeoutSeconds));
  const highestTimeout = Math.min(maxTimeout, interval - 1);
  if (timeout !== undefined && timeout > highestTimeout) {
    const why = highestTimeout === maxTimeout ? 'the longest a check waits' : 'below the interval';
    adjusted.push(`timeout ${timeout} s lowered to ${highestTimeout} s (${why})`);
    timeout = highestTimeout;
  }
  return { interval, timeout };
}

export type Mapped =
  | { ok: true; item: Omit<BatchItem, 'customerId'>; adjusted: string[] }
  | { ok: false; reason: string };

/**
 * The website a source monitor becomes: its URL, method, headers (credentials as secret headers,
 * basic auth as a sealed Authorization), body, interval and timeout (brought within our bounds and
 * the package's minimum, each change said), and its check configuration (keyword, accepted status
 * codes). A monitor that is not an HTTP check is not imported: the reason is said.
 */
export function toWebsite(monitor: SourceMonitor, bounds: MappingBounds): Mapped {
  if (monitor.kind.type === 'unsupported') return { ok: false, reason: monitor.kind.reason };
  if (monitor.kind.type === 'check') return { ok: false, reason: 'not an HTTP check: imported as a check' };
  const adjusted: string[] = [...(monitor.notes ?? [])];
  const customHeaders: Record<string, string> = {};
  const secretHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(monitor.headers ?? {}))
    (CREDENTIAL_HEADERS.has(name.toLowerCase()) ? secretHeaders : customHeaders)[name] = value;
  if (monitor.basicAuth) {
    const { username, password } = monitor.basicAuth;
    secretHeaders.Authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  const { interval, timeout } = boundedTiming(monitor, bounds, MAX_TIMEOUT_SECONDS, adjusted);
  const method = monitor.method ?? 'GET';
  const body = monitor.body && method !== 'HEAD' && method !== 'GET' ? monitor.body : undefined;
  if (monitor.body && body === undefined)
    adjusted.push(`the request body was dropped (a ${method} carries none)`);
  const checkConfig: NonNullable<BatchItem['checkConfig']> = {};
  if (monitor.keyword) {
    checkConfig.checkKeywordEnabled = true;
    checkConfig.keyword = monitor.keyword.value;
    checkConfig.keywordMode = monitor.keyword.mode;
    checkConfig.keywordCaseSensitive = monitor.keyword.caseSensitive;
  }
  if (monitor.acceptedStatusCodes && monitor.acceptedStatusCodes.length > 0) {
    checkConfig.expectedStatusCodes = monitor.acceptedStatusCodes.slice(0, 20);
    if (monitor.acceptedStatusCodes.length > 20)
      adjusted.push(
        `only the first 20 of ${monitor.acceptedStatusCodes.length} accepted status codes were kept`,
      );
  }
  if (monitor.ignoreTls) checkConfig.checkSslEnabled = false;
  const item: Omit<BatchItem, 'customerId'> = {
    name: monitor.name.trim().slice(0, 200) || monitor.url,
    url: monitor.url,
    httpMethod: method,
    checkInterval: interval,
    ...(timeout === undefined ? {} : { timeoutSeconds: timeout }),
    ...(Object.keys(customHeaders).length > 0 ? { customHeaders } : {}),
    ...(Object.keys(secretHeaders).length > 0 ? { secretHeaders } : {}),
    ...(body === undefined ? {} : { requestBody: body }),
    ...(monitor.maxRedirects === undefined
      ? {}
      : monitor.maxRedirects === 0
        ? { followRedirects: false }
        : { maxRedirects: Math.min(monitor.maxRedirects, MAX_REDIRECTS) }),
    ...(monitor.paused ? { paused: true } : {}),
    ...(Object.keys(checkConfig).length > 0 ? { checkConfig } : {}),
  };
  return { ok: true, item, adjusted };
}

/**
 * The monitor with credentials taken out of its URL (`https://user:pass@host/`): they become its
 * basic authentication (sent sealed) unless it has one, and appear nowhere else (not in a report).
 */
export function withoutUrlCredentials(monitor: SourceMonitor): SourceMonitor {
  let parsed: URL;
  try {
    parsed = new URL(monitor.url);
  } catch {
    // Not a URL (the website's validation says so): any "user:pass@" is cut all the same.
    return { ...monitor, url: monitor.url.replace(/\/\/[^/?#]*@/, '//') };
  }
  if (!parsed.username && !parsed.password) return monitor;
  const basicAuth = monitor.basicAuth ?? {
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
  parsed.username = '';
  parsed.password = '';
  return { ...monitor, url: parsed.toString(), basicAuth };
}
