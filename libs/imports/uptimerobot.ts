import { z } from 'zod';
import { invalidInput } from '../errors/index.js';
import { cell, csvRecords, hasColumn } from './csv-source.js';
import { jsonSource } from './json-source.js';
import type { ImportedMethod, SourceMonitor } from './source-monitor.js';

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
const NOT_HTTP = 'webmon checks websites over HTTP(S); this kind of monitor is not imported';

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
    if (monitor.type !== 1 && monitor.type !== 2)
      return { ...base, kind: { type: 'unsupported', sourceType, reason: NOT_HTTP } };
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
export function uptimeRobotCsvMonitors(content: string, customerColumn: string | null): SourceMonitor[] {
  const { columns, rows } = csvRecords(content);
  const missing = ['Friendly Name', 'URL/IP', 'Type'].filter((name) => !hasColumn(columns, name));
  if (customerColumn && !hasColumn(columns, customerColumn)) missing.push(customerColumn);
  if (missing.length > 0)
    throw invalidInput('Not an UptimeRobot export', [
      { path: 'content', message: `no column named ${missing.join(', ')} (UptimeRobot's export has them)` },
    ]);
  return rows.map((row, i): SourceMonitor => {
    const type = cell(row, 'Type');
    const base = {
      source: `row ${i + 2}`,
      name: cell(row, 'Friendly Name'),
      url: cell(row, 'URL/IP'),
      ...(customerColumn ? { customer: cell(row, customerColumn) } : {}),
    };
    const lower = type.toLowerCase();
    if (!lower.startsWith('http') && lower !== 'keyword')
      return { ...base, kind: { type: 'unsupported', sourceType: type || 'unknown', reason: NOT_HTTP } };
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
      ...(cell(row, 'Status').toLowerCase() === 'paused' ? { paused: true } : {}),
    };
  });
}
