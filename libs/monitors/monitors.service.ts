import { isIP } from 'node:net';
import { invalidFields, validate } from '../contract/index.js';
import { type CustomerWithPackage, isMonitored } from '../customers/index.js';
import { conflict, DomainError, invalidInput, notAllowed, notFound } from '../errors/index.js';
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import type { RedisMutex } from '../locks/index.js';
import {
  inMaintenanceAt,
  type MonitorRef,
  type MonitorStateDocument,
  type MonitorStateRepository,
  monitorKey,
  type OtherResultItem,
  type PagedSource,
  UPTIME_PERIODS,
  type UptimePeriod,
  uptimeFigures,
} from '../monitoring/index.js';
import { type Feature, includesFeature, limitsOf, type PackageDocument } from '../packages/index.js';
import { type ProbeOptions, ProbeUnavailableError } from '../probe/index.js';
import type { Revisions } from '../redis/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import type { DueSet, Lane } from '../scheduler/index.js';
import type { SecretBox } from '../secrets/index.js';
import { refusalUnder, type TargetGuard } from '../targets/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { type HeartbeatTokens, newPingToken, pingTokenHash } from './heartbeat-pings.js';
import { type DnsCheckCreate, type DnsCheckUpdate, normalizeExpected } from './kinds/dns/dns.schema.js';
import type { HeartbeatCreate, HeartbeatUpdate } from './kinds/heartbeat/heartbeat.schema.js';
import { heartbeatAt, kindTerms, PROBE_KINDS, type ProbeKindName } from './kinds/index.js';
import type { PortCheckCreate, PortCheckUpdate } from './kinds/port/port.schema.js';
import {
  type DnsCheckDocument,
  type HeartbeatDocument,
  heartbeatTokenContext,
  type IntervalMonitor,
  type MonitorDocument,
  type MonitorKind,
  type MonitorRepository,
  type PortCheckDocument,
  type ProbeCheckDocument,
} from './monitor.repository.js';
import type { MonitorStatus } from './monitor-common.js';
import type { MonitorCreate } from './monitor-create.schema.js';
import { gather } from './monitor-gather.js';
import { monitorResultSource } from './monitor-results.js';
import type { MonitorSummaries } from './monitor-summaries.js';
import type { ProbeCheckCreate, ProbeCheckUpdate } from './probe-check.schema.js';
import {
  openedSettings,
  type SealedEntry,
  sealSettings,
  unknownSecretReferences,
} from './sealed-settings.js';

export interface MonitorDependencies {
  repository: MonitorRepository;
  /** The organization's website (not found: a `DomainError`). */
  website(organizationId: number, ref: string): Promise<WebsiteDocument>;
  owner(website: WebsiteDocument): Promise<CustomerWithPackage | null>;
  states: MonitorStateRepository;
  mutex: RedisMutex;
  secrets: SecretBox;
  tokens: HeartbeatTokens;
  /** Heartbeats' deadlines. */
  deadlines: DueSet;
  /** A region's interval checks' next runs, one due set per lane. */
  regionDue(region: string, lane: Lane): DueSet;
  guard: TargetGuard;
  summaries: MonitorSummaries;
  /** The ping URL of a token (`<PUBLIC_URL>/ping/<token>`). */
  pingUrl(token: string): string;
  /** What a check run from this process (`runNow`) goes through: the guard, the resolver, the roots. */
  probe: ProbeOptions;
  dnsResolvers: readonly string[];
  /** Each monitor's revision, bumped after every write to it: workers keep its configuration while it holds. */
  revisions: Revisions;
}

/** The port a probe kind's settings reach: their `port`, or their URL's (its scheme's default); none for ICMP. */
function portOf(settings: Record<string, unknown>): number | undefined {
  if (typeof settings.port === 'number') return settings.port;
  if (typeof settings.url !== 'string') return undefined;
  const url = new URL(settings.url);
  return url.port ? Number(url.port) : url.protocol === 'wss:' ? 443 : 80;
}

