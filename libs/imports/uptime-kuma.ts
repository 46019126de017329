import { z } from 'zod';
import { DNS_RECORD_TYPES, type DnsRecordType } from '../probe/index.js';
import { jsonSource } from './json-source.js';
import type { ImportedMethod, SourceCheck, SourceMonitor } from './source-monitor.js';

/**
 * Uptime Kuma's backup (Settings → Backup → Export, versions 1.x): `{version, notificationList,
 * monitorList}`. Its `headers` is a JSON object written as a string; `active` is 1/0 before 1.22
 * and true/false after; older backups lack many fields, so every one is optional here. Kuma 2
 * dropped the backup; monitors in its 2.x fields (`websocket-upgrade`, `smtp`, `ping_count`,
 * `wsSubprotocol`, as its `monitorList` socket event sends them) are read the same way.
 */

const METHODS = new Set<ImportedMethod>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const HTTP_TYPES = new Set(['http', 'keyword']);

const monitorSchema = z.looseObject({
  id: z.union([z.number(), z.string()]).optional(),
  name: z.string().nullish(),
  type: z.string().nullish(),
  url: z.string().nullish(),
  hostname: z.string().nullish(),
  port: z.coerce.number().nullish(),
  method: z.string().nullish(),
  headers: z.string().nullish(),
  body: z.string().nullish(),
  keyword: z.string().nullish(),
  invertKeyword: z.union([z.boolean(), z.number()]).nullish(),
  interval: z.coerce.number().nullish(),
  timeout: z.coerce.number().nullish(),
  accepted_statuscodes: z.array(z.string()).nullish(),
  maxredirects: z.coerce.number().nullish(),
  active: z.union([z.boolean(), z.number()]).nullish(),
  authMethod: z.string().nullish(),
  upsideDown: z.union([z.boolean(), z.number()]).nullish(),
  ignoreTls: z.union([z.boolean(), z.number()]).nullish(),
  basic_auth_user: z.string().nullish(),
  basic_auth_pass: z.string().nullish(),
  bearer_token: z.string().nullish(),
  maxretries: z.coerce.number().nullish(),
  retryInterval: z.coerce.number().nullish(),
  ping_count: z.coerce.number().nullish(),
  dns_resolve_type: z.string().nullish(),
  dns_resolve_server: z.string().nullish(),
  conditions: z.unknown().optional(),
  grpcUrl: z.string().nullish(),
  grpcServiceName: z.string().nullish(),
  grpcMethod: z.string().nullish(),
  grpcBody: z.string().nullish(),
  grpcEnableTls: z.union([z.boolean(), z.number()]).nullish(),
  wsSubprotocol: z.string().nullish(),
  smtpSecurity: z.string().nullish(),
});
type KumaMonitor = z.infer<typeof monitorSchema>;

const isTrue = (value: boolean | number | null | undefined) => value === true || value === 1;

/** Why a monitor of another type is not imported. */
function reasonFor(type: string): string {
  if (type === 'group') return 'a group of monitors, not a check';
  if (type === 'json-query')
    return 'its JSONata query cannot be carried over: add a JSON assertion to the website instead';
  return `webmon has no check of this kind (it imports HTTP, keyword, ping, port, DNS, push, gRPC, WebSocket and SMTP monitors)`;
}

/** "host:port" (a scheme, if any, left out), as Kuma's gRPC URL holds it. */
function hostAndPort(address: string): { host: string; port: number } | null {
  const match = /^(?:[a-z]+:\/\/)?(\[[^\]]+\]|[^:/]+):(\d{1,5})\/?$/i.exec(address.trim());
  return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : null;
}

/**
 * The check a Kuma monitor of another type than HTTP becomes, with what of it is not carried; or
 * why it cannot be imported.
 */
