import type { z } from 'zod';
import { validate } from '../contract/index.js';
import type { FieldError } from '../errors/index.js';
import {
  createDnsCheckBody,
  createHeartbeatBody,
  createPortCheckBody,
  createProbeCheckBodies,
  type MonitorDocument,
  type MonitorKind,
} from '../monitors/index.js';
import type { CheckBody } from './monitor-create.js';
import { boundedTiming, type MappingBounds, type SourceMonitor } from './source-monitor.js';

type ProbeKind = Exclude<MonitorKind, 'heartbeat' | 'dns' | 'port'>;

export type MappedCheck =
  | {
      ok: true;
      check: CheckBody;
      /** The host it reaches, to find its website by (null: a heartbeat has none). */
      host: string | null;
      adjusted: string[];
    }
  | { ok: false; errors: FieldError[] };

/** The API's bound on a check's timeout (`timeoutSeconds` at most 60). */
const MAX_CHECK_TIMEOUT_SECONDS = 60;
/** ICMP's echo requests are half a second apart, and the last reply is waited for a second. */
const icmpSeconds = (count: number) => Math.ceil(count * 0.5 + 1);

/** A name as monitors take it: one line, at most 200 characters (none: the kind's default). */
const nameOf = (monitor: SourceMonitor) =>
  monitor.name
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, 200);

/**
 * The check a source monitor of another kind than HTTP becomes: its kind's create body, its
 * interval and timeout brought within our bounds (each change said), validated by the schema its
 * route validates with (a field it refuses is named, as the API would).
 */
export function toCheck(monitor: SourceMonitor, bounds: MappingBounds): MappedCheck {
  if (monitor.kind.type !== 'check') return { ok: false, errors: [{ path: 'type', message: 'not a check' }] };
  const { check } = monitor.kind;
  const adjusted = [...(monitor.notes ?? [])];
  const name = nameOf(monitor);
  const named = name ? { name } : {};
  if (check.kind === 'heartbeat') {
    const grace = check.graceSeconds;
    return parsed('heartbeat', createHeartbeatBody, {
      ...named,
      schedule: { periodSeconds: Math.round(check.periodSeconds) },
      ...(grace === undefined ? {} : { graceSeconds: Math.min(Math.round(grace), 86_400) }),
    });
  }
  const { interval, timeout } = boundedTiming(monitor, bounds, MAX_CHECK_TIMEOUT_SECONDS, adjusted);
  let timeoutSeconds = timeout;
  if (check.kind === 'icmp') {
    // A timeout shorter than its echo requests take would read as down every time.
    const needed = icmpSeconds(check.count ?? 3);
    if (timeoutSeconds !== undefined && timeoutSeconds < needed) {
      adjusted.push(`timeout ${timeoutSeconds} s raised to ${needed} s (its echo requests take that long)`);
      timeoutSeconds = needed;
    }
  }
  const timing = { intervalSeconds: interval, ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }) };
  const { kind, ...fields } = check;
  if (kind === 'dns') return parsed('dns', createDnsCheckBody, { ...named, ...fields, ...timing });
  if (kind === 'port') return parsed('port', createPortCheckBody, { ...named, ...fields, ...timing });
  const read = validate(createProbeCheckBodies[kind], { kind, ...named, ...fields, ...timing });
  if (!read.success) return { ok: false, errors: read.errors };
  const { kind: _kind, ...body } = read.data as { kind: ProbeKind } & CheckBody['body'];
  return { ok: true, check: { kind, body } as CheckBody, host: hostOfCheck(kind, body), adjusted };

  function parsed<S extends z.ZodType>(kind: CheckBody['kind'], schema: S, input: unknown): MappedCheck {
    const read = validate(schema, input);
    if (!read.success) return { ok: false, errors: read.errors };
    const body = read.data as Record<string, unknown>;
    return { ok: true, check: { kind, body } as CheckBody, host: hostOfCheck(kind, body), adjusted };
  }
}

/** The host a check reaches, as a website's URL names it (lowercase, no brackets, no final dot). */
function hostOfCheck(kind: MonitorKind, fields: Record<string, unknown>): string | null {
  if (kind === 'heartbeat') return null;
  const raw = kind === 'websocket' ? new URL(String(fields.url)).hostname : String(fields.host ?? '');
  return normalHost(raw);
}

export const normalHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

/**
 * What a check watches, as a key: two checks of one kind with one key are the same (a website that
 * has one is not given another). A heartbeat watches its job, known by its name; the others their
 * target (host and port, URL, record type, gRPC service), whatever was changed here since.
 */
export function targetKey(kind: MonitorKind, name: string, fields: Record<string, unknown>): string {
  // A heartbeat watches its job and an API flow its journey: known by their names.
  if (kind === 'heartbeat' || kind === 'api-flow' || kind === 'browser')
    return JSON.stringify([kind, name.trim().toLowerCase()]);
  // A crawl and a Lighthouse check watch the website itself.
  if (kind === 'crawl' || kind === 'lighthouse') return JSON.stringify([kind]);
  const text = (key: string) => (fields[key] === undefined ? null : String(fields[key]));
  return JSON.stringify([
    kind,
    kind === 'websocket' ? text('url') : normalHost(text('host') ?? ''),
    text('port'),
    text('recordType'),
    text('service'),
  ]);
}

/** The key of a monitor a website has already. */
export function storedTargetKey(monitor: MonitorDocument): string {
  if (monitor.kind === 'heartbeat') return targetKey('heartbeat', monitor.name, {});
  if (monitor.kind === 'dns' || monitor.kind === 'port')
    return targetKey(monitor.kind, monitor.name, { ...monitor });
  return targetKey(monitor.kind, monitor.name, monitor.settings);
}
