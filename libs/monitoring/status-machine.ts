import type { HealthStatus } from '../checks/index.js';

export type Health = HealthStatus | 'unknown';
/** What the API shows: the confirmed health, unless the website is paused or in maintenance. */
export type WebsiteStatus = Health | 'maintenance' | 'paused';

/** The recent results of one region. */
export interface RegionTrack {
  lastStatus: HealthStatus;
  consecutiveDown: number;
  consecutiveUp: number;
}

export interface MonitorState {
  health: Health;
  regions: Record<string, RegionTrack>;
}

export interface DecisionRules {
  confirmations: number;
  recoveryConfirmations: number;
  regionQuorum: number;
  /** The regions the website is checked from now. */
  regions: readonly string[];
}

export interface Decision {
  state: MonitorState;
  /** Set when the confirmed health changed. */
  change: { from: Health; to: Health } | null;
  incident: 'open' | 'resolve' | null;
  /** A down result not confirmed yet (or a recovery not confirmed yet): check again soon, not after a full interval. */
  recheckSoon: boolean;
}

export const INITIAL_STATE: MonitorState = { health: 'unknown', regions: {} };

function worstOf(statuses: HealthStatus[]): HealthStatus {
  if (statuses.includes('down')) return 'down';
  return statuses.includes('degraded') ? 'degraded' : 'up';
}

/**
 * The state after one result. A website becomes down only when `regionQuorum` regions (at most
 * as many as it is checked from) each saw `confirmations` down results in a row; it comes back when
 * that no longer holds and the reporting region saw `recoveryConfirmations` good results in a row.
 * Between those, up and degraded follow the latest good result of each region (worst wins).
 */
export function decide(
  state: MonitorState,
  result: { region: string; status: HealthStatus },
  rules: DecisionRules,
): Decision {
  const regions: Record<string, RegionTrack> = {};
  for (const region of rules.regions) {
    const track = state.regions[region];
    if (track) regions[region] = { ...track };
  }
  const previous = regions[result.region] ?? {
    lastStatus: result.status,
    consecutiveDown: 0,
    consecutiveUp: 0,
  };
  const down = result.status === 'down';
  const track: RegionTrack = {
    lastStatus: result.status,
    consecutiveDown: down ? previous.consecutiveDown + 1 : 0,
    consecutiveUp: down ? 0 : previous.consecutiveUp + 1,
  };
  regions[result.region] = track;

  const quorum = Math.min(Math.max(1, rules.regionQuorum), Math.max(1, rules.regions.length));
  const confirmedDown = Object.values(regions).filter((t) => t.consecutiveDown >= rules.confirmations).length;
  const goodHealth = worstOf(
    Object.values(regions)
      .map((t) => t.lastStatus)
      .filter((s) => s !== 'down'),
  );

  let health: Health = state.health;
  let recheckSoon = false;
  if (confirmedDown >= quorum) {
    health = 'down';
  } else if (state.health === 'down') {
    if (!down && track.consecutiveUp >= rules.recoveryConfirmations) health = goodHealth;
    else recheckSoon = true;
  } else if (down) {
    recheckSoon = true;
  } else {
    health = goodHealth;
  }

  const changed = health !== state.health;
  return {
    state: { health, regions },
    change: changed ? { from: state.health, to: health } : null,
    incident: changed && health === 'down' ? 'open' : changed && state.health === 'down' ? 'resolve' : null,
    recheckSoon,
  };
}

/** What the API reports for a website. */
export function reportedStatus(
  health: Health,
  website: { paused: boolean; inMaintenance: boolean },
): WebsiteStatus {
  if (website.paused) return 'paused';
  return website.inMaintenance ? 'maintenance' : health;
}

export type StatusEventKind = 'website.down' | 'website.up' | 'website.degraded';

/** The notification a health change calls for; none for the first result of a new website unless it is down. */
export function eventFor(change: { from: Health; to: Health }): StatusEventKind | null {
  if (change.to === 'down') return 'website.down';
  if (change.from === 'unknown') return null;
  if (change.to === 'degraded') return 'website.degraded';
  return change.to === 'up' ? 'website.up' : null;
}
