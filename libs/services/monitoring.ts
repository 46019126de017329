import type { Db } from 'mongodb';
import type { NotificationQueue } from '../alerts/index.js';
import { type AppConfig, appLink } from '../config/index.js';
import { EventOutbox } from '../events/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import {
  CHECK_PATH_MONGO_TIMEOUT_MS,
  CheckFeed,
  IncidentTimelines,
  MonitorStateRepository,
  MonitorTransitions,
  type RunScreenshot,
  runScreenshotPath,
  timelineHints,
} from '../monitoring/index.js';
import type { Redis } from '../redis/index.js';

/** The one path by which monitor states change, and what it writes to (the API and the worker). */
export interface MonitoringPath {
  states: MonitorStateRepository;
  /** The events outbox: transitions append to it, the notifier reads it. */
  events: EventOutbox;
  /** Incidents' timelines (transitions, the notifier and the API add steps). */
  timelines: IncidentTimelines;
  transitions: MonitorTransitions;
}

/** Monitor states, read and written within the check path's MongoDB timeout. */
export function monitorStates(db: Db, redis: Redis, config: AppConfig): MonitorStateRepository {
  return new MonitorStateRepository(db, redis, config.REDIS_KEY_PREFIX, {
    timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
  });
}

export function createMonitoringPath(deps: {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  mutex: RedisMutex;
  /** Where each appended event is announced to the notifier. */
  notificationQueue: NotificationQueue;
}): MonitoringPath {
  const { db, config, logger } = deps;
  const states = monitorStates(db, deps.redis, config);
  const events = new EventOutbox(db, {
    announce: (eventId, event) => deps.notificationQueue.announce(eventId, event),
    logger,
    timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
  });
  const timelines = new IncidentTimelines(db, { hints: timelineHints(deps.redis, config.REDIS_KEY_PREFIX) });
  const feed = new CheckFeed(deps.redis, config.REDIS_KEY_PREFIX, logger);
  const transitions = new MonitorTransitions({
    states,
    outbox: events,
    timelines,
    mutex: deps.mutex,
    logger,
    // Without PUBLIC_URL the app's address as people reach it is unknown: alerts carry no link.
    ...(config.PUBLIC_URL
      ? {
          incidentLink: (id: string) => appLink(config, `/incidents/${id}`).toString(),
          screenshotLink: (websitePublicId: string, shot: RunScreenshot) =>
            appLink(config, runScreenshotPath(websitePublicId, shot)).toString(),
        }
      : {}),
    shownChanged: (website) =>
      void feed.changed({
        kind: 'website',
        organizationId: website.organizationId,
        customerId: website.customerId,
        websiteId: website.id,
        deleted: false,
      }),
  });
  return { states, events, timelines, transitions };
}
