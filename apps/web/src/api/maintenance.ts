import { api, must, type Schemas } from './client.js';
import { allWebsites, type WebsiteSummary } from './organization.js';
import { type Loaded, useApiQuery } from './query.js';

export type MaintenanceWindow = Schemas['MaintenanceWindow'];

/** The windows' queries: a website's under `['maintenance', websiteId]`, every one under `['maintenance']`. */
export const maintenanceKeys = {
  all: ['maintenance'] as const,
  ofWebsite: (websiteId: number) => ['maintenance', websiteId] as const,
};

export function useWebsiteWindows(websiteId: number): Loaded<MaintenanceWindow[]> {
  return useApiQuery(maintenanceKeys.ofWebsite(websiteId), async () =>
    must(await api.GET('/api/maintenance-windows', { params: { query: { websiteId } } })),
  );
}

/**
 * Every window of the organization, website by website (the API lists them per website, six
 * asked at once); told how many websites are read so far.
 */
export async function windowsOfEveryWebsite(
  onProgress: (progress: { done: number; of: number }) => void,
): Promise<Array<{ website: WebsiteSummary; windows: MaintenanceWindow[] }>> {
  const websites = await allWebsites();
  const found: Array<{ website: WebsiteSummary; windows: MaintenanceWindow[] }> = [];
  let done = 0;
  onProgress({ done, of: websites.length });
  const queue = [...websites];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let website = queue.shift(); website; website = queue.shift()) {
        const { data } = await api.GET('/api/maintenance-windows', {
          params: { query: { websiteId: website.id } },
        });
        if (data?.length) found.push({ website, windows: data });
        onProgress({ done: ++done, of: websites.length });
      }
    }),
  );
  return found.sort((a, b) => a.website.name.localeCompare(b.website.name));
}
