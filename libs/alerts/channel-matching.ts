import type { ChannelDocument, EventKind } from '../notifications/index.js';

/**
 * The channels an event goes to: enabled, subscribed to its kind, and either listed by the
 * website or covering it by scope (the organization, or the website's customer).
 */
export function channelsForEvent(
  event: { type: EventKind; customerId: number | null; listedChannelIds: readonly number[] },
  channels: readonly ChannelDocument[],
): ChannelDocument[] {
  return channels.filter((channel) => {
    if (!channel.enabled || !channel.events.includes(event.type)) return false;
    if (event.listedChannelIds.includes(channel.id)) return true;
    if (channel.scope.listedOnly) return false;
    return channel.scope.customerId === null || channel.scope.customerId === event.customerId;
  });
}
