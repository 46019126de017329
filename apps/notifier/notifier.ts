import type { Registry } from 'prom-client';
import {
  carriedEvent,
  DeliveryRunner,
  deliveryMetrics,
  SweepPacing,
  startNotificationWorkers,
} from '../../libs/alerts/index.js';
import type { AppConfig } from '../../libs/config/index.js';
import { GuardedHttp } from '../../libs/connectors/index.js';
import { pingMongo } from '../../libs/db/index.js';
import { errorMessage } from '../../libs/errors/index.js';
import { EventOutbox } from '../../libs/events/index.js';
import { createMetricsRegistry, startOpsServer } from '../../libs/http/ops.js';
import type { Logger } from '../../libs/logging/index.js';
import { SYSTEM } from '../../libs/monitoring/index.js';
import { pingRedis, watchRedisData } from '../../libs/redis/index.js';
import { type RunningService, SERVICE_VERSION } from '../../libs/runtime/index.js';
import { openConnections } from '../../libs/services/index.js';
import { startNoticeWorker } from '../../libs/status-subscriptions/index.js';
import { composeNotifier } from './compose.js';
import { composeAlertRouting } from './compose-alert-routing.js';
import { composeNoticeMailing } from './compose-notices.js';

const RETENTION_EVERY_MS = 3_600_000;
const REPORTS_EVERY_MS = 60_000;
const MAINTENANCE_NOTICES_EVERY_MS = 60_000;

/**
 * How often the outbox is swept for events whose announcement was lost (and how old they must be)
 * and owed delivery attempts that are due for jobs lost with Redis.
 */
const SWEEP_EVERY_MS = 15_000;
const SWEEP_AFTER_MS = 30_000;
/** Sweeps a backlog of events may put off in a row (2 minutes). */
const SWEEPS_PUT_OFF_AT_MOST = 7;

/**
 * The notifier process: dispatches outbox events to the channels they concern and delivers them
 * (signed webhooks, chat and incident tools), retrying on SPEC's schedule; mails client reports when due.
 */
