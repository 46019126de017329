import { channelsForEvent } from '../../libs/alerts/index.js';
import type { AppConfig } from '../../libs/config/index.js';
import { ContactMethodService, PersonReach } from '../../libs/contact-methods/index.js';
import { DependencyService } from '../../libs/dependencies/index.js';
import { EscalationPolicyService, type PolicyTargetsPort } from '../../libs/escalation/index.js';
import type { Route } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { openChannel } from '../../libs/notifications/index.js';
import type { PeopleMailRoutes } from '../../libs/people/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { ApiServices } from './compose.js';
import { alertAckRoutes } from './routes/alert-acks.js';
import { contactMethodRoutes } from './routes/contact-methods.js';
import { dependencyRoutes } from './routes/dependencies.js';
import { escalationPolicyRoutes } from './routes/escalation-policies.js';
import type { incidentAcknowledger } from './routes/incident-actions.js';
import { slackEventRoutes } from './routes/slack-events.js';

/** Slack retries an unanswered event after 0 s, 1 min and 5 min: each id is remembered longer. */
const SLACK_EVENT_SEEN_MS = 15 * 60_000;

/**
 * On-call's routes: escalation policies, people's contact methods, the links in pages and the Slack
 * thread replies that acknowledge; what they share (the organization's tools that reach a person) built once.
 */
export function onCallRoutesOf(deps: {
  config: AppConfig;
  redis: Redis;
  services: ApiServices;
  mail: PeopleMailRoutes;
  logger: Logger;
  schedules: { exists(organizationId: number, scheduleId: number): Promise<boolean> };
  acknowledge: ReturnType<typeof incidentAcknowledger>;
}): Route[] {
  const { services } = deps;
  const reach = new PersonReach({
    channels: services.channelRepository,
    secrets: services.secrets,
    // The API's guarded HTTP (the one that challenges webhook subscribers): codes go out from here.
    http: services.subscriptionHttp,
    mailer: (organizationId) => deps.mail.mailerFor(organizationId),
  });
  const targets: PolicyTargetsPort = {
    async userProblem(organizationId, userId) {
      const user = await services.users.findById(organizationId, userId);
      if (!user) return `No person ${userId} in your organization`;
      return user.role === 'client'
        ? `${user.name} is a client user: only the agency’s people are paged`
        : null;
    },
    scheduleExists: (organizationId, id) => deps.schedules.exists(organizationId, id),
    channelExists: async (organizationId, id) =>
      (await services.channelRepository.findById(organizationId, id)) !== null,
    async usesOf(organizationId, policyId) {
      const websites = await services.websiteRepository.namesWithEscalationPolicy(organizationId, policyId);
      const customers = (await services.customerRepository.list(organizationId))
        .filter((customer) => customer.escalationPolicyId === policyId)
        .map((customer) => customer.name);
      const organization = await services.organizations.findById(organizationId);
      return [
        ...(organization?.escalationPolicyId === policyId ? ['the organization (its default)'] : []),
        ...customers.map((name) => `customer “${name}”`),
        ...websites.slice(0, 5).map((name) => `website “${name}”`),
        ...(websites.length > 5 ? [`${websites.length - 5} more websites`] : []),
      ];
    },
  };
  const dependencies = new DependencyService({
    repository: services.dependencies,
    mutex: services.mutex,
    ports: {
      website: (organizationId, id) => services.websiteRepository.findByRef(organizationId, { id }),
      monitor: (organizationId, id) => services.monitorRepository.findById(organizationId, id),
      async health(organizationId, parent) {
        if ('websiteId' in parent)
          return (await services.states.load(organizationId, parent.websiteId)).health;
        const monitor = await services.monitorRepository.findById(organizationId, parent.monitorId);
        if (!monitor) return 'unknown';
        return (
          await services.states.load(organizationId, monitor.websiteId, {
            kind: monitor.kind,
            id: monitor.id,
          })
        ).health;
      },
    },
  });
  return [
    ...dependencyRoutes({
      service: dependencies,
      website: (organizationId, ref) => services.websites.get(organizationId, ref),
    }),
    ...escalationPolicyRoutes(
      new EscalationPolicyService({ policies: services.escalationPolicies, targets, mutex: services.mutex }),
    ),
    ...contactMethodRoutes(
      new ContactMethodService({ methods: services.contactMethods, reach, mutex: services.mutex }),
    ),
    ...alertAckRoutes({
      links: services.ackLinks,
      states: services.states,
      acknowledge: deps.acknowledge,
      person: (organizationId, userId) => services.users.findById(organizationId, userId),
      describe: async (incident) => {
        const website = await services.websiteRepository.findByRef(incident.organizationId, {
          id: incident.websiteId,
        });
        const name = website?.name ?? `website ${incident.websiteId}`;
        return incident.resolvedAt
          ? `${name} was down`
          : `${name} is down since ${incident.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      },
      logger: deps.logger,
    }),
    ...slackEventRoutes({
      firstSight: async (key) =>
        (await deps.redis.set(
          `${deps.config.REDIS_KEY_PREFIX}:slack-event:${key}`,
          '1',
          'PX',
          SLACK_EVENT_SEEN_MS,
          'NX',
        )) === 'OK',
      channels: services.channelRepository,
      open: (channel) => openChannel(channel, services.secrets),
      http: services.subscriptionHttp,
      deliveries: services.deliveries,
      states: services.states,
      users: services.users,
      async announcesAcknowledgement(channel, incident) {
        const website = await services.websiteRepository.findByRef(incident.organizationId, {
          id: incident.websiteId,
        });
        const event = {
          type: 'incident.acknowledged' as const,
          customerId: website?.customerId ?? null,
          listedChannelIds: website?.notificationChannelIds ?? [],
        };
        return channelsForEvent(event, [channel]).length > 0;
      },
      acknowledge: deps.acknowledge,
      logger: deps.logger,
    }),
  ];
}