function kumaCheck(monitor: KumaMonitor, type: string): { check: SourceCheck; notes: string[] } | string {
  const host = monitor.hostname?.trim() ?? '';
  const notes: string[] = [];
  if (type === 'push') {
    // Kuma waits `interval`, then retries `maxretries` times `retryInterval` apart before down.
    const retries = (monitor.maxretries ?? 0) * (monitor.retryInterval ?? monitor.interval ?? 60);
    notes.push("its push URL is not carried: point the job at the heartbeat's ping URL");
    return {
      check: { kind: 'heartbeat', periodSeconds: monitor.interval ?? 60, graceSeconds: retries },
      notes,
    };
  }
  if (type === 'grpc-keyword') {
    const target = hostAndPort(monitor.grpcUrl ?? '');
    if (!target) return `its gRPC URL "${monitor.grpcUrl ?? ''}" names no host:port`;
    const health =
      /(^|\.)Health$/.test(monitor.grpcServiceName ?? '') && /^check$/i.test(monitor.grpcMethod ?? '');
    const asked = health ? grpcHealthService(monitor.grpcBody) : '';
    if (!health)
      notes.push(
        `its call ${monitor.grpcServiceName ?? ''}.${monitor.grpcMethod ?? ''} is not carried: the server's standard health service is asked (grpc.health.v1.Health/Check, up on SERVING)`,
      );
    if (monitor.keyword)
      notes.push(`its keyword "${monitor.keyword}" on the answer is not carried (SERVING is what counts)`);
    const tls = isTrue(monitor.grpcEnableTls);
    return { check: { kind: 'grpc', ...target, tls, service: asked }, notes };
  }
  if (type === 'websocket-upgrade') return websocketCheck(monitor);
  if (!host) return 'it names no host';
  if (type === 'ping') {
    const count = monitor.ping_count ? Math.min(Math.max(Math.round(monitor.ping_count), 1), 10) : undefined;
    return { check: { kind: 'icmp', host, ...(count ? { count } : {}) }, notes };
  }
  if (type === 'port') {
    if (!monitor.port) return 'it names no port';
    if (monitor.smtpSecurity === 'starttls')
      notes.push('its STARTTLS is not carried: the port is connected to (add an SMTP check for more)');
    return {
      check: { kind: 'port', host, port: monitor.port, tls: monitor.smtpSecurity === 'secure' },
      notes,
    };
  }
  if (type === 'smtp') {
    const security =
      monitor.smtpSecurity === 'secure' ? 'tls' : monitor.smtpSecurity === 'starttls' ? 'starttls' : 'none';
    return { check: { kind: 'smtp', host, port: monitor.port || 25, security }, notes };
  }
  if (type === 'dns') {
    const recordType = (monitor.dns_resolve_type ?? 'A').toUpperCase();
    if (!(DNS_RECORD_TYPES as readonly string[]).includes(recordType))
      return `its record type ${recordType} is not one webmon checks (${DNS_RECORD_TYPES.join(', ')})`;
    const resolver = monitor.dns_resolve_server?.trim();
    if (resolver)
      notes.push(
        `its resolver ${resolver}${monitor.port && monitor.port !== 53 ? ` port ${monitor.port}` : ''} is not carried: the regions ask the operator's resolvers`,
      );
    notes.push(
      'Kuma was up whenever the name resolved: here the first answer is learned and a different one is told (dns.changed)',
    );
    if (Array.isArray(monitor.conditions) && monitor.conditions.length > 0)
      notes.push('its conditions on the answer are not carried');
    const check: SourceCheck = {
      kind: 'dns',
      host,
      recordType: recordType as DnsRecordType,
      expected: 'unchanged',
    };
    return { check, notes };
  }
  return reasonFor(type);
}

/** The `service` a health check's request body asks about ('' : the server as a whole). */
function grpcHealthService(body: string | null | undefined): string {
  try {
    const parsed: unknown = JSON.parse(body ?? '{}');
    const service = parsed && typeof parsed === 'object' ? (parsed as { service?: unknown }).service : '';
    return typeof service === 'string' ? service : '';
  } catch {
    return '';
  }
}

