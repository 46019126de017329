import { isIP } from 'node:net';
import { invalidFields, validate } from '../contract/index.js';
import { conflict, invalidInput, notAllowed } from '../errors/index.js';
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import { limitsOf, type PackageDocument } from '../packages/index.js';
import type { SecretBox } from '../secrets/index.js';
import { refusalUnder, type TargetGuard } from '../targets/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { type DnsCheckUpdate, normalizeExpected } from './kinds/dns/dns.schema.js';
import type { HeartbeatUpdate } from './kinds/heartbeat/heartbeat.schema.js';
import { kindTerms, PROBE_KINDS, type ProbeKindName } from './kinds/index.js';
import type { PortCheckUpdate } from './kinds/port/port.schema.js';
import type {
  DnsCheckDocument,
  HeartbeatDocument,
  MonitorDocument,
  MonitorKind,
  PortCheckDocument,
} from './monitor.repository.js';
import type { ProbeCheckUpdate } from './probe-check.schema.js';
import { type SealedEntry, sealSettings, unknownSecretReferences } from './sealed-settings.js';

/* What a monitor may be, decided without I/O: within its package's limits and interval, its target past the SSRF guard, its settings as its kind's schema takes them (credentials sealed). */

const terms = kindTerms;
const NOUN = MONITOR_KIND_NOUNS;
/** A probe check's interval and timeout when neither its body nor its kind gives them. */
const DEFAULT_INTERVAL_SECONDS = 300;
const DEFAULT_TIMEOUT_SECONDS = 10;

/** The port a probe kind's settings reach: their `port`, or their URL's (its scheme's default); none for ICMP. */
function portOf(settings: Record<string, unknown>): number | undefined {
  if (typeof settings.port === 'number') return settings.port;
  if (typeof settings.url !== 'string') return undefined;
  const url = new URL(settings.url);
  return url.port ? Number(url.port) : url.protocol === 'wss:' ? 443 : 80;
}

/** Kinds that share one limit are counted together (SMTP, IMAP and POP3 checks). */
const sameLimit = (a: MonitorKind, b: MonitorKind) => terms(a).limit === terms(b).limit;

export function underLimit(
  pkg: PackageDocument,
  kind: MonitorKind,
  existing: readonly MonitorDocument[],
): void {
  const limitName = terms(kind).limit;
  const limit = limitsOf(pkg)[limitName];
  if (existing.filter((monitor) => sameLimit(monitor.kind, kind)).length >= limit)
    throw conflict(
      `The website already has ${limit} ${NOUN[kind]}s, the most its package "${pkg.displayName}" allows (limits.${limitName}); delete one first`,
    );
}

/** An IP literal judged by the SSRF guard as each check will judge it: on the port it reaches (an exemption may name one). */
export function checkTarget(guard: TargetGuard, host: string, path = 'host', port?: number): void {
  const literal = host.replace(/^\[|\]$/g, '');
  if (!isIP(literal)) return;
  const refused = refusalUnder(guard, literal, port);
  if (refused)
    throw invalidInput(`The host ${host} may not be checked: ${refused}`, [
      {
        path,
        message: `${refused}: private and reserved addresses are refused unless the operator allows them`,
      },
    ]);
}

/** The shortest interval the package allows a check of `kind`: its own for kinds that have one (browser journeys). */
function minimumInterval(pkg: PackageDocument, kind?: ProbeKindName): number {
  const own = kind ? PROBE_KINDS[kind].minIntervalSeconds?.({ ...pkg, limits: limitsOf(pkg) }) : undefined;
  return Math.max(pkg.limits.minCheckIntervalSeconds, own ?? 0);
}

export function intervalWithin(
  pkg: PackageDocument,
  seconds: number | undefined,
  kind?: ProbeKindName,
): void {
  const minimum = minimumInterval(pkg, kind);
  if (seconds !== undefined && seconds < minimum)
    throw notAllowed(
      `The package "${pkg.displayName}" checks ${kind ? `a ${NOUN[kind]} ` : ''}at most every ${minimum} s`,
      [{ path: 'intervalSeconds', message: `must be at least ${minimum} (the package's minimum)` }],
    );
}

/**
 * A probe kind's settings as stored: parsed by its schema (a field it does not know is a 400
 * naming it), the host defaulted to the website's, an IP literal judged by the SSRF guard, its
 * credentials sealed (`sent`: what the request named; `stored`: the credentials sealed before).
 */
export function completedSettings(
  kind: ProbeKindName,
  given: Record<string, unknown>,
  sent: Record<string, unknown>,
  stored: readonly SealedEntry[],
  website: WebsiteDocument,
  tools: { guard: TargetGuard; secrets: SecretBox },
): { settings: Record<string, unknown>; sealed: SealedEntry[] } {
  const definition = PROBE_KINDS[kind];
  const parsed = validate(definition.settings, given);
  if (!parsed.success) throw invalidFields('body', parsed.errors);
  const settings: Record<string, unknown> = definition.fromWebsite?.(parsed.data, website.url) ?? {
    ...parsed.data,
  };
  if ('host' in definition.fields && settings.host === undefined)
    settings.host = new URL(website.url).hostname.replace(/^\[|\]$/g, '');
  const host = definition.hostOf(settings);
  const targets =
    definition.targetsOf?.(settings) ??
    (host === null
      ? []
      : [{ host, port: portOf(settings), path: 'url' in definition.fields ? 'url' : 'host' }]);
  for (const target of targets) checkTarget(tools.guard, target.host, target.path, target.port);
  const sealedSettings = sealSettings(definition, settings, sent, stored, tools.secrets);
  const unknown = unknownSecretReferences(definition, sealedSettings.settings, sealedSettings.sealed);
  if (unknown.length > 0) throw invalidFields('body', unknown);
  return sealedSettings;
}

