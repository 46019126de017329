import { z } from 'zod';
import { invalidInput } from '../errors/index.js';
import { mapInTurns } from '../runtime/index.js';
import { cell, csvRecords, hasColumn } from './csv-source.js';
import { jsonSource } from './json-source.js';
import type { ImportedMethod, SourceCheck, SourceMonitor } from './source-monitor.js';

/**
 * UptimeRobot's monitors: its API's `getMonitors` answer (v2) and its dashboard's CSV export. Their
 * keyword type names when to alert: "exists" (1) alerts when the keyword is on the page, so the
 * page must not hold it (`absent`); "not exists" (2) the other way round.
 */

const TYPES: Record<number, string> = { 1: 'HTTP(s)', 2: 'Keyword', 3: 'Ping', 4: 'Port', 5: 'Heartbeat' };
const METHODS: Record<number, ImportedMethod> = {
  1: 'HEAD',
  2: 'GET',
  3: 'POST',
  4: 'PUT',
  5: 'PATCH',
  6: 'DELETE',
  7: 'OPTIONS',
};
/**
 * A port monitor's service (`sub_type`) and its port: the mail servers become checks of their
 * protocol (the greeting judged, in the clear as UptimeRobot connects), the others port checks.
 */
const PORT_SERVICES: Record<number, { port: number; kind: 'port' | 'smtp' | 'pop3' | 'imap' }> = {
  1: { port: 80, kind: 'port' },
  2: { port: 443, kind: 'port' },
  3: { port: 21, kind: 'port' },
  4: { port: 25, kind: 'smtp' },
  5: { port: 110, kind: 'pop3' },
  6: { port: 143, kind: 'imap' },
};

/** Ping, port and heartbeat monitors as checks (`host`: its URL/IP, a scheme or path left out); else why not. */
function robotCheck(
  type: number,
  address: string,
  port: { subType: number | null; number: number | null },
  intervalSeconds: number | undefined,
): SourceCheck | string {
  if (type === 5)
    return intervalSeconds
      ? { kind: 'heartbeat', periodSeconds: intervalSeconds }
      : 'the export does not say how often it is pinged: import the getMonitors answer instead';
  const host = address
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/, '');
  if (!host) return 'it names no host';
  if (type === 3) return { kind: 'icmp', host };
  if (type !== 4) return `webmon has no check of this kind (type ${type})`;
  const service = port.subType === null ? undefined : PORT_SERVICES[port.subType];
  if (service?.kind === 'port' || (!service && port.number))
    return { kind: 'port', host, port: service?.port ?? (port.number as number), tls: false };
  if (service) return { kind: service.kind, host, port: service.port, security: 'none' };
  return 'it names no port';
}

const PAUSED = 'paused in UptimeRobot: imported running (a check pauses with its website)';

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value == null ? '' : String(value)));
const code = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => (value === '' || value == null ? null : Number(value)));

/** One monitor of `getMonitors`: the fields we read (others are let through). */
const monitorSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  friendly_name: text,
  url: text,
  type: z.coerce.number().int(),
  sub_type: code,
  port: code,
  keyword_type: code,
  keyword_case_type: code,
  keyword_value: text,
  http_username: text,
  http_password: text,
  http_auth_type: code,
  http_method: code,
  post_value: text,
  post_content_type: code,
  custom_http_headers: z.record(z.string(), z.union([z.string(), z.number()])).nullish(),
  custom_http_statuses: text,
  interval: z.coerce.number().nullish(),
  timeout: z.coerce.number().nullish(),
  status: code,
});

/**
 * "401:1_302:0": codes UptimeRobot counts as up (1) or down (0) against its default (2xx and 3xx up),
 * as the ranges of codes that are up.
 */
export function acceptedCodes(statuses: string): string[] | undefined {
  const marks = statuses
    .split('_')
    .map((pair) => pair.split(':'))
    .filter(([status, state]) => /^\d{3}$/.test(status ?? '') && (state === '0' || state === '1'));
  if (marks.length === 0) return undefined;
  const up = new Set(Array.from({ length: 200 }, (_, i) => 200 + i));
  for (const [status, state] of marks) (state === '1' ? up.add.bind(up) : up.delete.bind(up))(Number(status));
  const ranges: string[] = [];
  let start: number | null = null;
  const sorted = [...up].sort((a, b) => a - b);
  for (const [i, code] of sorted.entries()) {
    start ??= code;
    if (sorted[i + 1] !== code + 1) {
      ranges.push(start === code ? String(code) : `${start}-${code}`);
      start = null;
    }
  }
  return ranges;
}

