import type { CheckResult, HealthStatus } from '../checks/index.js';
import type { EventKind } from '../events/index.js';
import { expiryCrossings } from './expiry-alerts.js';
import type { MonitorStateDocument } from './monitor-state.js';
import { reminderDue } from './reminders.js';
import {
  type DecisionRules,
  decide,
  type HealthChange,
  reevaluate,
  reportedStatus,
  settle,
  type WebsiteStatus,
} from './status-machine.js';

/**
 * The one place that decides which events a website's monitor tells, and how its state moves:
 * after a result, at a maintenance boundary, and when the regions it is checked from change. Pure:
 * the repository carries an outcome out (incident, events, save) under the website's monitor lock.
 */

/** An event to tell, before the I/O layer adds the website, incident and result to it. */
export interface PlannedEvent {
  type: EventKind;
  previousStatus: string;
  status: string;
  /** A website.down telling again that it is still down. */
  reminder?: true;
}

export interface MonitorOutcome {
  state: MonitorStateDocument;
  incident: 'open' | 'resolve' | null;
  events: PlannedEvent[];
  /** Check again soon (a failure or recovery still to confirm). */
  recheckSoon: boolean;
}

/** The event a change of the health told to subscribers calls for; none for a new website's first good result. */
export function statusEventFor(
  change: HealthChange,
): 'website.down' | 'website.up' | 'website.degraded' | null {
  if (change.to === 'down') return 'website.down';
  if (change.from === 'unknown') return null;
  if (change.to === 'degraded') return 'website.degraded';
  return change.to === 'up' ? 'website.up' : null;
}

function statusEvents(notification: HealthChange | null): PlannedEvent[] {
  const type = notification && statusEventFor(notification);
  return notification && type ? [{ type, previousStatus: notification.from, status: notification.to }] : [];
}

/** The state with `status` as what the API reports, keeping when it began if it did not change. */
export function withReported(
  state: MonitorStateDocument,
  status: WebsiteStatus,
  at: Date,
): MonitorStateDocument {
  return state.reported?.status === status ? state : { ...state, reported: { status, since: at } };
}

export interface ResultFacts {
  /** The stored result's id (a region's first failure names it). */
  id?: string;
  region: string;
  status: HealthStatus;
  startedAt: Date;
  inMaintenance: boolean;
  checks: ReadonlyArray<Pick<CheckResult, 'name' | 'outcome'>>;
  /** What a down result says went wrong. */
  cause: string | null;
}

/** One result: the status machine, expiry crossings (none told inside maintenance) and reminders. */
export function afterResult(
  state: MonitorStateDocument,
  result: ResultFacts,
  rules: DecisionRules & { reminderIntervalMinutes: number },
): MonitorOutcome {
  const { inMaintenance, startedAt } = result;
  const decision = decide(
    state,
    {
      region: result.region,
      status: result.status,
      inMaintenance,
      at: startedAt.getTime(),
      ...(result.id === undefined ? {} : { id: result.id }),
    },
    rules,
  );
  const expiry = inMaintenance
    ? { marks: state.expiry, events: [] }
    : expiryCrossings(state.expiry, result.checks);
  let next: MonitorStateDocument = {
    ...state,
    ...decision.state,
    lastResultAt: startedAt,
    lastCause: result.status === 'down' ? result.cause : state.lastCause,
    since: decision.change ? startedAt : state.since,
    expiry: expiry.marks,
  };
  const events = statusEvents(decision.notification);
  // A change told now starts the reminder clock again (from `since`).
  if (decision.notification) next.remindedAt = null;
  else if (reminderDue(next, startedAt, rules.reminderIntervalMinutes, inMaintenance)) {
    events.push({ type: 'website.down', previousStatus: 'down', status: 'down', reminder: true });
    next.remindedAt = startedAt;
  }
  for (const type of expiry.events) events.push({ type, previousStatus: next.health, status: next.health });
  next = withReported(next, reportedStatus(next.health, { paused: false, inMaintenance }), startedAt);
  return { state: next, incident: decision.incident, events, recheckSoon: decision.recheckSoon };
}

/**
 * A maintenance boundary: `maintenance.started` when it begins; at its end `maintenance.ended`,
 * then one status event when the health differs from the one last told.
 */
export function atMaintenanceBoundary(
  state: MonitorStateDocument,
  boundary: { active: boolean; at: Date; paused: boolean },
): MonitorOutcome {
  const unchanged = { state, incident: null, events: [], recheckSoon: false };
  if (boundary.active === state.maintenanceActive) return unchanged;
  const health = reportedStatus(state.health, { paused: boundary.paused, inMaintenance: false });
  if (boundary.active)
    return {
      ...unchanged,
      state: withReported({ ...state, maintenanceActive: true }, 'maintenance', boundary.at),
      events: [{ type: 'maintenance.started', previousStatus: health, status: 'maintenance' }],
    };
  const settlement = settle(state);
  return {
    state: withReported({ ...state, ...settlement.state, maintenanceActive: false }, health, boundary.at),
    incident: settlement.incident,
    events: [
      { type: 'maintenance.ended', previousStatus: 'maintenance', status: health },
      ...statusEvents(settlement.notification),
    ],
    recheckSoon: false,
  };
}

/** Where the website stands after its regions changed. */
export interface PlacementFacts {
  at: Date;
  rules: DecisionRules;
  inMaintenance: boolean;
  paused: boolean;
  cancelled: boolean;
  /** Whether it was, and is now, meant to be checked but has no serving region. */
  wasUnmonitored: boolean;
  unmonitored: boolean;
}

/**
 * The regions a website is checked from changed (a region stopped or started serving, the website
 * was paused, its customer cancelled): the health is decided again over the fresh regions left,
 * and `website.unmonitored` / `website.monitored` tell when checking stops and resumes.
 */
export function afterPlacement(state: MonitorStateDocument, facts: PlacementFacts): MonitorOutcome {
  const decision = reevaluate(state, facts.rules, facts.at.getTime(), facts.inMaintenance);
  const status = (unmonitored: boolean, health = decision.state.health) =>
    reportedStatus(health, {
      paused: facts.paused,
      cancelled: facts.cancelled,
      unmonitored,
      inMaintenance: facts.inMaintenance,
    });
  const events = statusEvents(decision.notification);
  if (!facts.wasUnmonitored && facts.unmonitored)
    events.unshift({
      type: 'website.unmonitored',
      previousStatus: status(false, state.health),
      status: 'unmonitored',
    });
  else if (facts.wasUnmonitored && !facts.unmonitored && !facts.paused && !facts.cancelled)
    events.push({ type: 'website.monitored', previousStatus: 'unmonitored', status: status(false) });
  const next: MonitorStateDocument = {
    ...state,
    ...decision.state,
    since: decision.change ? facts.at : state.since,
  };
  return {
    state: withReported(next, status(facts.unmonitored), facts.at),
    incident: decision.incident,
    events,
    recheckSoon: false,
  };
}
