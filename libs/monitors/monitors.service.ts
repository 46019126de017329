import type { CustomerWithPackage } from '../customers/index.js';
import { conflict, notAllowed, notFound } from '../errors/index.js';
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import type {
  MonitorStateDocument,
  OtherResultItem,
  PagedSource,
  UptimePeriod,
} from '../monitoring/index.js';
import { includesFeature } from '../packages/index.js';
import type { ProbeOptions } from '../probe/index.js';
import type { Revisions } from '../redis/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { SiteRunBoard, SiteRunView } from '../site-health/index.js';
import type { TargetGuard } from '../targets/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { newPingToken, pingTokenHash } from './heartbeat-pings.js';
import type { DnsCheckCreate, DnsCheckUpdate } from './kinds/dns/dns.schema.js';
import type { HeartbeatCreate, HeartbeatUpdate } from './kinds/heartbeat/heartbeat.schema.js';
import { type JourneyRunning, kindTerms, PROBE_KINDS, type ProbeKindName } from './kinds/index.js';
import type { PortCheckCreate, PortCheckUpdate } from './kinds/port/port.schema.js';
import {
  type DnsCheckDocument,
  type HeartbeatDocument,
  heartbeatTokenContext,
  type MonitorDocument,
  type MonitorKind,
  type MonitorRepository,
  type PortCheckDocument,
  type ProbeCheckDocument,
} from './monitor.repository.js';
import {
  changedMonitor,
  checkTarget,
  completedSettings,
  intervalWithin,
  settingsWithinPackage,
  timeoutFits,
  timingsOf,
  underLimit,
} from './monitor-admission.js';
import type { MonitorStatus } from './monitor-common.js';
import type { MonitorCreate } from './monitor-create.schema.js';
import { monitorUptime, refOf, resultSourcesOf, standingsOf } from './monitor-readings.js';
import {
  forgetInRedis,
  type MonitorRedisPorts,
  registerHeartbeat,
  scheduleChecks,
} from './monitor-redis-entries.js';
import { type RunOutcome, trialRun } from './monitor-trial-run.js';
import type { ProbeCheckCreate, ProbeCheckUpdate } from './probe-check.schema.js';
import type { RunArtifacts } from './run-artifacts.js';
import { openedSettings } from './sealed-settings.js';
import { isSiteRunKind, requestSiteRun } from './site-run-requests.js';

export interface MonitorDependencies extends MonitorRedisPorts {
  repository: MonitorRepository;
  owner(website: WebsiteDocument): Promise<CustomerWithPackage | null>;
  mutex: RedisMutex;
  secrets: SecretBox;
  guard: TargetGuard;
  /** The ping URL of a token (`<PUBLIC_URL>/ping/<token>`). */
  pingUrl(token: string): string;
  /** What a check run from this process (`runNow`) goes through: the guard, the resolver, the roots. */
  probe: ProbeOptions;
  dnsResolvers: readonly string[];
  /** Each monitor's revision, bumped after every write to it: workers keep its configuration while it holds. */
  revisions: Revisions;
  /** The process's browser for a journey run on request (none: such a run answers that it cannot run here). */
  journeys?: JourneyRunning | undefined;
  /** Where a run on request keeps its files (a journey's screenshots and trace), for a day. */
  artifacts?: Pick<RunArtifacts, 'store'> | undefined;
  /** Site-health runs asked for and their progress (none: crawls and Lighthouse cannot be run on request). */
  siteRuns?: Pick<SiteRunBoard, 'request' | 'countedOn' | 'view'> | undefined;
  /** A removed monitor's findings and scores. */
  siteData?: { forget(owner: { organizationId: number; monitorId: number }): Promise<void> } | undefined;
  logger: Logger;
}

/** Checks run on request at once in one API process, and waiting; past that 503 (a burst cannot turn the API into a scanner). */
const RUNS_AT_ONCE = 4;
const RUNS_WAITING = 8;

