import { describe, expect, it } from 'vitest';
import type { ChannelDocument } from '../notifications/index.js';
import { channelsForEvent } from './channel-matching.js';

describe('channelsForEvent', () => {
  const channel = (id: number, over: Partial<ChannelDocument> = {}): ChannelDocument => ({
    id,
    organizationId: 1,
    type: 'webhook',
    name: `c${id}`,
    enabled: true,
    events: ['website.down', 'website.up'],
    scope: { customerId: null, listedOnly: false },
    config: {},
    secrets: {},
    createdAt: new Date(),
    updatedAt: new Date(),
    ...over,
  });
  const channels = [
    channel(1),
    channel(2, { scope: { customerId: 3, listedOnly: false } }),
    channel(3, { scope: { customerId: 4, listedOnly: false } }),
    channel(4, { scope: { customerId: null, listedOnly: true } }),
    channel(5, { scope: { customerId: null, listedOnly: true } }),
    channel(6, { enabled: false }),
    channel(7, { events: ['website.up'] }),
  ];

  it('the organization’s, the customer’s, and listed ones; enabled and subscribed only', () => {
    const ids = channelsForEvent(
      { type: 'website.down', customerId: 3, listedChannelIds: [4] },
      channels,
    ).map((c) => c.id);
    expect(ids).toEqual([1, 2, 4]);
  });

  it('a listed channel of the website’s customer still needs to be subscribed', () => {
    const ids = channelsForEvent(
      { type: 'website.down', customerId: 4, listedChannelIds: [7] },
      channels,
    ).map((c) => c.id);
    expect(ids).toEqual([1, 3]);
  });
});
