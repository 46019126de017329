import type { RedisMutex } from '../locks/index.js';
import type { ChannelWebsitesPort } from '../notifications/index.js';
import { type WebsiteRepository, websiteLock } from './website.repository.js';

/**
 * The channels' port into websites (notifications owns the interface, websites implements it):
 * built from the repository and the lock alone, before the channel service and the website
 * service, so neither reaches the other through something built later.
 */
export class ChannelListings implements ChannelWebsitesPort {
  constructor(private readonly deps: { websites: WebsiteRepository; mutex: RedisMutex }) {}

  /** After a channel's deletion: no website lists it any more. */
  async detachChannel(organizationId: number, channelId: number): Promise<void> {
    const { websites, mutex } = this.deps;
    for (const id of await websites.idsListingChannel(organizationId, channelId)) {
      await mutex.withLock(websiteLock(id), async () => {
        const website = await websites.findByRef(organizationId, { id });
        if (!website?.notificationChannelIds.includes(channelId)) return;
        await websites.replace({
          ...website,
          notificationChannelIds: website.notificationChannelIds.filter((listed) => listed !== channelId),
          updatedAt: new Date(),
        });
      });
    }
  }

  countListingOutsideCustomer(
    organizationId: number,
    channelId: number,
    customerId: number,
  ): Promise<number> {
    return this.deps.websites.countListingChannelOutsideCustomer(organizationId, channelId, customerId);
  }
}