const terms = kindTerms;
const NOUN = MONITOR_KIND_NOUNS;

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
    if (isSiteRunKind(monitor.kind))
      throw conflict(`A ${NOUN[monitor.kind]} takes minutes: it is queued (startSiteRun), not run here`);
    const website = await this.deps.website(organizationId, String(monitor.websiteId));
    const owner = await this.deps.owner(website);
    if (!owner) throw notFound(`No monitor ${id}`);
    const { feature } = terms(monitor.kind);
    if (!includesFeature(owner.pkg, feature))
      throw notAllowed(`The package "${owner.pkg.displayName}" does not include ${feature}`, [
        { path: '', message: `the package does not include ${feature}` },
      ]);
    return this.runs.run(() => trialRun(monitor, owner.pkg, this.deps));
  }

  /**
   * Starts a crawl or Lighthouse run now (`requestSiteRun`): queued for its region's workers, its
   * progress at `siteRun`. A monitor of another kind: 409 (it is run at once by `runNow`).
   */
  async startSiteRun(organizationId: number, id: number): Promise<SiteRunView> {
    const monitor = await this.getAny(organizationId, id);
    if (monitor.kind === 'heartbeat' || !isSiteRunKind(monitor.kind))
      throw conflict(`A ${NOUN[monitor.kind]} is run at once, not queued`);
    const { siteRuns } = this.deps;
    if (!siteRuns) throw conflict('Site-health runs cannot be asked for from this process');
    const { website, pkg } = await this.admitted(organizationId, String(monitor.websiteId), monitor.kind);
    return requestSiteRun({ regionDue: this.deps.regionDue, siteRuns }, monitor, website, pkg);
  }

  /** A site-health run of the monitor: queued, running or ended (unknown or expired: 404). */
  async siteRun(organizationId: number, id: number, runId: string): Promise<SiteRunView> {
    const monitor = await this.getAny(organizationId, id);
    const run = await this.deps.siteRuns?.view(monitor.id, runId);
    if (!run) throw notFound(`No run ${runId} of monitor ${id} (runs are kept a day)`);
    return run;
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
  resultSources(
    website: WebsiteDocument,
    filter: { kind?: string; monitorId?: number },
    window: { from?: Date | undefined; to?: Date | undefined },
  ): Promise<Array<PagedSource<OtherResultItem>>> {
    return resultSourcesOf(this.deps.repository, website, filter, window);
  }

  /** A monitor's uptime over a period, as a website's (`monitorUptime`). */
  async uptime(organizationId: number, id: number, period: UptimePeriod) {
    return monitorUptime(this.deps, organizationId, await this.getAny(organizationId, id), period);
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
      underLimit(pkg, 'heartbeat', await this.deps.repository.listByWebsite(organizationId, website.id));
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
      await registerHeartbeat(this.deps, heartbeat);
      return { heartbeat, token };
    });
  }

  async createDnsCheck(organizationId: number, ref: string, body: DnsCheckCreate): Promise<DnsCheckDocument> {
    const { website, pkg } = await this.admitted(organizationId, ref, 'dns');
    intervalWithin(pkg, body.intervalSeconds);
    const host = body.host ?? new URL(website.url).hostname.replace(/^\[|\]$/g, '');
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      underLimit(pkg, 'dns', await this.deps.repository.listByWebsite(organizationId, website.id));
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
      await scheduleChecks(this.deps, check, website);
      return check;
    });
  }

  async createPortCheck(
    organizationId: number,
    ref: string,
    body: PortCheckCreate,
  ): Promise<PortCheckDocument> {
    const { website, pkg } = await this.admitted(organizationId, ref, 'port');
    intervalWithin(pkg, body.intervalSeconds);
    const host = body.host ?? new URL(website.url).hostname.replace(/^\[|\]$/g, '');
    checkTarget(this.deps.guard, host, 'host', body.port);
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      underLimit(pkg, 'port', await this.deps.repository.listByWebsite(organizationId, website.id));
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
      await scheduleChecks(this.deps, check, website);
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
    intervalWithin(pkg, body.intervalSeconds, kind);
    const { name, intervalSeconds: _interval, timeoutSeconds: _timeout, ...given } = body;
    const { settings, sealed } = completedSettings(kind, given, given, [], website, this.deps);
    const { intervalSeconds, timeoutSeconds } = timingsOf(kind, settings, body);
    timeoutFits(kind, settings, timeoutSeconds);
    settingsWithinPackage(pkg, kind, settings);
    return this.deps.mutex.withLock(`monitors:${website.id}`, async () => {
      underLimit(pkg, kind, await this.deps.repository.listByWebsite(organizationId, website.id));
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
      await scheduleChecks(this.deps, check, website);
      return check;
    });
  }

  /** A probe check's settings with its credentials opened, as a check runs with them. */
  openedSettings(check: ProbeCheckDocument): Record<string, unknown> {
    return openedSettings(PROBE_KINDS[check.kind], check.settings, check.sealed ?? [], this.deps.secrets);
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
      const next = changedMonitor(stored, body, pkg, website, this.deps);
      const written = await this.deps.repository.replace(next);
      await this.deps.revisions.bump(written.id);
      if (written.kind === 'heartbeat') await registerHeartbeat(this.deps, written);
      else await scheduleChecks(this.deps, written, website);
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
      await this.deps.siteData?.forget({ organizationId, monitorId: monitor.id });
    });
  }

  /** What Redis holds for a monitor (its token, deadline, regions' runs). */
  async forgetInRedis(monitor: MonitorDocument, regions: readonly string[] = []): Promise<void> {
    await forgetInRedis(this.deps, monitor, regions);
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
      await scheduleChecks(this.deps, written, website);
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
  standings(
    website: WebsiteDocument,
    monitors: readonly MonitorDocument[],
  ): Promise<Map<number, { state: MonitorStateDocument; status: MonitorStatus; since: Date | null }>> {
    return standingsOf(this.deps, website, monitors);
  }
}