export function uptimeRobotJsonMonitors(content: string): SourceMonitor[] {
  const answer = jsonSource(
    content,
    z.looseObject({ monitors: z.array(monitorSchema) }),
    'an UptimeRobot getMonitors answer',
    '{"monitors": [...]} as getMonitors answers',
  );
  return answer.monitors.map((monitor): SourceMonitor => {
    const source = `monitor ${monitor.id}`;
    const sourceType = TYPES[monitor.type] ?? `type ${monitor.type}`;
    const base = { source, name: monitor.friendly_name, url: monitor.url };
    if (monitor.type !== 1 && monitor.type !== 2) {
      const check = robotCheck(
        monitor.type,
        monitor.url,
        { subType: monitor.sub_type, number: monitor.port },
        monitor.interval ?? undefined,
      );
      if (typeof check === 'string')
        return { ...base, kind: { type: 'unsupported', sourceType, reason: check } };
      return {
        ...base,
        // A heartbeat's URL holds its token, a credential: it stays out of the report.
        ...(check.kind === 'heartbeat' ? { url: '' } : {}),
        kind: { type: 'check', sourceType, check },
        ...(monitor.interval ? { intervalSeconds: monitor.interval } : {}),
        ...(monitor.timeout ? { timeoutSeconds: monitor.timeout } : {}),
        ...(monitor.status === 0 ? { notes: [PAUSED] } : {}),
      };
    }
    const method = METHODS[monitor.http_method ?? 2] ?? 'GET';
    const headers = Object.fromEntries(
      Object.entries(monitor.custom_http_headers ?? {}).map(([name, value]) => [name, String(value)]),
    );
    if (
      monitor.post_value &&
      monitor.post_content_type === 1 &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
    )
      headers['Content-Type'] = 'application/json';
    const accepted = acceptedCodes(monitor.custom_http_statuses);
    return {
      ...base,
      kind: { type: 'http' },
      method,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(monitor.post_value ? { body: monitor.post_value } : {}),
      // Basic authentication (1); digest (2) cannot be sent as a header and is left out.
      ...(monitor.http_username && monitor.http_auth_type !== 2
        ? { basicAuth: { username: monitor.http_username, password: monitor.http_password } }
        : {}),
      ...(monitor.type === 2 && monitor.keyword_value
        ? {
            keyword: {
              value: monitor.keyword_value,
              mode: monitor.keyword_type === 1 ? 'absent' : 'present',
              caseSensitive: monitor.keyword_case_type === 1,
            },
          }
        : {}),
      ...(monitor.interval ? { intervalSeconds: monitor.interval } : {}),
      ...(monitor.timeout ? { timeoutSeconds: monitor.timeout } : {}),
      ...(accepted ? { acceptedStatusCodes: accepted } : {}),
      ...(monitor.status === 0 ? { paused: true } : {}),
    };
  });
}

/** The dashboard's CSV export: `Friendly Name`, `URL/IP`, `Type`, `Status`, `Keyword Type`, `Keyword Value`. */
export async function uptimeRobotCsvMonitors(
  content: string,
  customerColumn: string | null,
): Promise<SourceMonitor[]> {
  const { columns, rows } = await csvRecords(content);
  const missing = ['Friendly Name', 'URL/IP', 'Type'].filter((name) => !hasColumn(columns, name));
  if (customerColumn && !hasColumn(columns, customerColumn)) missing.push(customerColumn);
  if (missing.length > 0)
    throw invalidInput('Not an UptimeRobot export', [
      { path: 'content', message: `no column named ${missing.join(', ')} (UptimeRobot's export has them)` },
    ]);
  return mapInTurns(rows, (row, i): SourceMonitor => {
    const type = cell(row, 'Type');
    const base = {
      source: `row ${i + 2}`,
      name: cell(row, 'Friendly Name'),
      url: cell(row, 'URL/IP'),
      ...(customerColumn ? { customer: cell(row, customerColumn) } : {}),
    };
    const lower = type.toLowerCase();
    const paused = cell(row, 'Status').toLowerCase() === 'paused';
    if (!lower.startsWith('http') && lower !== 'keyword') {
      const typeNumber = { ping: 3, port: 4, heartbeat: 5 }[lower] ?? 0;
      const portNumber = Number(cell(row, 'Port')) || null;
      const check = robotCheck(typeNumber, base.url, { subType: null, number: portNumber }, undefined);
      const sourceType = type || 'unknown';
      if (typeof check === 'string')
        return { ...base, kind: { type: 'unsupported', sourceType, reason: check } };
      return { ...base, kind: { type: 'check', sourceType, check }, ...(paused ? { notes: [PAUSED] } : {}) };
    }
    const keyword = cell(row, 'Keyword Value');
    const keywordType = cell(row, 'Keyword Type')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    return {
      ...base,
      kind: { type: 'http' },
      ...(lower === 'keyword' && keyword
        ? {
            keyword: {
              value: keyword,
              mode: keywordType === 'exists' ? 'absent' : 'present',
              caseSensitive: false,
            },
          }
        : {}),
      ...(paused ? { paused: true } : {}),
    };
  });
}
