import { MAX_WINDOW_DAYS, occurrences, type WindowSchedule } from './recurrence.js';

/** A stretch of maintenance: one occurrence, or several that overlap or touch, merged. */
export interface MaintenanceSpan {
  /** The window whose occurrence opens the span. */
  windowId: number;
  startsAt: Date;
  endsAt: Date;
}

const DAY_MS = 86_400_000;
/** How far ahead spans are looked for and merged; a boundary job beyond it re-plans on firing. */
const HORIZON_MS = 2 * MAX_WINDOW_DAYS * DAY_MS;

/**
 * The maintenance span running at `at` (startsAt ≤ at < endsAt) or, when none is, the next one to
 * start; null when no window has an occurrence left. Occurrences that overlap or touch merge, so
 * back-to-back windows make one span (no "ended" then "started" at the seam). A span reaching past
 * the horizon is cut there: the boundary job at the cut finds the span still running and re-plans.
 */
export function maintenanceSpan(
  windows: ReadonlyArray<WindowSchedule & { id: number }>,
  at: Date,
): MaintenanceSpan | null {
  const time = at.getTime();
  const horizon = time + HORIZON_MS;
  const candidates: MaintenanceSpan[] = [];
  for (const window of windows) {
    for (const occurrence of occurrences(window, at)) {
      if (occurrence.startsAt.getTime() > horizon) break;
      if (occurrence.endsAt.getTime() > time) candidates.push({ windowId: window.id, ...occurrence });
    }
  }
  candidates.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.windowId - b.windowId);
  const [first, ...rest] = candidates;
  if (!first) return null;
  const span = { ...first };
  for (const next of rest) {
    if (next.startsAt.getTime() > span.endsAt.getTime()) break;
    if (next.endsAt.getTime() > span.endsAt.getTime()) span.endsAt = next.endsAt;
  }
  if (span.endsAt.getTime() > horizon) span.endsAt = new Date(horizon);
  return span;
}

/** Whether `at` lies inside the span. */
export function spanCovers(span: { startsAt: Date; endsAt: Date } | null, at: Date): boolean {
  return span !== null && span.startsAt.getTime() <= at.getTime() && at.getTime() < span.endsAt.getTime();
}

/** When the state of maintenance next changes for a span: its end when running, else its start. */
export function spanBoundary(span: MaintenanceSpan | null, at: Date): Date | null {
  if (!span) return null;
  return spanCovers(span, at) ? span.endsAt : span.startsAt;
}
