import type { FieldError } from '../errors/index.js';

/** What websites need of notification channels, to list them. */
export interface WebsiteChannelsPort {
  /** The channels among `ids` that exist, with the customer each is tied to (null: none). */
  customerScopes(organizationId: number, ids: readonly number[]): Promise<Map<number, number | null>>;
  /** Runs `work` while no channel can be deleted or narrowed to a customer. */
  withChannelsLocked<T>(organizationId: number, work: () => Promise<T>): Promise<T>;
}

/** What websites need of escalation policies: that one they name exists in the organization. */
export interface WebsitePoliciesPort {
  escalationPolicyExists(organizationId: number, id: number): Promise<boolean>;
}

/** The problem of naming policy `id` when it does not exist (empty: it does, or none is named). */
export async function policyProblems(
  port: WebsitePoliciesPort | undefined,
  organizationId: number,
  id: number | null | undefined,
): Promise<FieldError[]> {
  if (id === null || id === undefined || !port || (await port.escalationPolicyExists(organizationId, id)))
    return [];
  return [{ path: 'escalationPolicyId', message: `No escalation policy ${id} in your organization` }];
}

/**
 * Why a website of `customerId` cannot list these channels (`scopes` as `customerScopes` read
 * them): one that does not exist, or one tied to another customer. Empty: it can.
 */
export function listedChannelProblems(
  channelIds: readonly number[],
  customerId: number,
  scopes: ReadonlyMap<number, number | null>,
): FieldError[] {
  return channelIds.flatMap((channelId, index) => {
    const path = `notificationChannelIds.${index}`;
    if (!scopes.has(channelId))
      return [{ path, message: `No notification channel ${channelId} in your organization` }];
    const owner = scopes.get(channelId);
    return owner !== null && owner !== customerId
      ? [{ path, message: `channel ${channelId} is for the websites of customer ${owner}` }]
      : [];
  });
}
