import type { Registry } from 'prom-client';
import type { AppConfig } from '../../libs/config/index.js';
import {
  type CustomerWithPackage,
  loadCustomerWithPackage,
  startCustomerLifecycleWorker,
} from '../../libs/customers/index.js';
import { BatchInserter, LastReadCache, watchMongoHealth } from '../../libs/db/index.js';
import { createDomainExpiryLookup } from '../../libs/domains/index.js';
import { errorMessage } from '../../libs/errors/index.js';
import { createMetricsRegistry, startOpsServer } from '../../libs/http/ops.js';
import { JourneyBrowser } from '../../libs/journeys/index.js';
import { runLighthouse } from '../../libs/lighthouse/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { MaintenanceSync, startMaintenanceWorker } from '../../libs/maintenance/index.js';
import {
  CHECK_PATH_MONGO_TIMEOUT_MS,
  CheckFeed,
  CheckRunner,
  isRecordRetryable,
  type PendingRecord,
  PendingRecords,
  RedisEvidenceBodyGate,
  RollupRecorder,
  websiteChecks,
  workerMetrics,
} from '../../libs/monitoring/index.js';
import {
  HeartbeatTokens,
  isKeptMonitorEntry,
  type KeptMonitorEntry,
  MonitorRepository,
  MonitorRunner,
  MonitorSummaries,
  monitorRevisions,
  RunArtifacts,
  RunTallies,
  RunTallyRecorder,
  startMonitorWorker,
} from '../../libs/monitors/index.js';
import { nodeAddress, startHeartbeat } from '../../libs/nodes/index.js';
import { type ProbeOptions, probeOptionsFrom } from '../../libs/probe/index.js';
import { pingRedis, watchRedisData } from '../../libs/redis/index.js';
import { type RunningService, SERVICE_VERSION } from '../../libs/runtime/index.js';
import {
  type DueMember,
  DueSet,
  heartbeatDeadlinesKey,
  INTERVAL_LANES,
  type IntervalLane,
  regionDueKey,
  startDueLanes,
} from '../../libs/scheduler/index.js';
import { openConnections } from '../../libs/services/index.js';
import {
  LighthouseHistory,
  SiteFindings,
  SiteHealthRecorder,
  SiteHealthSummaries,
  SiteRunBoard,
} from '../../libs/site-health/index.js';
import { startFleetWatcher, WebsiteCache, type WebsiteDocument } from '../../libs/websites/index.js';
import { droppedChecksLog, warmedUp } from './check-start.js';
import { composeWorker } from './compose.js';
import { startHousekeeping } from './housekeeping.js';

const RECONCILE_EVERY_MS = 5 * 60_000;
/** Customer and package change rarely: a check may see such a change up to this late. */
const OWNER_CACHE_MS = 15_000;
/** How long a dead worker's DNS, port and probe checks stay taken (their timeouts reach 60 s). */
const MONITOR_LEASE_MS = 90_000;

export interface WorkerOptions {
  signal?: AbortSignal;
  heartbeatIntervalMs?: number;
  /** Overrides for tests that run targets on loopback names (the probe's edge to the network). */
  probe?: Partial<ProbeOptions>;
  lockDurationMs?: number;
  /** How often rollups are written (tests shorten it). */
  rollupFlushMs?: number;
  /** Node's process metrics too (off where several services share one process, as in tests). */
  defaultMetrics?: boolean;
}

function probeOptions(config: AppConfig, overrides: Partial<ProbeOptions> = {}): ProbeOptions {
  return {
    ...probeOptionsFrom({
      allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
      exemptAddresses: config.PROBE_EXEMPT_ADDRESSES,
      extraCaFile: config.PROBE_EXTRA_CA_FILE,
      version: SERVICE_VERSION,
    }),
    ...overrides,
  };
}

/**
 * A monitoring node: registers itself and heartbeats, runs the checks of its region's queue, stores
 * results and status changes, runs the customer lifecycle and maintenance boundary jobs, and cleans
 * up expired results.
 */