/** What the package bounds in a kind's settings (an API flow's steps): refused, each field named. */
export function settingsWithinPackage(
  pkg: PackageDocument,
  kind: ProbeKindName,
  settings: Record<string, unknown>,
): void {
  const problems = PROBE_KINDS[kind].packageProblems?.(settings, { ...pkg, limits: limitsOf(pkg) }) ?? [];
  if (problems.length > 0)
    throw notAllowed(
      `The package "${pkg.displayName}" does not allow this ${NOUN[kind]}: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      problems,
    );
}

/**
 * A check's interval and timeout: those its schedule sets (a crawl's), else those sent, else its
 * kind's defaults (a create's body has them filled in; a change keeps what is stored).
 */
export function timingsOf(
  kind: ProbeKindName,
  settings: Record<string, unknown>,
  given: { intervalSeconds?: number | undefined; timeoutSeconds?: number | undefined },
  stored?: { intervalSeconds: number; timeoutSeconds: number },
): { intervalSeconds: number; timeoutSeconds: number } {
  const { cadence, defaults } = PROBE_KINDS[kind];
  if (cadence)
    return {
      intervalSeconds: cadence.intervalSeconds(settings),
      timeoutSeconds: cadence.timeoutSeconds(settings),
    };
  return {
    intervalSeconds:
      given.intervalSeconds ??
      stored?.intervalSeconds ??
      defaults?.intervalSeconds ??
      DEFAULT_INTERVAL_SECONDS,
    timeoutSeconds:
      given.timeoutSeconds ?? stored?.timeoutSeconds ?? defaults?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
}

/** A timeout its settings cannot finish within (ICMP's echo requests) would read as down every time. */
export function timeoutFits(
  kind: ProbeKindName,
  settings: Record<string, unknown>,
  timeoutSeconds: number,
): void {
  const needed = PROBE_KINDS[kind].minTimeoutMs?.(settings) ?? 0;
  if (timeoutSeconds * 1000 < needed)
    throw invalidInput(`A ${NOUN[kind]} with these settings takes up to ${needed / 1000} s`, [
      {
        path: 'timeoutSeconds',
        message: `must be at least ${Math.ceil(needed / 1000)} for these settings (or ask for fewer echo requests)`,
      },
    ]);
}

/**
 * The monitor a change makes of `stored`, held to the rules of its creation (the package's interval,
 * the SSRF guard, its kind's schema); a DNS check asked another question forgets its answer.
 */
export function changedMonitor(
  stored: MonitorDocument,
  body: HeartbeatUpdate | DnsCheckUpdate | PortCheckUpdate | ProbeCheckUpdate,
  pkg: PackageDocument,
  website: WebsiteDocument,
  tools: { guard: TargetGuard; secrets: SecretBox },
): MonitorDocument {
  let next: MonitorDocument;
  if (stored.kind === 'dns') {
    const change = body as DnsCheckUpdate;
    intervalWithin(pkg, change.intervalSeconds);
    const recordType = change.recordType ?? stored.recordType;
    let expected = change.expected ?? stored.expected;
    if (Array.isArray(expected)) {
      const normalized = normalizeExpected(recordType, expected);
      if (normalized.problems.length > 0)
        throw invalidInput(
          `Invalid DNS check: ${normalized.problems.map((p) => p.path).join(', ')}`,
          normalized.problems,
        );
      expected = normalized.values;
    }
    // A different question forgets the answer learned for the old one.
    const asked =
      recordType !== stored.recordType || (change.host !== undefined && change.host !== stored.host);
    next = {
      ...stored,
      ...change,
      expected,
      ...(asked || change.expected !== undefined ? { learned: null, pendingChange: null } : {}),
    } as DnsCheckDocument;
  } else if (stored.kind === 'port') {
    const change = body as PortCheckUpdate;
    intervalWithin(pkg, change.intervalSeconds);
    if (change.host !== undefined || change.port !== undefined)
      checkTarget(tools.guard, change.host ?? stored.host, 'host', change.port ?? stored.port);
    next = { ...stored, ...change } as PortCheckDocument;
  } else if (stored.kind !== 'heartbeat') {
    const {
      name,
      intervalSeconds: sentInterval,
      timeoutSeconds: sentTimeout,
      ...given
    } = body as ProbeCheckUpdate;
    if (PROBE_KINDS[stored.kind].cadence && (sentInterval !== undefined || sentTimeout !== undefined))
      throw invalidInput(`A ${NOUN[stored.kind]}'s interval and timeout are set by its schedule`, [
        {
          path: sentInterval !== undefined ? 'intervalSeconds' : 'timeoutSeconds',
          message: 'is set by `schedule` for this kind: send schedule instead',
        },
      ]);
    intervalWithin(pkg, sentInterval, stored.kind);
    const { settings, sealed } = completedSettings(
      stored.kind,
      { ...stored.settings, ...given },
      given,
      stored.sealed ?? [],
      website,
      tools,
    );
    const { intervalSeconds, timeoutSeconds } = timingsOf(
      stored.kind,
      settings,
      { intervalSeconds: sentInterval, timeoutSeconds: sentTimeout },
      stored,
    );
    timeoutFits(stored.kind, settings, timeoutSeconds);
    settingsWithinPackage(pkg, stored.kind, settings);
    next = {
      ...stored,
      ...(name !== undefined ? { name } : {}),
      intervalSeconds,
      timeoutSeconds,
      settings,
      sealed,
    };
  } else next = { ...stored, ...(body as HeartbeatUpdate) } as HeartbeatDocument;
  return next;
}
