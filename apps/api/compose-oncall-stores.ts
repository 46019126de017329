import type { Db } from 'mongodb';
import { ContactMethodRepository, contactMethodRevisions } from '../../libs/contact-methods/index.js';
import { DependencyRepository, dependencyRevisions } from '../../libs/dependencies/index.js';
import { AckLinks, EscalationPolicyRepository, policyRevisions } from '../../libs/escalation/index.js';
import type { RedisMutex } from '../../libs/locks/index.js';
import { FeedTokens, OnCallService, ScheduleRepository } from '../../libs/oncall/index.js';
import { UserRepository, userRevisions } from '../../libs/people/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { SecretBox } from '../../libs/secrets/index.js';

/**
 * On-call's stores, made with the API's services: escalation policies (and whether one exists, for
 * websites, customers and the organization to name), contact methods, acknowledge links,
 * dependencies, and schedules with people's calendar feeds (a schedule a policy names is not deleted).
 */
export function composeOnCallStores(deps: {
  db: Db;
  redis: Redis;
  prefix: string;
  secrets: SecretBox;
  mutex: RedisMutex;
}) {
  const { db, mutex } = deps;
  // Their writes move each organization's revisions: notifiers keep policies and contact methods.
  const escalationPolicies = new EscalationPolicyRepository(db, policyRevisions(deps.redis, deps.prefix));
  return {
    escalationPolicies,
    policies: {
      escalationPolicyExists: async (organizationId: number, id: number) =>
        (await escalationPolicies.findById(organizationId, id)) !== null,
    },
    contactMethods: new ContactMethodRepository(db, contactMethodRevisions(deps.redis, deps.prefix)),
    ackLinks: new AckLinks(db),
    // Writes move the organization's dependency revision: notifiers keep which websites dependencies concern.
    dependencies: new DependencyRepository(db, dependencyRevisions(deps.redis, deps.prefix)),
    onCall: new OnCallService({
      schedules: new ScheduleRepository(db),
      people: new UserRepository(db, userRevisions(deps.redis, deps.prefix)),
      mutex,
      usedBy: async (organizationId, scheduleId) =>
        (await escalationPolicies.list(organizationId))
          .filter((policy) =>
            policy.steps.some((step) =>
              step.targets.some((t) => 'schedule' in t && t.schedule === scheduleId),
            ),
          )
          .map((policy) => `escalation policy “${policy.name}”`),
    }),
    onCallFeeds: new FeedTokens(db, deps.secrets),
  };
}