export async function startNotifier(
  config: AppConfig,
  logger: Logger,
  options: { signal?: AbortSignal; defaultMetrics?: boolean } = {},
): Promise<RunningService & { metrics: Registry }> {
  const connections = await openConnections({
    name: 'notifier',
    config,
    logger,
    jobs: true,
    signal: options.signal,
  });
  const { mongo, redis, blocking } = connections;
  const services = composeNotifier({ db: mongo.db, redis, config, logger });
  const http = new GuardedHttp(
    { allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS, exemptAddresses: config.PROBE_EXEMPT_ADDRESSES },
    config.DELIVERY_TIMEOUT_SECONDS * 1000,
    `webmon-notifier/${SERVICE_VERSION}`,
  );
  const outbox = new EventOutbox(mongo.db, {
    onMarkError: (error) =>
      logger.warn(
        { err: errorMessage(error) },
        'marking events dispatched failed; the sweep dispatches them again',
      ),
  });
  const metrics = createMetricsRegistry({
    service: 'notifier',
    defaultMetrics: options.defaultMetrics ?? false,
  });
  const alertRouting = composeAlertRouting({
    db: mongo.db,
    redis,
    config,
    logger,
    secrets: services.secrets,
    http,
    mutex: services.mutex,
    channels: services.channelRepository,
    websites: services.websiteCache,
    customers: services.customerCache,
    timelines: services.timelines,
    organizationMailer: services.organizationMailer,
    deliver: (channel, payload) => services.deliveryRequests.enqueue(channel, payload),
    // Bound late: the runner is made with the routing this returns.
    deliverEvent: (payload, websiteId) => runner.deliverEvent(payload, websiteId),
  });
  const runner = new DeliveryRunner({
    routing: alertRouting.routing,
    onOutcome: deliveryMetrics(metrics),
    outbox,
    channels: services.channelRepository,
    websites: services.websiteCache,
    deliveries: services.deliveries,
    requests: services.deliveryRequests,
    owed: services.owedAttempts,
    queue: services.notificationQueue,
    secrets: services.secrets,
    http,
    logger,
    retryScale: config.DELIVERY_RETRY_SCALE,
    onAlertSettled: (alert) =>
      services.timelines.append(alert.incident, {
        key: `alert:${alert.deliveryKey}:${alert.at.getTime()}`,
        at: alert.at,
        kind: 'alert',
        by: SYSTEM,
        region: null,
        text: alert.outcome,
        alert: {
          channelId: alert.channel.id,
          channelName: alert.channel.name,
          channelType: alert.channel.type,
          eventType: alert.eventType,
          status: alert.status,
        },
      }),
  });
  const workers = startNotificationWorkers({
    connection: blocking,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    concurrency: config.NOTIFIER_CONCURRENCY,
    dispatch: (job) => runner.dispatch(job.eventId, carriedEvent(job)),
    attempt: (job) => runner.attempt(job),
  });
  // Escalation steps and grouping windows wait as delayed jobs: any notifier runs the one due.
  workers.push(...alertRouting.startWorkers(blocking));
  // Pages' notices to their subscribers: one mailing at a time here, handed over when stopping.
  const notices = composeNoticeMailing({
    db: mongo.db,
    redis,
    config,
    logger,
    secrets: services.secrets,
    organizationMailer: services.organizationMailer,
    websites: services.websiteRepository,
    http,
  });
  let stopping = false;
  workers.push(
    startNoticeWorker({
      connection: blocking,
      prefix: config.REDIS_KEY_PREFIX,
      logger,
      mail: async (noticeId) => {
        const mailed = await notices.mailing.mail(noticeId, () => stopping);
        logger.info({ noticeId, ...mailed }, 'subscribers told');
      },
    }),
  );
  const announceNotices = () =>
    notices
      .announceUnfinished()
      .catch((error: unknown) =>
        logger.warn({ err: errorMessage(error) }, 'unfinished subscriber notices not announced again'),
      );
  await announceNotices();
  // Maintenance of pages with subscribers, told as it is announced, starts and ends (a tick a minute).
  let maintenanceRun: Promise<unknown> = Promise.resolve();
  const tellMaintenance = () => {
    maintenanceRun = maintenanceRun.then(() =>
      notices.maintenance
        .run(new Date())
        .catch((error: unknown) => logger.warn({ err: errorMessage(error) }, 'maintenance notices not told')),
    );
  };
  tellMaintenance();
  const maintenanceTicks = setInterval(tellMaintenance, MAINTENANCE_NOTICES_EVERY_MS);
  const sweepOutbox = (options = { eventsOlderThanMs: SWEEP_AFTER_MS, attemptsDueBy: new Date() }) =>
    runner.sweep(options).then(
      (found) => found.events > 0 && logger.info(found, 'undispatched events announced again'),
      (error: unknown) => logger.warn({ err: errorMessage(error) }, 'outbox sweep failed'),
    );
  const removeExpired = () =>
    Promise.all([
      runner.removeExpired(config.DELIVERY_RETENTION_DAYS),
      alertRouting.removeExpired(new Date(Date.now() - config.DELIVERY_RETENTION_DAYS * 86_400_000)),
    ]).then(
      ([removed, ended]) =>
        removed.events + removed.deliveries + ended.escalations > 0 &&
        logger.info({ ...removed, ...ended }, 'expired events, deliveries and escalations removed'),
      (error: unknown) => logger.warn({ err: errorMessage(error) }, 'delivery retention failed'),
    );
  await sweepOutbox();
  const sweepEscalations = () =>
    alertRouting.sweep().then(
      (found) =>
        found.queued + found.resumed + found.windows > 0 &&
        logger.info(found, 'escalation steps and grouping windows taken up again'),
      (error: unknown) => logger.warn({ err: errorMessage(error) }, 'escalation sweep failed'),
    );
  await sweepEscalations();
  const pacing = new SweepPacing(SWEEPS_PUT_OFF_AT_MOST);
  const sweepUnlessBacklogged = async () => {
    const waiting = await services.notificationQueue.waitingEvents().catch(() => 0);
    if (!pacing.due(waiting)) return;
    await Promise.all([sweepOutbox(), sweepEscalations()]);
  };
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = setInterval(() => {
    sweeping = sweepUnlessBacklogged();
    void announceNotices();
  }, SWEEP_EVERY_MS);
  // Event announcements and delivery attempts wait in Redis; MongoDB knows which are owed.
  const redisData = await watchRedisData({
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    // Every owed attempt, also those due later: their delayed jobs went with the data.
    onLost: () =>
      sweepOutbox({ eventsOlderThanMs: 0, attemptsDueBy: new Date(8.64e15) }).then(() => undefined),
  });
  let retentionRun = removeExpired();
  const ops = await startOpsServer({
    port: config.METRICS_PORT,
    host: config.HOST,
    metrics,
    readinessChecks: [
      { name: 'mongodb', isReady: () => pingMongo(mongo, 2500) },
      { name: 'redis', isReady: () => pingRedis(redis) },
    ],
    logger,
  });
  const retention = setInterval(() => {
    retentionRun = removeExpired();
  }, RETENTION_EVERY_MS);
  // Client reports due (in each organization's timezone) are mailed within a minute of their hour;
  // one tick at a time, and every notifier ticks: each report is claimed by one.
  let reportsRun: Promise<void> = Promise.resolve();
  const mailReports = () => {
    reportsRun = reportsRun.then(() =>
      services.reportMailings
        .tick(new Date())
        .catch((error: unknown) => logger.warn({ err: errorMessage(error) }, 'report mailing tick failed')),
    );
  };
  mailReports();
  const reports = setInterval(mailReports, REPORTS_EVERY_MS);
  return {
    metrics,
    async stop() {
      await ops?.close();
      clearInterval(sweep);
      await sweeping;
      clearInterval(retention);
      clearInterval(reports);
      clearInterval(maintenanceTicks);
      await maintenanceRun;
      await reportsRun;
      await redisData.stop();
      await retentionRun;
      // BullMQ lets the attempts in hand finish; the rest wait in Redis for the next notifier. A
      // mailing in hand stops after the mails in flight and goes on in the next notifier.
      stopping = true;
      await Promise.all(workers.map((worker) => worker.close()));
      await notices.close();
      await alertRouting.close();
      await Promise.all([outbox.flush(), services.deliveries.flush()]);
      await http.close();
      await services.close();
      await connections.close();
    },
  };
}
