import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DependencyRepository, dependencyRevisions } from '../libs/dependencies/index.js';
import { useStores } from './support/stores.js';

/**
 * Which websites dependencies concern, as a notifier keeps it per organization (every other
 * event passes the dependency gate without a read): on real FerretDB and Redis, a dependency set
 * through another process (the API) and an alert held elsewhere show at the next read.
 */
describe("an organization's dependency involvement, kept while its revision holds", () => {
  const stores = useStores();
  const prefix = `involvement-${randomUUID()}`;
  const organizationId = 41;

  const repository = () =>
    new DependencyRepository(stores.client.db(), dependencyRevisions(stores.redis, prefix));
  const sets = async (
    found: Promise<{ children: ReadonlySet<number>; parentWebsites: ReadonlySet<number> }>,
  ) => {
    const { children, parentWebsites } = await found;
    return { children: [...children].sort(), parentWebsites: [...parentWebsites].sort() };
  };

  it('shows a dependency written by another process, and an alert held by another notifier', async () => {
    const notifier = repository();
    const api = repository();
    expect(await sets(notifier.involvement(organizationId))).toEqual({ children: [], parentWebsites: [] });
    await api.replace(organizationId, 5, [{ websiteId: 1 }, { monitorId: 7 }]);
    expect(await sets(notifier.involvement(organizationId))).toEqual({ children: [5], parentWebsites: [1] });
    expect([...(await notifier.involvement(organizationId)).parentMonitors]).toEqual([7]);
    // A child whose parents were removed while its alert is held is still one: its recovery ends the hold.
    await api.replace(organizationId, 5, []);
    await repository().hold({
      _id: randomUUID(),
      organizationId,
      websiteId: 5,
      payload: {
        id: randomUUID(),
        type: 'website.down',
        createdAt: new Date().toISOString(),
        organizationId,
        data: { website: null, previousStatus: 'up', status: 'down', incident: null, result: null },
      },
      heldBy: ['w1'],
      heldAt: new Date(),
    });
    expect(await sets(notifier.involvement(organizationId))).toEqual({ children: [5], parentWebsites: [] });
    // Another organization's dependencies are not this one's.
    expect(await sets(notifier.involvement(organizationId + 1))).toEqual({
      children: [],
      parentWebsites: [],
    });
  });
});