/** What a check run on request answered (`runNow`): not stored, not decided. */
export interface RunOutcome {
  kind: Exclude<MonitorKind, 'heartbeat'>;
  monitorId: number;
  startedAt: Date;
  status: 'up' | 'degraded' | 'down';
  cause: string | null;
  durationMs: number;
  address: string | null;
  timings: Record<string, number | null>;
  evidence: Record<string, unknown>;
}

/** Checks run on request at once in one API process, and waiting; past that 503 (a burst cannot turn the API into a scanner). */
const RUNS_AT_ONCE = 4;
/** A monitor's uptime reads at most this many of its newest results of the period (primary-key reads). */
export const UPTIME_RESULTS_READ = 1000;
const RUNS_WAITING = 8;

const terms = kindTerms;
const NOUN = MONITOR_KIND_NOUNS;
/** Kinds that share one limit are counted together (SMTP, IMAP and POP3 checks). */
const sameLimit = (a: MonitorKind, b: MonitorKind) => terms(a).limit === terms(b).limit;

export const refOf = (monitor: Pick<MonitorDocument, 'kind' | 'id'>): MonitorRef => ({
  kind: monitor.kind,
  id: monitor.id,
});

/** Where a monitor stands for people: paused while its website is not monitored, else its state. */
export function monitorStatusOf(
  state: MonitorStateDocument,
  website: Pick<WebsiteDocument, 'paused'>,
  owner: CustomerWithPackage | null,
  websiteState: MonitorStateDocument,
  feature: Feature,
  now: Date,
): { status: MonitorStatus; since: Date | null } {
  const paused =
    website.paused || !owner || !isMonitored(owner.customer.status) || !includesFeature(owner.pkg, feature);
  if (paused) return { status: 'paused', since: null };
  if (inMaintenanceAt(websiteState, now)) return { status: 'maintenance', since: null };
  const health = state.health === 'degraded' ? 'up' : state.health;
  return { status: health, since: state.since };
}

/**
 * The website's heartbeats, DNS and port checks: created, changed and deleted under the website's
 * `monitors:<id>` lock, within the package's features and limits, with what Redis must hold for
 * them (ping tokens, deadlines, the regions' runs) written before answering.
 */
export class MonitorService {
  private readonly runs = new ConcurrencyLimit(RUNS_AT_ONCE, {
    maxWaiting: RUNS_WAITING,
    resource: 'checks run on request',
  });

  constructor(private readonly deps: MonitorDependencies) {}

  /**
   * Runs a check now from this process, through the same guard and under its own timeout, and
   * answers what it found: a test of its settings. It is not stored and moves no status (a result
   * from outside the monitoring regions is not one of theirs); the regions check it on schedule.
   */
  async runNow(organizationId: number, id: number): Promise<RunOutcome> {
    const monitor = await this.getAny(organizationId, id);
    if (monitor.kind === 'heartbeat')
      throw conflict('A heartbeat is not run: it waits for its job’s pings (send one to its ping URL)');
    const website = await this.deps.website(organizationId, String(monitor.websiteId));
    const owner = await this.deps.owner(website);
    if (!owner) throw notFound(`No monitor ${id}`);
    const { feature } = terms(monitor.kind);
    if (!includesFeature(owner.pkg, feature))
      throw notAllowed(`The package "${owner.pkg.displayName}" does not include ${feature}`, [
        { path: '', message: `the package does not include ${feature}` },
      ]);
    const { probe, dnsResolvers, secrets } = this.deps;
    return this.runs.run(async () => {
      const gathered = await gather(monitor, owner.pkg, {
        probe,
        dnsResolvers,
        secrets,
        region: 'api',
      }).catch((error: unknown) => {
        if (error instanceof ProbeUnavailableError)
          throw new DomainError('internal', `This API host cannot run the check: ${error.message}`);
        throw error;
      });
      const { status, cause } = gathered.verdict;
      return {
        kind: monitor.kind,
        monitorId: monitor.id,
        startedAt: gathered.at,
        status,
        cause,
        ...gathered.seen,
      };
    });
  }

