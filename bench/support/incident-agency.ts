import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { OrganizationRepository } from '../../libs/auth/index.js';
import { ContactMethodRepository, contactMethodRevisions } from '../../libs/contact-methods/index.js';
import { CustomerRepository } from '../../libs/customers/index.js';
import { EscalationPolicyRepository, policyRevisions } from '../../libs/escalation/index.js';
import {
  type ChannelDocument,
  ChannelRepository,
  channelSecretContext,
  EVENT_KINDS,
} from '../../libs/notifications/index.js';
import { UserRepository } from '../../libs/people/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { SecretBox } from '../../libs/secrets/index.js';

const ACCOUNT = `AC${'b1'.repeat(16)}`;
const PERSON_SMS = '+4915112345670';

const CUSTOMER_TEMPLATE =
  '{{ summary.title }}{% if summary.reason %}: {{ summary.reason }}{% endif %} ({{ event.createdAt | date: "%H:%M:%S", "Europe/Berlin" }}){% if incident %} {{ incident.link }}{% endif %}';
const GROUPED_TEMPLATE =
  '{% if group %}{{ group.size }} websites of customer {{ customer.id }} are down:{% for site in group %}\n- {{ site.name }} ({{ site.url }}): {{ site.reason }}{% endfor %}{% else %}{{ summary.title }}: {{ summary.reason }}{% endif %}';

/**
 * The agency of the notifier benchmark's incidents scenario, stored through the repositories as the
 * API stores it: an organization, its customers, each customer's webhook (every other one with a
 * Liquid template), a webhook grouping failures by customer (templated too), two webhooks only
 * escalations send to, a Twilio channel whose apiBaseUrl is the receiver, a person with a verified
 * SMS number, and the organization's default escalation policy: the first of those webhooks and
 * the person, a minute's wait, then the second.
 */
export async function seedAgency(options: {
  db: Db;
  box: SecretBox;
  redis: Redis;
  prefix: string;
  customers: number;
  receiverUrl: string;
  windowSeconds: number;
}): Promise<{ organizationId: number; customerIds: number[]; templatedCustomers: Set<number> }> {
  const { db, box, redis, prefix, customers, receiverUrl, windowSeconds } = options;
  const now = new Date();
  const organizations = new OrganizationRepository(db);
  const organizationId = (await organizations.create('Bench agency')).id;
  const customerRepository = new CustomerRepository(db);
  const customerIds: number[] = [];
  for (let c = 1; c <= customers; c++) {
    const customer = await customerRepository.create({
      organizationId,
      name: `Customer ${c}`,
      email: null,
      notificationEmail: null,
      packageId: 1,
      status: 'active',
      cancellationDate: null,
    });
    customerIds.push(customer.id);
  }

  const channels = new ChannelRepository(db);
  const channel = async (
    fields: Pick<ChannelDocument, 'type' | 'name' | 'config' | 'scope'> &
      Partial<Pick<ChannelDocument, 'events' | 'template' | 'grouping'>>,
    secrets: Record<string, string> = { secret: `whsec_${randomBytes(32).toString('base64')}` },
  ) => {
    const id = await channels.allocateId();
    await channels.insert({
      organizationId,
      enabled: true,
      events: [...EVENT_KINDS],
      template: null,
      grouping: null,
      ...fields,
      id,
      secrets: Object.fromEntries(
        Object.entries(secrets).map(([field, value]) => [
          field,
          box.seal(value, channelSecretContext(id, field)),
        ]),
      ),
      createdAt: now,
      updatedAt: now,
    });
    return id;
  };
  const templatedCustomers = new Set<number>();
  for (const [index, customerId] of customerIds.entries()) {
    if (index % 2 === 0) templatedCustomers.add(customerId);
    await channel({
      type: 'webhook',
      name: `Customer ${customerId}`,
      config: { url: `${receiverUrl}/customer/${customerId}` },
      scope: { customerId, listedOnly: false },
      template: index % 2 === 0 ? CUSTOMER_TEMPLATE : null,
    });
  }
  await channel({
    type: 'webhook',
    name: 'Agency, grouped by customer',
    config: { url: `${receiverUrl}/grouped` },
    scope: { customerId: null, listedOnly: false },
    template: GROUPED_TEMPLATE,
    grouping: { windowSeconds: windowSeconds, by: 'customer' },
  });
  // Only escalations send to these and to the SMS provider's channel (nothing lists them).
  const onlyListed = { customerId: null, listedOnly: true };
  const firstStep = await channel({
    type: 'webhook',
    name: 'Escalation, first',
    config: { url: `${receiverUrl}/escalation/1` },
    scope: onlyListed,
  });
  const secondStep = await channel({
    type: 'webhook',
    name: 'Escalation, second',
    config: { url: `${receiverUrl}/escalation/2` },
    scope: onlyListed,
  });
  await channel(
    {
      type: 'twilio',
      name: 'SMS',
      config: {
        accountSid: ACCOUNT,
        from: '+15005550006',
        to: ['+15005550001'],
        call: false,
        apiBaseUrl: receiverUrl,
      },
      scope: onlyListed,
      events: ['test'],
    },
    { authToken: 'c3'.repeat(16) },
  );

  const person = await new UserRepository(db).create(
    {
      organizationId,
      email: 'on-call@bench.example',
      name: 'On-call person',
      role: 'editor',
      customerId: null,
    },
    'not a password hash: nobody signs in',
  );
  // Verified as if its code had been entered: the bench measures alerts, not verification.
  await new ContactMethodRepository(db, contactMethodRevisions(redis, prefix)).create({
    organizationId,
    userId: person.id,
    type: 'sms',
    address: PERSON_SMS,
    label: null,
    hours: null,
    events: ['alert', 'recovery', 'acknowledged'],
    verifiedAt: now,
    code: null,
  });
  const policy = await new EscalationPolicyRepository(db, policyRevisions(redis, prefix)).create({
    organizationId,
    name: 'Agency default',
    steps: [
      { targets: [{ channel: firstStep }, { user: person.id }], waitMinutes: 1 },
      { targets: [{ channel: secondStep }], waitMinutes: 0 },
    ],
    repeat: 0,
  });
  await organizations.update(organizationId, { escalationPolicyId: policy.id });
  return { organizationId, customerIds, templatedCustomers };
}
