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
  /** The health subscribers were last told of (changes inside maintenance are told at its end). */
  notifiedHealth: Health;
  regions: Record<string, RegionTrack>;
}

export interface DecisionRules {
  confirmations: number;
  recoveryConfirmations: number;
  regionQuorum: number;
  /** The regions the website is checked from now. */
  regions: readonly string[];
}

export interface HealthChange {
  from: Health;
  to: Health;
}

/** What subscribers are told, and the incident that goes with it. */
export interface Settlement {
  state: MonitorState;
  /** Set when the health differs from the one last notified. */
  notification: HealthChange | null;
  incident: 'open' | 'resolve' | null;
}

export interface Decision extends Settlement {
  /** Set when the confirmed health changed (notified or not). */
  change: HealthChange | null;
  /** A down result not confirmed yet (or a recovery not confirmed yet): check again soon, not after a full interval. */
  recheckSoon: boolean;
}

export const INITIAL_STATE: MonitorState = { health: 'unknown', notifiedHealth: 'unknown', regions: {} };

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
  result: { region: string; status: HealthStatus; inMaintenance: boolean },
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

  const change = health !== state.health ? { from: state.health, to: health } : null;
  const next: MonitorState = { health, notifiedHealth: state.notifiedHealth, regions };
  // Inside maintenance the health is still followed, but nobody is told and no incident opens.
  const settled = result.inMaintenance ? { state: next, notification: null, incident: null } : settle(next);
  return { ...settled, change, recheckSoon };
}

/**
 * Tells subscribers the confirmed health when it differs from the one they know: after every
 * result outside maintenance, and once when a maintenance window ends. An incident opens when the
 * notified health becomes down and resolves when it leaves down.
 */
export function settle(state: MonitorState): Settlement {
  if (state.health === state.notifiedHealth) return { state, notification: null, incident: null };
  const notification = { from: state.notifiedHealth, to: state.health };
  return {
    state: { ...state, notifiedHealth: state.health },
    notification,
    incident: notification.to === 'down' ? 'open' : notification.from === 'down' ? 'resolve' : null,
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
export function eventFor(change: HealthChange): StatusEventKind | null {
  if (change.to === 'down') return 'website.down';
  if (change.from === 'unknown') return null;
  if (change.to === 'degraded') return 'website.degraded';
  return change.to === 'up' ? 'website.up' : null;
}