  /** The website and its package, refusing a kind the package does not include (403 naming it). */
  private async admitted(organizationId: number, ref: string, kind: MonitorKind) {
    const website = await this.deps.website(organizationId, ref);
    const owner = await this.deps.owner(website);
    if (!owner) throw notFound(`No website ${ref}`);
    const { feature } = terms(kind);
    if (!includesFeature(owner.pkg, feature))
      throw notAllowed(`The package "${owner.pkg.displayName}" does not include ${feature}`, [
        { path: '', message: `the package does not include ${feature}` },
      ]);
    return { website, pkg: owner.pkg };
  }

  private underLimit(pkg: PackageDocument, kind: MonitorKind, existing: readonly MonitorDocument[]): void {
    const limitName = terms(kind).limit;
    const limit = limitsOf(pkg)[limitName];
    if (existing.filter((monitor) => sameLimit(monitor.kind, kind)).length >= limit)
      throw conflict(
        `The website already has ${limit} ${NOUN[kind]}s, the most its package "${pkg.displayName}" allows (limits.${limitName}); delete one first`,
      );
  }

  /** An IP literal judged by the SSRF guard as each check will judge it: on the port it reaches (an exemption may name one). */
  private checkTarget(host: string, path = 'host', port?: number): void {
    const literal = host.replace(/^\[|\]$/g, '');
    if (!isIP(literal)) return;
    const refused = refusalUnder(this.deps.guard, literal, port);
    if (refused)
      throw invalidInput(`The host ${host} may not be checked: ${refused}`, [
        {
          path,
          message: `${refused}: private and reserved addresses are refused unless the operator allows them`,
        },
      ]);
  }

  private intervalWithin(pkg: PackageDocument, seconds: number | undefined): void {
    if (seconds !== undefined && seconds < pkg.limits.minCheckIntervalSeconds)
      throw notAllowed(
        `The package "${pkg.displayName}" checks at most every ${pkg.limits.minCheckIntervalSeconds} s`,
        [
          {
            path: 'intervalSeconds',
            message: `must be at least ${pkg.limits.minCheckIntervalSeconds} (the package's minimum)`,
          },
        ],
      );
  }

  /** The organization's website a monitor belongs to. */
  websiteOf(organizationId: number, websiteId: number): Promise<WebsiteDocument> {
    return this.deps.website(organizationId, String(websiteId));
  }

  async list(
    organizationId: number,
    ref: string,
  ): Promise<{ website: WebsiteDocument; monitors: MonitorDocument[] }> {
    const website = await this.deps.website(organizationId, ref);
    return { website, monitors: await this.deps.repository.listByWebsite(organizationId, website.id) };
  }

  /** A page of the results of the website's checked monitors: those of `kind`, or the one `monitorId`. */
  /**
   * The logs of the website's monitors with results (of `kind`, or the one `monitorId`), as sources
   * of its merged results page; a `monitorId` it has none of is a 404.
   */
  async resultSources(
    website: WebsiteDocument,
    filter: { kind?: string; monitorId?: number },
    window: { from?: Date | undefined; to?: Date | undefined },
  ): Promise<Array<PagedSource<OtherResultItem>>> {
    const monitors = (await this.deps.repository.listByWebsite(website.organizationId, website.id)).filter(
      (monitor): monitor is IntervalMonitor =>
        monitor.kind !== 'heartbeat' &&
        (filter.kind === undefined || monitor.kind === filter.kind) &&
        (filter.monitorId === undefined || monitor.id === filter.monitorId),
    );
    if (filter.monitorId !== undefined && monitors.length === 0)
      throw notFound(
        `No monitor ${filter.monitorId}${filter.kind ? ` of kind ${filter.kind}` : ''} with results on this website (a heartbeat's pings are at /api/heartbeats/{id}/pings)`,
      );
    return monitors.map((monitor) => monitorResultSource(this.deps.repository, monitor, window));
  }

