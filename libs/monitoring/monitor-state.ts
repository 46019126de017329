import { type ExpiryMarks, NO_EXPIRY_MARKS } from './expiry-alerts.js';
import { INITIAL_STATE, type MonitorState, type WebsiteStatus } from './status-machine.js';

/** A stretch of maintenance (the maintenance module computes it from the windows). */
export interface MaintenanceSpanState {
  windowId: number;
  startsAt: Date;
  endsAt: Date;
}

export interface MonitorStateDocument extends MonitorState {
  organizationId: number;
  websiteId: number;
  /** When the confirmed health last changed. */
  since: Date | null;
  /** What the API reports and since when (health, maintenance, paused, cancelled, unmonitored). */
  reported: { status: WebsiteStatus; since: Date } | null;
  lastResultAt: Date | null;
  openIncidentId: string | null;
  /** What the latest down result said (error or failed checks): the cause of an incident it opens. */
  lastCause: string | null;
  /** The maintenance span running now or coming next, kept by the maintenance boundary jobs. */
  maintenance: MaintenanceSpanState | null;
  /** Whether `maintenance.started` went out and `maintenance.ended` did not yet. */
  maintenanceActive: boolean;
  /** When the planned boundary job fires (the start or end of `maintenance`). */
  maintenanceBoundaryAt: Date | null;
  /** What was told about the certificate and domain expiry (events fire on crossings only). */
  expiry: ExpiryMarks;
  /** When the last reminder that the website is still down went out (null: none since it went down). */
  remindedAt: Date | null;
  /** What of this state is in MongoDB (the durable fingerprint) and since when; null: nothing yet. */
  persisted: { fingerprint: string; at: Date } | null;
}

/**
 * Whether a check at `at` is inside maintenance: inside the span (even if its start job is late),
 * or after `maintenance.started` until `maintenance.ended` went out (so the end is told once, by
 * the job, before any result outside the window).
 */
export function inMaintenanceAt(state: MonitorStateDocument, at: Date): boolean {
  const span = state.maintenance;
  const time = at.getTime();
  return (
    state.maintenanceActive ||
    (span !== null && span.startsAt.getTime() <= time && time < span.endsAt.getTime())
  );
}

/** The state of a website nothing is known of yet. */
export function initialMonitorState(organizationId: number, websiteId: number): MonitorStateDocument {
  return {
    ...INITIAL_STATE,
    organizationId,
    websiteId,
    since: null,
    reported: null,
    lastResultAt: null,
    openIncidentId: null,
    lastCause: null,
    maintenance: null,
    maintenanceActive: false,
    maintenanceBoundaryAt: null,
    expiry: NO_EXPIRY_MARKS,
    remindedAt: null,
    persisted: null,
  };
}
