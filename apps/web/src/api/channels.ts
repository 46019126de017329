import { channelSchema } from '../channels/channel-schema.js';
import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type Channel = Schemas['Channel'];
export type Delivery = Schemas['Delivery'];

/** The channels' queries: every one starts with `channelKeys.all`, which a write to any channel marks stale. */
export const channelKeys = {
  all: ['channels'] as const,
  one: (id: number) => ['channels', id] as const,
  deliveries: (id: number) => ['channels', id, 'deliveries'] as const,
};

export function useChannels(): Loaded<Channel[]> {
  return useApiQuery(channelKeys.all, async () => must(await api.GET('/api/notification-channels')));
}

/** One channel; `null` for a new one (nothing to read). */
export function useChannel(id: number | null): Loaded<Channel | null> {
  const loaded = useApiQuery(
    channelKeys.one(id ?? 0),
    async () => must(await api.GET('/api/notification-channels/{id}', { params: { path: { id: id ?? 0 } } })),
    { enabled: id !== null },
  );
  return id === null ? { ...loaded, data: null } : loaded;
}

/** The channel types, their settings and the event kinds (from the API's /openapi.json). */
export function useChannelSchema() {
  return useApiQuery(['openapi', 'channels'], channelSchema);
}

/** The newest `pages` × 20 deliveries of a channel, read again every 5 s. */
export function useDeliveries(
  channelId: number,
  pages: number,
): Loaded<{ items: Delivery[]; more: boolean }> {
  return useApiQuery(
    [...channelKeys.deliveries(channelId), pages],
    async () => {
      const items: Delivery[] = [];
      let cursor: number | undefined;
      let next: number | null = null;
      for (let page = 0; page < pages; page++) {
        const answer = must(
          await api.GET('/api/notification-channels/{id}/deliveries', {
            params: { path: { id: channelId }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
          }),
        );
        items.push(...answer.items);
        next = answer.nextCursor;
        if (next === null) break;
        cursor = next;
      }
      return { items, more: next !== null };
    },
    { pollMs: 5_000 },
  );
}