  /**
   * A monitor's uptime over a period, as a website's: the share of time since it was added (or the
   * period's start) not inside one of its down incidents; its results (a heartbeat's pings) and
   * their response times from the newest `UPTIME_RESULTS_READ` of the period.
   */
  async uptime(organizationId: number, id: number, period: UptimePeriod) {
    const monitor = await this.getAny(organizationId, id);
    const now = new Date();
    const periodSeconds = UPTIME_PERIODS[period];
    const from = new Date(now.getTime() - periodSeconds * 1000);
    const [incidents, entries] = await Promise.all([
      this.deps.states.incidentsOfMonitorSince(organizationId, monitor.websiteId, refOf(monitor), from),
      this.deps.repository.readLog(monitor, UPTIME_RESULTS_READ, undefined, { from }),
    ]);
    const oldest = entries.at(-1);
    return uptimeFigures({
      now,
      periodSeconds,
      // Checked from its creation (its first result comes within an interval, or its first ping).
      firstResultAt: oldest ? new Date(Math.min(monitor.createdAt.getTime(), oldest.at.getTime())) : null,
      incidents: incidents.filter((incident) => (incident.resolvedAt ?? now) > from),
      responseTimesMs: entries.flatMap((entry) =>
        entry.result && entry.result.status !== 'down' ? [entry.result.durationMs] : [],
      ),
      checks: entries.length,
    });
  }

  /** The organization's monitor of whatever kind (not found: 404). */
  async getAny(organizationId: number, id: number): Promise<MonitorDocument> {
    const monitor = await this.deps.repository.findById(organizationId, id);
    if (!monitor) throw notFound(`No monitor ${id}`);
    return monitor;
  }

  async get(organizationId: number, kind: MonitorKind, id: number): Promise<MonitorDocument> {
    const monitor = await this.deps.repository.findById(organizationId, id);
    if (!monitor || monitor.kind !== kind) throw notFound(`No ${NOUN[kind]} ${id}`);
    return monitor;
  }

  /**
   * Makes a monitor of any kind from its create body (`{kind, …}`, parsed by the kind's schema):
   * through the same admission as each kind's own route (package feature and limit, the minimum
   * interval, the SSRF guard).
   */
  async create(organizationId: number, ref: string, body: MonitorCreate): Promise<MonitorDocument> {
    switch (body.kind) {
      case 'heartbeat': {
        const { kind: _kind, ...heartbeat } = body;
        return (await this.createHeartbeat(organizationId, ref, heartbeat)).heartbeat;
      }
      case 'dns': {
        const { kind: _kind, ...check } = body;
        return this.createDnsCheck(organizationId, ref, check);
      }
      case 'port': {
        const { kind: _kind, ...check } = body;
        return this.createPortCheck(organizationId, ref, check);
      }
      default: {
        const { kind, ...check } = body;
        return this.createProbeCheck(organizationId, ref, kind, check);
      }
    }
  }