/** A WebSocket upgrade check: its URL (credentials in it, or its basic or bearer auth, as an Authorization header), headers and first subprotocol. */
function websocketCheck(monitor: KumaMonitor): { check: SourceCheck; notes: string[] } | string {
  let url: URL;
  try {
    url = new URL(monitor.url ?? '');
  } catch {
    return `its URL "${monitor.url ?? ''}" is not one`;
  }
  const notes: string[] = [];
  const headers = headersOf(monitor) ?? {};
  if (url.username) {
    const user = decodeURIComponent(url.username);
    headers.Authorization = `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  if (monitor.authMethod === 'basic' && monitor.basic_auth_user)
    headers.Authorization = `Basic ${Buffer.from(`${monitor.basic_auth_user}:${monitor.basic_auth_pass ?? ''}`).toString('base64')}`;
  else if (monitor.authMethod === 'bearer' && monitor.bearer_token)
    headers.Authorization = `Bearer ${monitor.bearer_token}`;
  else if (monitor.authMethod) notes.push(`its ${monitor.authMethod} authentication was not imported`);
  const [subprotocol, ...others] = (monitor.wsSubprotocol ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (others.length > 0) notes.push(`only its first subprotocol (${subprotocol}) is asked for`);
  if (isTrue(monitor.ignoreTls)) notes.push('certificate problems are not ignored here');
  const check: SourceCheck = {
    kind: 'websocket',
    url: url.toString(),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(subprotocol ? { subprotocol } : {}),
  };
  return { check, notes };
}

function headersOf(monitor: KumaMonitor): Record<string, string> | undefined {
  if (!monitor.headers?.trim()) return undefined;
  try {
    const parsed: unknown = JSON.parse(monitor.headers);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
  } catch {
    // Not JSON: Kuma would not send them either.
  }
  return undefined;
}

export function uptimeKumaMonitors(content: string): SourceMonitor[] {
  const backup = jsonSource(
    content,
    z.looseObject({ monitorList: z.array(monitorSchema) }),
    'an Uptime Kuma backup',
    `{"version", "monitorList": [...]} as Kuma's backup has`,
  );
  return backup.monitorList.map((monitor, i): SourceMonitor => {
    const type = monitor.type ?? 'http';
    const base = {
      source: `monitor ${monitor.id ?? i + 1}`,
      name: monitor.name ?? '',
      url: monitor.url ?? '',
    };
    if (isTrue(monitor.upsideDown))
      return {
        ...base,
        kind: {
          type: 'unsupported',
          sourceType: `${type} (upside down)`,
          reason: 'upside-down mode (up when the check fails) cannot be carried over',
        },
      };
    if (!HTTP_TYPES.has(type)) {
      // Kuma keeps "https://" in the url of most others: where they point is their host and port.
      const where =
        type === 'websocket-upgrade'
          ? (monitor.url ?? '').replace(/\/\/[^/?#]*@/, '//')
          : type === 'grpc-keyword'
            ? (monitor.grpcUrl ?? '')
            : monitor.hostname
              ? `${monitor.hostname}${monitor.port ? `:${monitor.port}` : ''}`
              : '';
      const mapped = kumaCheck(monitor, type);
      if (typeof mapped === 'string')
        return { ...base, url: where, kind: { type: 'unsupported', sourceType: type, reason: mapped } };
      const paused = monitor.active === false || monitor.active === 0;
      return {
        ...base,
        url: where,
        kind: { type: 'check', sourceType: type, check: mapped.check },
        ...(monitor.interval ? { intervalSeconds: monitor.interval } : {}),
        ...(monitor.timeout ? { timeoutSeconds: monitor.timeout } : {}),
        notes: [
          ...mapped.notes,
          ...(paused ? ['paused in Uptime Kuma: imported running (a check pauses with its website)'] : []),
        ],
      };
    }
    const method = (monitor.method ?? 'GET').toUpperCase();
    const headers = headersOf(monitor);
    const auth = monitor.authMethod;
    return {
      ...base,
      kind: { type: 'http' },
      method: METHODS.has(method as ImportedMethod) ? (method as ImportedMethod) : 'GET',
      ...(headers ? { headers } : {}),
      ...(monitor.body ? { body: monitor.body } : {}),
      ...(monitor.authMethod === 'basic' && monitor.basic_auth_user
        ? { basicAuth: { username: monitor.basic_auth_user, password: monitor.basic_auth_pass ?? '' } }
        : {}),
      ...(type === 'keyword' && monitor.keyword
        ? {
            keyword: {
              value: monitor.keyword,
              mode: monitor.invertKeyword === true || monitor.invertKeyword === 1 ? 'absent' : 'present',
              // Kuma looks for the keyword as written.
              caseSensitive: true,
            },
          }
        : {}),
      ...(monitor.interval ? { intervalSeconds: monitor.interval } : {}),
      ...(monitor.timeout ? { timeoutSeconds: monitor.timeout } : {}),
      ...(monitor.accepted_statuscodes?.length ? { acceptedStatusCodes: monitor.accepted_statuscodes } : {}),
      ...(monitor.maxredirects === undefined || monitor.maxredirects === null
        ? {}
        : { maxRedirects: monitor.maxredirects }),
      ...(monitor.active === false || monitor.active === 0 ? { paused: true } : {}),
      ...(monitor.ignoreTls === true || monitor.ignoreTls === 1 ? { ignoreTls: true } : {}),
      ...(auth && auth !== 'basic' ? { notes: [`its ${auth} authentication was not imported`] } : {}),
    };
  });
}