export async function startWorker(
  config: AppConfig,
  logger: Logger,
  options: WorkerOptions = {},
): Promise<RunningService & { metrics: Registry }> {
  const ip = nodeAddress(config.NODE_PUBLIC_IP);
  if (!ip)
    throw new Error(
      'NODE_PUBLIC_IP: not set and no external IPv4 address found; set it to the address targets see',
    );
  if (!config.NODE_PUBLIC_IP)
    logger.warn({ ip }, 'NODE_PUBLIC_IP not set: publishing the first external IPv4 address');
  const probe = probeOptions(config, options.probe);
  const { signal } = options;
  const connections = await openConnections({ name: 'worker', config, logger, jobs: true, signal });
  const { mongo, redis, blocking } = connections;
  const services = composeWorker({ db: mongo.db, redis, config, logger });
  const { results, states } = services;
  const mongoHealth = watchMongoHealth(mongo, { logger });
  // Many concurrent checks share one insertMany; a check completes once its result is stored.
  const writer = new BatchInserter(results.collection, {
    timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
    onAnswered: () => mongoHealth.answered(),
  });
  const maintenance = new MaintenanceSync({
    windows: services.maintenanceWindows,
    websites: services.websiteRepository,
    states,
    transitions: services.transitions,
    results,
    mutex: services.mutex,
    queue: services.maintenanceQueue,
    logger,
  });

  // Registered first: its region serves from now on, so the reconcile below schedules its websites.
  const heartbeat = await startHeartbeat({
    nodes: services.nodes,
    node: { nodeId: config.NODE_ID, ip, region: config.NODE_REGION, version: SERVICE_VERSION },
    logger,
    intervalMs: options.heartbeatIntervalMs,
  });
  await services.cancellations.reconcileCancellations();
  await services.reconciler.run();
  await maintenance.reconcile();
  const fleet = startFleetWatcher({
    scheduling: services.scheduling,
    reconciler: services.reconciler,
    logger,
  });
  // Set once the monitors' worker runs (below): a Redis lost before then is refilled by its first pass.
  let reconcileMonitors = async (): Promise<void> => undefined;
  // Schedules, maintenance boundaries and cancellation timers live in Redis; MongoDB says what they are.
  const redisData = await watchRedisData({
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    onLost: async () => {
      await services.reconciler.run();
      await maintenance.reconcile();
      await services.cancellations.reconcileCancellations();
      await reconcileMonitors();
    },
  });
  const reconcile = setInterval(() => {
    Promise.all([
      services.reconciler.run(),
      maintenance.reconcile(),
      services.mutex.ifFree('incident-reconciler', () => services.transitions.resolveOrphanIncidents()),
      reconcileMonitors(),
    ]).catch((error: unknown) => {
      logger.warn({ err: errorMessage(error) }, 'schedule reconciliation failed');
    });
  }, RECONCILE_EVERY_MS);
  const lifecycle = startCustomerLifecycleWorker({
    connection: blocking,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    cancel: (job) => services.cancellations.applyDueCancellation(job),
  });
  const maintenanceWorker = startMaintenanceWorker({
    connection: blocking,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    sync: (job) => maintenance.sync(job),
  });
  // The worker's metrics, returned to whoever runs it (tests and benches read them).
  const httpDue = services.scheduler.dueSet(config.NODE_REGION);
  const laneDue = Object.fromEntries(
    INTERVAL_LANES.map((lane) => [
      lane,
      new DueSet(redis, regionDueKey(config.REDIS_KEY_PREFIX, config.NODE_REGION, lane)),
    ]),
  ) as Record<IntervalLane, DueSet>;
  const metrics = createMetricsRegistry({
    service: 'worker',
    defaultMetrics: options.defaultMetrics ?? false,
  });
  const checkMetrics = workerMetrics(metrics, {
    region: config.NODE_REGION,
    dueCounts: async () => {
      const now = Date.now();
      const [http, fast, slow, browser, site] = await Promise.all(
        [httpDue, ...INTERVAL_LANES.map((lane) => laneDue[lane])].map((set) => set.counts(now)),
      );
      return { http, fast, slow, browser, site };
    },
    resultsWaiting: () => pending.size,
    refusedStateWrites: () => services.transitions.refusedWrites,
    unannouncedEvents: () => services.events.announceFailures,
  });
  const monitorRepository = new MonitorRepository(mongo.db);
  const runArtifacts = new RunArtifacts(mongo.db);
  // Journeys' runs counted for client reports, written with the rollups' rhythm.
  const runTallies = new RunTallyRecorder(new RunTallies(mongo.db), {
    logger,
    mongo: mongoHealth,
    flushEveryMs: options.rollupFlushMs,
  });
  const siteHealth = new SiteHealthRecorder({
    findings: new SiteFindings(mongo.db),
    lighthouse: new LighthouseHistory(mongo.db),
    summaries: new SiteHealthSummaries(mongo.db),
  });
  const housekeeping = startHousekeeping({ services, monitorRepository, runArtifacts, siteHealth, logger });
  const rollups = new RollupRecorder(services.rollups, {
    logger,
    mongo: mongoHealth,
    flushEveryMs: options.rollupFlushMs,
  });
  // One buffer for the results of every kind while MongoDB is away, recorded in order per website.
  const pending = new PendingRecords<PendingRecord | KeptMonitorEntry>({
    capacity: config.WORKER_RESULT_BUFFER,
    record: (entry) =>
      isKeptMonitorEntry(entry) ? monitorRunner.recordKept(entry) : runner.recordKept(entry),
    isTransient: isRecordRetryable,
    onDropped: (count) => checkMetrics.resultsDropped(count),
    logger,
  });
  const runnerWebsites = new WebsiteCache(
    {
      websites: services.websiteRepository,
      revisions: services.websiteRevisions,
      readTimeoutMs: CHECK_PATH_MONGO_TIMEOUT_MS,
    },
    config.WORKER_WEBSITE_CACHE_SIZE,
  );
  // Each website's customer and package as the checks of every kind see them (kept through a MongoDB outage);
  // bounded as the website cache: while the worker's websites fit in it, so do their customers.
  const owners = new LastReadCache<number, CustomerWithPackage>({
    maxAgeMs: OWNER_CACHE_MS,
    maxEntries: config.WORKER_WEBSITE_CACHE_SIZE,
    readTimeoutMs: CHECK_PATH_MONGO_TIMEOUT_MS,
    mongo: mongoHealth,
    describe: (customerId) => `customer ${customerId}`,
  });
  const owner = (website: WebsiteDocument) =>
    owners.get(website.customerId, () =>
      loadCustomerWithPackage(
        services.customerRepository,
        services.packages,
        website.organizationId,
        website.customerId,
      ),
    );
  const runner: CheckRunner = new CheckRunner({
    websites: runnerWebsites,
    owner,
    secrets: services.secrets,
    states,
    transitions: services.transitions,
    results: writer,
    rollups,
    feed: new CheckFeed(redis, config.REDIS_KEY_PREFIX, logger),
    probe,
    domainExpiry: createDomainExpiryLookup(mongo.db, {
      rdapBaseUrl: config.RDAP_BASE_URL,
      whoisServer: config.WHOIS_SERVER,
    }),
    nodeId: config.NODE_ID,
    recheckDelayMs: config.RECHECK_DELAY_SECONDS * 1000,
    pending,
    mongo: mongoHealth,
    evidence: {
      gate: new RedisEvidenceBodyGate(redis, config.REDIS_KEY_PREFIX),
      read: (organizationId, websiteId, resultId) =>
        services.results.evidence(organizationId, websiteId, resultId),
      stored: (withBody, bytes) => checkMetrics.evidenceStored(withBody, bytes),
      failed: (error) =>
        logger.warn({ err: errorMessage(error) }, 'evidence not kept: the result is stored without it'),
    },
  });
  // Crawls and Lighthouse runs take minutes: a stopping worker ends them and another runs them again.
  const siteRunsStop = new AbortController();
  // Browser journeys: one Chromium, launched by the first journey this worker plays.
  const journeys = new JourneyBrowser({
    executablePath: config.CHROMIUM_PATH,
    concurrency: config.WORKER_BROWSER_CONCURRENCY,
    maxMemoryBytes: config.WORKER_BROWSER_MEMORY_MIB * 1024 * 1024,
    logger,
  });
  // Heartbeats, DNS and port checks: their own due sets in Redis, decided on the same transition path.
  const monitorRunner: MonitorRunner = new MonitorRunner({
    repository: monitorRepository,
    websites: runnerWebsites,
    owner,
    states,
    transitions: services.transitions,
    deadlines: new DueSet(redis, heartbeatDeadlinesKey(config.REDIS_KEY_PREFIX)),
    due: laneDue,
    region: config.NODE_REGION,
    probe,
    dnsResolvers: config.DNS_RESOLVERS,
    recheckDelayMs: config.RECHECK_DELAY_SECONDS * 1000,
    summaries: new MonitorSummaries(redis, config.REDIS_KEY_PREFIX),
    secrets: services.secrets,
    pending,
    mongo: mongoHealth,
    revisions: monitorRevisions(redis, config.REDIS_KEY_PREFIX),
    logger,
    journeys,
    artifacts: runArtifacts,
    tallies: runTallies,
    lighthouse: (input, guard) =>
      runLighthouse(input, { executablePath: config.CHROMIUM_PATH, guard, userAgent: guard.userAgent }),
    siteHealth,
    siteRuns: new SiteRunBoard(redis, config.REDIS_KEY_PREFIX),
    stopping: siteRunsStop.signal,
  });
  const monitors = startMonitorWorker({
    runner: monitorRunner,
    tokens: new HeartbeatTokens(redis, config.REDIS_KEY_PREFIX),
    connection: blocking,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
  });
  reconcileMonitors = monitors.reconcile;
  await monitors.reconcile();
  await warmedUp(
    async () => runner.warmUp(await services.scheduler.scheduledWebsiteIds(config.NODE_REGION)),
    logger,
    signal,
  );
  const droppedLog = droppedChecksLog(logger, config.NODE_REGION);
  // Every kind's checks through one loop: each lane claims from its region's due set as many as it
  // has free slots, so a full lane (slow checks) never delays another's schedule.
  const monitorLane = (lane: IntervalLane) => ({
    set: laneDue[lane],
    leaseMs: MONITOR_LEASE_MS,
    run: (member: DueMember) => monitorRunner.checkDue(member, lane),
  });
  const lanes = startDueLanes(
    {
      http: {
        set: httpDue,
        concurrency: config.WORKER_LANE_HTTP_CONCURRENCY ?? config.WORKER_CONCURRENCY,
        leaseMs: options.lockDurationMs ?? config.CHECK_JOB_LOCK_SECONDS * 1000,
        ...websiteChecks({
          onChecked: (result, lagMs) => checkMetrics.checked(result, lagMs),
          onDropped: (reason) => {
            checkMetrics.dropped(reason);
            droppedLog.dropped(reason);
          },
          region: config.NODE_REGION,
          recheckDelayMs: config.RECHECK_DELAY_SECONDS * 1000,
          logger,
          runner,
        }),
      },
      fast: {
        ...monitorLane('fast'),
        concurrency: config.WORKER_LANE_FAST_CONCURRENCY ?? config.WORKER_CONCURRENCY,
      },
      slow: { ...monitorLane('slow'), concurrency: config.WORKER_LANE_SLOW_CONCURRENCY },
      browser: { ...monitorLane('browser'), concurrency: config.WORKER_BROWSER_CONCURRENCY },
      site: { ...monitorLane('site'), concurrency: config.WORKER_LANE_SITE_CONCURRENCY },
    },
    { logger },
  );
  const ops = await startOpsServer({
    port: config.METRICS_PORT,
    host: config.HOST,
    metrics,
    readinessChecks: [
      {
        name: 'mongodb',
        isReady: async () => mongoHealth.available,
        whileDown:
          'checks go on from the configuration in memory; results and what they lead to are kept in the worker (webmon_results_waiting) until MongoDB answers',
      },
      { name: 'redis', isReady: () => pingRedis(redis) },
    ],
    logger,
  });
  return {
    metrics,
    async stop() {
      await ops?.close();
      housekeeping.stop();
      droppedLog.stop();
      clearInterval(reconcile);
      await redisData.stop();
      await fleet.stop();
      // The checks in hand finish (their results are written or kept before they are put back).
      siteRunsStop.abort(new Error('the worker stops: the run is made again by another worker'));
      await Promise.all([lanes.stop(), lifecycle.close(), maintenanceWorker.close(), monitors.stop()]);
      await journeys.close();
      await writer.flush();
      await rollups.close();
      await runTallies.close();
      const lost = await pending.close(5000);
      if (lost > 0) logger.error({ lost }, 'MongoDB did not come back before shutdown: kept results lost');
      mongoHealth.stop();
      await heartbeat.stop();
      await services.close();
      await connections.close();
    },
  };
}
