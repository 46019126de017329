import { z } from 'zod';
import { jsonSource } from './json-source.js';
import type { ImportedMethod, SourceMonitor } from './source-monitor.js';

/**
 * Uptime Kuma's backup (Settings → Backup → Export, versions 1.x): `{version, notificationList,
 * monitorList}`. Its `headers` is a JSON object written as a string; `active` is 1/0 before 1.22
 * and true/false after; older backups lack many fields, so every one is optional here.
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
});
type KumaMonitor = z.infer<typeof monitorSchema>;

/** Why a monitor of another type is not imported. */
function reasonFor(type: string): string {
  if (type === 'group') return 'a group of monitors, not a check';
  if (type === 'json-query')
    return 'its JSONata query cannot be carried over: add a JSON assertion to the website instead';
  return 'webmon checks websites over HTTP(S); this kind of monitor is not imported';
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
    if (!HTTP_TYPES.has(type)) {
      // Kuma keeps "https://" in the url of the others: where they point is their host and port.
      const where = monitor.hostname ? `${monitor.hostname}${monitor.port ? `:${monitor.port}` : ''}` : '';
      return {
        ...base,
        url: where,
        kind: { type: 'unsupported', sourceType: type, reason: reasonFor(type) },
      };
    }
    if (monitor.upsideDown === true || monitor.upsideDown === 1)
      return {
        ...base,
        kind: {
          type: 'unsupported',
          sourceType: `${type} (upside down)`,
          reason: 'upside-down mode (up when the check fails) cannot be carried over',
        },
      };
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
