import type { Db } from 'mongodb';
import { AlertGroups, channelsForEvent, type EventRouting } from '../../libs/alerts/index.js';
import { OrganizationRepository, organizationRevisions } from '../../libs/auth/index.js';
import { type AppConfig, appLink } from '../../libs/config/index.js';
import type { GuardedHttp } from '../../libs/connectors/index.js';
import {
  ContactMethodRepository,
  contactMethodRevisions,
  PersonReach,
} from '../../libs/contact-methods/index.js';
import type { CustomerCache } from '../../libs/customers/index.js';
import {
  DependencyGate,
  DependencyRepository,
  dependencyRevisions,
  type ParentRef,
} from '../../libs/dependencies/index.js';
import {
  AckLinks,
  applicablePolicyId,
  EscalationPolicyRepository,
  EscalationQueue,
  EscalationRunner,
  EscalationRuns,
  policyRevisions,
  startEscalationWorker,
} from '../../libs/escalation/index.js';
import type { EventPayload } from '../../libs/events/index.js';
import type { RedisMutex } from '../../libs/locks/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { IncidentTimelines } from '../../libs/monitoring/index.js';
import { MonitorRepository } from '../../libs/monitors/index.js';
import type { ChannelDocument, ChannelRepository } from '../../libs/notifications/index.js';
import { OnCallService, ScheduleRepository } from '../../libs/oncall/index.js';
import { smtpMailer, UserRepository, userRevisions } from '../../libs/people/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { SecretBox } from '../../libs/secrets/index.js';
import { monitorStates } from '../../libs/services/index.js';
import type { WebsiteCache } from '../../libs/websites/index.js';