  async createHeartbeat(
    organizationId: number,
    ref: string,
    body: HeartbeatCreate,
  ): Promise<{ heartbeat: HeartbeatDocument; token: string }> {
    const { website, pkg } = await this.admitted(organizationId, ref, 'heartbeat');
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      this.underLimit(pkg, 'heartbeat', await this.deps.repository.listByWebsite(organizationId, website.id));
      const token = newPingToken();
      const tokenHash = pingTokenHash(token);
      const heartbeat = await this.deps.repository.create<HeartbeatDocument>({
        kind: 'heartbeat',
        organizationId,
        websiteId: website.id,
        ...body,
        tokenHash,
        tokenSealed: this.deps.secrets.seal(token, heartbeatTokenContext(tokenHash)),
        lastSuccessAt: null,
        lastStartAt: null,
        lastFailureAt: null,
        quietSince: null,
      });
      await this.registerHeartbeat(heartbeat);
      return { heartbeat, token };
    });
  }

  /** The monitor in its website's summary (name and health), as lists of websites show it. */
  private async summarize(monitor: MonitorDocument): Promise<void> {
    const state = await this.deps.states.load(monitor.organizationId, monitor.websiteId, refOf(monitor));
    await this.deps.summaries.write(monitor.websiteId, {
      ...refOf(monitor),
      name: monitor.name,
      health: state.health,
    });
  }

  private async registerHeartbeat(heartbeat: HeartbeatDocument): Promise<void> {
    await this.summarize(heartbeat);
    const member = {
      kind: 'heartbeat',
      monitorId: heartbeat.id,
      organizationId: heartbeat.organizationId,
      websiteId: heartbeat.websiteId,
    };
    await this.deps.tokens.register(heartbeat.tokenHash, member);
    await this.deps.deadlines.schedule(member, heartbeatAt(heartbeat, new Date()).deadline);
  }

  async createDnsCheck(organizationId: number, ref: string, body: DnsCheckCreate): Promise<DnsCheckDocument> {
    const { website, pkg } = await this.admitted(organizationId, ref, 'dns');
    this.intervalWithin(pkg, body.intervalSeconds);
    const host = body.host ?? new URL(website.url).hostname.replace(/^\[|\]$/g, '');
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      this.underLimit(pkg, 'dns', await this.deps.repository.listByWebsite(organizationId, website.id));
      const check = await this.deps.repository.create<DnsCheckDocument>({
        kind: 'dns',
        organizationId,
        websiteId: website.id,
        name: body.name ?? `${body.recordType} ${host}`,
        recordType: body.recordType,
        host,
        expected: body.expected,
        intervalSeconds: body.intervalSeconds,
        timeoutSeconds: body.timeoutSeconds,
        relearnAfterSeconds: body.relearnAfterSeconds,
        learned: null,
        pendingChange: null,
      });
      await this.scheduleChecks(check, website);
      return check;
    });
  }

  async createPortCheck(
    organizationId: number,
    ref: string,
    body: PortCheckCreate,
  ): Promise<PortCheckDocument> {
    const { website, pkg } = await this.admitted(organizationId, ref, 'port');
    this.intervalWithin(pkg, body.intervalSeconds);
    const host = body.host ?? new URL(website.url).hostname.replace(/^\[|\]$/g, '');
    this.checkTarget(host, 'host', body.port);
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      this.underLimit(pkg, 'port', await this.deps.repository.listByWebsite(organizationId, website.id));
      const check = await this.deps.repository.create<PortCheckDocument>({
        kind: 'port',
        organizationId,
        websiteId: website.id,
        name: body.name ?? `${host}:${body.port}`,
        host,
        port: body.port,
        tls: body.tls,
        expectBanner: body.expectBanner,
        intervalSeconds: body.intervalSeconds,
        timeoutSeconds: body.timeoutSeconds,
      });
      await this.scheduleChecks(check, website);
      return check;
    });
  }

  /** A check of a probe kind (ICMP, UDP, gRPC, WebSocket, mail), its settings as its kind's schema took them. */
  async createProbeCheck(
    organizationId: number,
    ref: string,
    kind: ProbeKindName,
    body: ProbeCheckCreate,
  ): Promise<ProbeCheckDocument> {
    const { website, pkg } = await this.admitted(organizationId, ref, kind);
    this.intervalWithin(pkg, body.intervalSeconds);
    const { name, intervalSeconds, timeoutSeconds, ...given } = body;
    const { settings, sealed } = this.completed(kind, given, given, [], website);
    this.timeoutFits(kind, settings, timeoutSeconds);
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      this.underLimit(pkg, kind, await this.deps.repository.listByWebsite(organizationId, website.id));
      const check = await this.deps.repository.create<ProbeCheckDocument>({
        kind,
        organizationId,
        websiteId: website.id,
        name: name ?? PROBE_KINDS[kind].defaultName(settings),
        settings,
        ...(sealed.length > 0 ? { sealed } : {}),
        intervalSeconds,
        timeoutSeconds,
      });
      await this.scheduleChecks(check, website);
      return check;
    });
  }

  /**
   * A probe kind's settings as stored: parsed by its schema (a field it does not know is a 400
   * naming it), the host defaulted to the website's, an IP literal judged by the SSRF guard, its
   * credentials sealed (`sent`: what the request named; `stored`: the credentials sealed before).
   */
  private completed(
    kind: ProbeKindName,
    given: Record<string, unknown>,
    sent: Record<string, unknown>,
    stored: readonly SealedEntry[],
    website: WebsiteDocument,
  ): { settings: Record<string, unknown>; sealed: SealedEntry[] } {
    const definition = PROBE_KINDS[kind];
    const parsed = validate(definition.settings, given);
    if (!parsed.success) throw invalidFields('body', parsed.errors);
    const settings: Record<string, unknown> = { ...parsed.data };
    if ('host' in definition.fields && settings.host === undefined)
      settings.host = new URL(website.url).hostname.replace(/^\[|\]$/g, '');
    const host = definition.hostOf(settings);
    if (host !== null) this.checkTarget(host, 'url' in definition.fields ? 'url' : 'host', portOf(settings));
    const sealedSettings = sealSettings(definition, settings, sent, stored, this.deps.secrets);
    const unknown = unknownSecretReferences(definition, sealedSettings.settings, sealedSettings.sealed);
    if (unknown.length > 0) throw invalidFields('body', unknown);
    return sealedSettings;
  }

  /** A timeout its settings cannot finish within (ICMP's echo requests) would read as down every time. */
  private timeoutFits(kind: ProbeKindName, settings: Record<string, unknown>, timeoutSeconds: number): void {
    const needed = PROBE_KINDS[kind].minTimeoutMs?.(settings) ?? 0;
    if (timeoutSeconds * 1000 < needed)
      throw invalidInput(`A ${NOUN[kind]} with these settings takes up to ${needed / 1000} s`, [
        {
          path: 'timeoutSeconds',
          message: `must be at least ${Math.ceil(needed / 1000)} for these settings (or ask for fewer echo requests)`,
        },
      ]);
  }

  /** A probe check's settings with its credentials opened, as a check runs with them. */
  openedSettings(check: ProbeCheckDocument): Record<string, unknown> {
    return openedSettings(PROBE_KINDS[check.kind], check.settings, check.sealed ?? [], this.deps.secrets);
  }

  /** An interval check runs at once in each region its website is checked from, then every interval. */
  private async scheduleChecks(check: IntervalMonitor, website: WebsiteDocument): Promise<void> {
    const member = {
      kind: check.kind,
      monitorId: check.id,
      organizationId: check.organizationId,
      websiteId: check.websiteId,
    };
    for (const region of website.scheduledRegions)
      await this.deps.regionDue(region, terms(check.kind).lane).schedule(member, Date.now());
  }

  async update(
    organizationId: number,
    kind: MonitorKind,
    id: number,
    body: HeartbeatUpdate | DnsCheckUpdate | PortCheckUpdate | ProbeCheckUpdate,
  ): Promise<MonitorDocument> {
    const current = await this.get(organizationId, kind, id);
    const { website, pkg } = await this.admitted(organizationId, String(current.websiteId), kind);
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      const stored = await this.get(organizationId, kind, id);
      let next: MonitorDocument;
      if (stored.kind === 'dns') {
        const change = body as DnsCheckUpdate;
        this.intervalWithin(pkg, change.intervalSeconds);
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
        this.intervalWithin(pkg, change.intervalSeconds);
        if (change.host !== undefined || change.port !== undefined)
          this.checkTarget(change.host ?? stored.host, 'host', change.port ?? stored.port);
        next = { ...stored, ...change } as PortCheckDocument;
      } else if (stored.kind !== 'heartbeat') {
        const { name, intervalSeconds, timeoutSeconds, ...given } = body as ProbeCheckUpdate;
        this.intervalWithin(pkg, intervalSeconds);
        const { settings, sealed } = this.completed(
          stored.kind,
          { ...stored.settings, ...given },
          given,
          stored.sealed ?? [],
          website,
        );
        this.timeoutFits(stored.kind, settings, timeoutSeconds ?? stored.timeoutSeconds);
        next = {
          ...stored,
          ...(name !== undefined ? { name } : {}),
          ...(intervalSeconds !== undefined ? { intervalSeconds } : {}),
          ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
          settings,
          sealed,
        };
      } else next = { ...stored, ...(body as HeartbeatUpdate) } as HeartbeatDocument;
      const written = await this.deps.repository.replace(next);
      await this.deps.revisions.bump(written.id);
      if (written.kind === 'heartbeat') await this.registerHeartbeat(written);
      else await this.scheduleChecks(written, website);
      return written;
    });
  }

  async remove(organizationId: number, kind: MonitorKind, id: number): Promise<void> {
    const monitor = await this.get(organizationId, kind, id);
    await this.deps.mutex.withLock(`monitors:${monitor.websiteId}`, async () => {
      await this.deps.repository.delete(monitor);
      await this.deps.revisions.bump(monitor.id);
      await this.forgetInRedis(monitor);
      await this.deps.summaries.remove(monitor.websiteId, monitor);
      await this.deps.states.forgetMonitor(monitor.websiteId, refOf(monitor));
    });
  }

  /** What Redis holds for a monitor (its token, deadline, regions' runs). */
  async forgetInRedis(monitor: MonitorDocument, regions: readonly string[] = []): Promise<void> {
    const member = {
      kind: monitor.kind,
      monitorId: monitor.id,
      organizationId: monitor.organizationId,
      websiteId: monitor.websiteId,
    };
    if (monitor.kind === 'heartbeat') {
      await this.deps.tokens.forget(monitor.tokenHash);
      await this.deps.deadlines.remove(member);
      return;
    }
    const website = await this.deps
      .website(monitor.organizationId, String(monitor.websiteId))
      .catch(() => null);
    for (const region of new Set([...regions, ...(website?.scheduledRegions ?? [])]))
      await this.deps.regionDue(region, terms(monitor.kind).lane).remove(member);
  }

  /** A DNS check's changed answer, acknowledged: learned now (the next check is up). */
  async acceptDnsChange(organizationId: number, id: number): Promise<DnsCheckDocument> {
    const check = (await this.get(organizationId, 'dns', id)) as DnsCheckDocument;
    return this.deps.mutex.withLock(`monitors:${check.websiteId}`, async () => {
      const stored = (await this.get(organizationId, 'dns', id)) as DnsCheckDocument;
      if (!stored.pendingChange) throw conflict('The DNS answer has not changed: there is nothing to accept');
      const written = await this.deps.repository.replace({
        ...stored,
        learned: { values: stored.pendingChange.current, at: new Date() },
        pendingChange: null,
      });
      await this.deps.revisions.bump(written.id);
      const website = await this.deps.website(organizationId, String(stored.websiteId));
      await this.scheduleChecks(written, website);
      return written;
    });
  }

  /** The ping URL of a heartbeat, for callers who may see it (editors). */
  pingUrlOf(heartbeat: HeartbeatDocument): string {
    return this.deps.pingUrl(
      this.deps.secrets.open(heartbeat.tokenSealed, heartbeatTokenContext(heartbeat.tokenHash)),
    );
  }

  /** The monitors' states and where they stand, for their views. */
  async standings(
    website: WebsiteDocument,
    monitors: readonly MonitorDocument[],
  ): Promise<Map<number, { state: MonitorStateDocument; status: MonitorStatus; since: Date | null }>> {
    const [states, owner, websiteState] = await Promise.all([
      this.deps.states.monitorStates(website.organizationId, website.id, monitors.map(refOf)),
      this.deps.owner(website),
      this.deps.states.load(website.organizationId, website.id),
    ]);
    const now = new Date();
    return new Map(
      monitors.map((monitor) => {
        const state = states.get(monitorKey(website.id, refOf(monitor))) as MonitorStateDocument;
        return [
          monitor.id,
          {
            state,
            ...monitorStatusOf(state, website, owner, websiteState, terms(monitor.kind).feature, now),
          },
        ];
      }),
    );
  }
}
