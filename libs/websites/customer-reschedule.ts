import type { CustomerWithPackage } from '../customers/index.js';
import type { RedisMutex } from '../locks/index.js';
import { type WebsiteRepository, websiteLock } from './website.repository.js';
import type { WebsiteScheduling } from './website-scheduling.js';

/**
 * Brings the schedules of a customer's websites in line with its state and package (a package
 * changed, a cancellation came), one website lock at a time.
 */
export async function rescheduleWebsitesOf(
  deps: { websites: WebsiteRepository; mutex: RedisMutex; scheduling: WebsiteScheduling },
  owner: CustomerWithPackage,
): Promise<void> {
  const { organizationId, id: customerId } = owner.customer;
  for (const { id } of await deps.websites.listByCustomer(organizationId, customerId)) {
    await deps.mutex.withLock(websiteLock(id), async () => {
      const website = await deps.websites.findByRef(organizationId, { id });
      if (website) await deps.scheduling.sync(website, owner.customer, owner.pkg);
    });
  }
}