/** What happens to events besides their channels, in the notifier: dependencies hold, grouping windows gather, escalations page. */
export function composeAlertRouting(deps: {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  secrets: SecretBox;
  http: GuardedHttp;
  mutex: RedisMutex;
  channels: ChannelRepository;
  /** Websites as stored now, kept while their revision holds. */
  websites: Pick<WebsiteCache, 'get'>;
  /** Customers as stored now, kept while their revision holds. */
  customers: Pick<CustomerCache, 'findById'>;
  timelines: IncidentTimelines;
  /** The organization's own e-mail channel as a mailer (null: none). */
  organizationMailer(
    organizationId: number,
  ): Promise<{ send(mail: { to: string; subject: string; text: string }): Promise<void> } | null>;
  /** Queues an event's delivery to a channel (idempotent by the payload's id). */
  deliver(channel: ChannelDocument, payload: EventPayload): Promise<unknown>;
  /** Sends an event as if just dispatched (a held alert released): its channels, its escalation. */
  deliverEvent(payload: EventPayload, websiteId: number): Promise<void>;
}) {
  const { db, config } = deps;
  // Kept while their revisions hold: every escalation reads its organization and pages people.
  const users = new UserRepository(db, userRevisions(deps.redis, config.REDIS_KEY_PREFIX));
  const organizations = new OrganizationRepository(
    db,
    organizationRevisions(deps.redis, config.REDIS_KEY_PREFIX),
  );
  const policies = new EscalationPolicyRepository(db, policyRevisions(deps.redis, config.REDIS_KEY_PREFIX));
  const methods = new ContactMethodRepository(
    db,
    contactMethodRevisions(deps.redis, config.REDIS_KEY_PREFIX),
  );
  const onCall = new OnCallService({
    schedules: new ScheduleRepository(db),
    people: users,
    mutex: deps.mutex,
  });
  const smtp = smtpMailer(config);
  const queue = new EscalationQueue(deps.redis, config.REDIS_KEY_PREFIX);
  const runs = new EscalationRuns(db, {
    redis: deps.redis,
    prefix: config.REDIS_KEY_PREFIX,
    mutex: deps.mutex,
    logger: deps.logger,
  });
  const links = new AckLinks(db);
  const runner = new EscalationRunner({
    runs,
    queue,
    links,
    reach: new PersonReach({
      channels: deps.channels,
      secrets: deps.secrets,
      http: deps.http,
      // People's mail as the API sends it: SMTP_URL, else the organization's e-mail channel.
      mailer: async (organizationId) => smtp ?? (await deps.organizationMailer(organizationId)),
    }),
    logger: deps.logger,
    timeScale: config.ESCALATION_TIME_SCALE,
    ports: {
      async policyIdFor(organizationId, websiteId) {
        const website = await deps.websites.get(organizationId, websiteId);
        if (!website) return null;
        const customer = await deps.customers.findById(organizationId, website.customerId);
        const organization = await organizations.findKept(organizationId);
        return applicablePolicyId({
          website: website.escalationPolicyId,
          customer: customer?.escalationPolicyId,
          organization: organization?.escalationPolicyId,
        });
      },
      policy: (organizationId, id) => policies.findById(organizationId, id),
      onCall: async (organizationId, scheduleId, at) =>
        (await onCall.whoIsOnCall(organizationId, scheduleId, at))?.userId ?? null,
      async person(organizationId, userId) {
        const user = await users.findKept(organizationId, userId);
        return user && user.role !== 'client' ? { id: user.id, name: user.name } : null;
      },
      methods: (organizationId, userId) => methods.ofUser(organizationId, userId),
      channel: (organizationId, id) => deps.channels.findById(organizationId, id),
      async heardAlert(channel, event, websiteId) {
        const website = await deps.websites.get(channel.organizationId, websiteId);
        const heard = channelsForEvent(
          {
            type: event.type,
            // As the event's own dispatch chose its channels (`deliverEvent`).
            customerId: event.data.website?.customerId ?? null,
            listedChannelIds: website?.notificationChannelIds ?? [],
          },
          [channel],
        );
        return heard.length > 0;
      },
      deliver: async (channel, payload) => {
        await deps.deliver(channel, payload);
      },
      timeline: (incidentId, entry) => deps.timelines.append(incidentId, entry),
      ackUrl: (token) => appLink(config, `api/alerts/ack/${token}`).href,
    },
  });
  const states = monitorStates(db, deps.redis, config);
  const monitors = new MonitorRepository(db);
  const healthOf = async (organizationId: number, parent: ParentRef) => {
    if ('websiteId' in parent) return (await states.load(organizationId, parent.websiteId)).health;
    const monitor = await monitors.findById(organizationId, parent.monitorId);
    if (!monitor) return 'unknown';
    return (await states.load(organizationId, monitor.websiteId, { kind: monitor.kind, id: monitor.id }))
      .health;
  };
  const gate = new DependencyGate({
    repository: new DependencyRepository(db, dependencyRevisions(deps.redis, config.REDIS_KEY_PREFIX)),
    logger: deps.logger,
    ports: {
      isDown: async (organizationId, parent) => (await healthOf(organizationId, parent)) === 'down',
      async nameOf(organizationId, parent) {
        if ('websiteId' in parent)
          return (
            (await deps.websites.get(organizationId, parent.websiteId))?.name ?? `website ${parent.websiteId}`
          );
        const monitor = await monitors.findById(organizationId, parent.monitorId);
        if (!monitor) return `monitor ${parent.monitorId}`;
        const website = await deps.websites.get(organizationId, monitor.websiteId);
        return `${website?.name ?? `website ${monitor.websiteId}`}: ${monitor.name}`;
      },
      website: (organizationId, id) => deps.websites.get(organizationId, id),
      async openIncident(organizationId, websiteId, monitorId) {
        if (monitorId === null) return (await states.load(organizationId, websiteId)).openIncidentId;
        const monitor = await monitors.findById(organizationId, monitorId);
        return monitor
          ? (await states.load(organizationId, websiteId, { kind: monitor.kind, id: monitor.id }))
              .openIncidentId
          : null;
      },
      timeline: (incidentId, entry) => deps.timelines.append(incidentId, entry),
      deliver: (payload, websiteId) => deps.deliverEvent(payload, websiteId),
    },
  });
  const groups = new AlertGroups({
    db,
    redis: deps.redis,
    prefix: config.REDIS_KEY_PREFIX,
    channels: deps.channels,
    enqueue: deps.deliver,
    logger: deps.logger,
  });
  // Dependencies first (a held alert pages nobody), then escalation; a parent's recovery releases its children.
  const routing: EventRouting = {
    admit: (payload, websiteId) => gate.admit(payload, websiteId),
    buffer: (channel, payload) => groups.buffer(channel, payload),
    dispatched: async (payload, websiteId) => {
      await runner.onEvent(payload, websiteId);
      await gate.dispatched(payload, websiteId);
    },
  };
  return {
    runner,
    routing,
    /** Escalation steps and grouping windows' closes: delayed jobs any notifier runs when due. */
    startWorkers: (connection: Redis) => [
      startEscalationWorker({
        connection,
        prefix: config.REDIS_KEY_PREFIX,
        logger: deps.logger,
        step: (job) => runner.step(job),
      }),
      groups.startWorker(connection),
    ],
    /** Steps and windows whose jobs were lost (Redis flushed) or whose notifier died. */
    async sweep() {
      // Each whatever the other does: a failing escalation sweep leaves no window unsent.
      const [steps, windows] = await Promise.all([runner.sweep(), groups.sweep()]);
      return { ...steps, windows };
    },
    /** Retention: escalations ended (and their sends) before `before`, acknowledge links expired. */
    async removeExpired(before: Date) {
      await links.deleteExpired(new Date());
      return { escalations: await runs.deleteBefore(before) };
    },
    close: async () => {
      await queue.close();
      await groups.close();
      await runs.close();
    },
  };
}
