import type { HealthStatus } from '../checks/index.js';
import { WEBSITE_STATUSES } from '../events/index.js';

export { WEBSITE_STATUSES };

export type Health = HealthStatus | 'unknown';

/** What the API shows: the confirmed health, unless something keeps the website from being checked. */
export type WebsiteStatus = (typeof WEBSITE_STATUSES)[number];

/** The recent results of one region. */
export interface RegionTrack {
  lastStatus: HealthStatus;
  consecutiveDown: number;
  consecutiveUp: number;
  /** When its latest result started (epoch ms); tracks from before this was kept count as fresh. */
  lastResultAt?: number;
  /** While down: when its first down result in a row started (epoch ms), and that result's id. */
  downSince?: number;
  firstDownResultId?: string;
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
  /**
   * A region's results count while its latest is at most this old (2 intervals plus the re-check
   * delay): a region that stopped reporting neither holds a status nor blocks a recovery.
   */
  freshWithinMs: number;
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

/** The tracks of the regions the website is checked from now. */
function tracksOf(state: MonitorState, regions: readonly string[]): Record<string, RegionTrack> {
  const tracks: Record<string, RegionTrack> = {};
  for (const region of regions) {
    const track = state.regions[region];
    if (track) tracks[region] = { ...track };
  }
  return tracks;
}

/** How long a region's latest result counts: two intervals and a re-check (one missed check is not silence). */
export function freshWindowMs(intervalMs: number, recheckDelayMs: number): number {
  return 2 * intervalMs + recheckDelayMs;
}

/** Whether a region's results still count at `now`. */
export function isFresh(track: RegionTrack, now: number, freshWithinMs: number): boolean {
  return track.lastResultAt === undefined || now - track.lastResultAt <= freshWithinMs;
}

/** What the fresh regions say together: how many confirm down, and the health of the others. */
function tally(tracks: Record<string, RegionTrack>, now: number, rules: DecisionRules) {
  const fresh = Object.values(tracks).filter((track) => isFresh(track, now, rules.freshWithinMs));
  // Never more regions than are fresh: a quorum must not wait for regions that stopped reporting.
  const quorum = Math.min(Math.max(1, rules.regionQuorum), Math.max(1, fresh.length));
  return {
    fresh,
    confirmedDown: fresh.filter((t) => t.consecutiveDown >= rules.confirmations).length >= quorum,
    goodHealth: worstOf(fresh.map((t) => t.lastStatus).filter((s) => s !== 'down')),
  };
}

function concluded(
  state: MonitorState,
  health: Health,
  regions: Record<string, RegionTrack>,
  inMaintenance: boolean,
  recheckSoon: boolean,
): Decision {
  const change = health !== state.health ? { from: state.health, to: health } : null;
  const next: MonitorState = { health, notifiedHealth: state.notifiedHealth, regions };
  // Inside maintenance the health is still followed, but nobody is told and no incident opens.
  const settled = inMaintenance ? { state: next, notification: null, incident: null } : settle(next);
  return { ...settled, change, recheckSoon };
}

/**
 * The state after one result. A website becomes down only when `regionQuorum` fresh regions (at
 * most as many as are fresh) each saw `confirmations` down results in a row; it comes back when
 * that no longer holds and the reporting region saw `recoveryConfirmations` good results in a row.
 * Between those, up and degraded follow the latest good result of each fresh region (worst wins).
 */
export function decide(
  state: MonitorState,
  result: { region: string; status: HealthStatus; inMaintenance: boolean; at: number; id?: string },
  rules: DecisionRules,
): Decision {
  const regions = tracksOf(state, rules.regions);
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
    lastResultAt: result.at,
  };
  if (down) {
    // The first down result of a run: an incident shows its evidence as the region's first failure.
    const first = previous.consecutiveDown === 0 || previous.downSince === undefined;
    track.downSince = first ? result.at : previous.downSince;
    const firstId = first ? result.id : previous.firstDownResultId;
    if (firstId !== undefined) track.firstDownResultId = firstId;
  }
  regions[result.region] = track;
  const { confirmedDown, goodHealth } = tally(regions, result.at, rules);

  let health: Health = state.health;
  let recheckSoon = false;
  if (confirmedDown) {
    health = 'down';
  } else if (state.health === 'down') {
    if (!down && track.consecutiveUp >= rules.recoveryConfirmations) health = goodHealth;
    else recheckSoon = true;
  } else if (down) {
    recheckSoon = true;
  } else {
    health = goodHealth;
  }
  return concluded(state, health, regions, result.inMaintenance, recheckSoon);
}

/**
 * The state when the regions or their freshness changed without a new result (a region stopped
 * serving): decided over the fresh regions as they stand. A website that is down recovers when no
 * quorum confirms down any more and some fresh region saw `recoveryConfirmations` good results.
 */
export function reevaluate(
  state: MonitorState,
  rules: DecisionRules,
  now: number,
  inMaintenance: boolean,
): Decision {
  const regions = tracksOf(state, rules.regions);
  const { fresh, confirmedDown, goodHealth } = tally(regions, now, rules);
  let health: Health = state.health;
  if (confirmedDown && fresh.length > 0) health = 'down';
  else if (
    fresh.some((t) => t.lastStatus !== 'down') &&
    (state.health !== 'down' || fresh.some((t) => t.consecutiveUp >= rules.recoveryConfirmations))
  )
    health = goodHealth;
  return concluded(state, health, regions, inMaintenance, false);
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

/** What the API reports for a website: why it is not checked, else maintenance, else its health. */
export function reportedStatus(
  health: Health,
  website: { paused: boolean; inMaintenance: boolean; cancelled?: boolean; unmonitored?: boolean },
): WebsiteStatus {
  if (website.cancelled) return 'cancelled';
  if (website.paused) return 'paused';
  if (website.unmonitored) return 'unmonitored';
  return website.inMaintenance ? 'maintenance' : health;
}
