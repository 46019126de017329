import { normalHost } from './source-check.js';

/** A website a check may go to: one the customer has, or one this import makes (no id in a dry run). */
export interface PlacementSite {
  id: number | null;
  publicId: string | null;
  name: string;
  url: string;
}

export type Placement =
  | { site: PlacementSite; via: 'host' | 'attachTo' | 'name' }
  | { site: null; reason: string };

const hostOfUrl = (url: string): string | null => {
  try {
    return normalHost(new URL(url).hostname);
  } catch {
    return null;
  }
};

/**
 * Where a check goes: the first website of its host (the customer's, then those this import makes,
 * as `sites` lists them), else the one `attachTo` names; a heartbeat, which has no host, to
 * `attachTo`, else a website of its name. Otherwise nowhere, with what to do about it.
 */
export function placeCheck(
  check: { host: string | null; name: string },
  sites: readonly PlacementSite[],
  attachTo: PlacementSite | null,
): Placement {
  if (check.host !== null) {
    const same = sites.find((site) => hostOfUrl(site.url) === check.host);
    if (same) return { site: same, via: 'host' };
    if (attachTo) return { site: attachTo, via: 'attachTo' };
    return {
      site: null,
      reason: `no website of host ${check.host} in the customer: import its website too, or choose one to attach monitors to (attachTo)`,
    };
  }
  if (attachTo) return { site: attachTo, via: 'attachTo' };
  const name = check.name.trim().toLowerCase();
  const named = name ? sites.find((site) => site.name.trim().toLowerCase() === name) : undefined;
  if (named) return { site: named, via: 'name' };
  return {
    site: null,
    reason: `a heartbeat has no host, and no website of the customer is named "${check.name}": choose one to attach monitors to (attachTo)`,
  };
}
