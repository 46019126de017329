/** A span of time, in ms since the epoch: [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** The spans merged where they overlap or touch, in order. */
export function unionOf(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Milliseconds of `spans` (merged) inside `within`. */
export function coveredMs(spans: readonly Span[], within: Span): number {
  let total = 0;
  for (const span of unionOf(spans)) {
    const start = Math.max(span.start, within.start);
    const end = Math.min(span.end, within.end);
    if (end > start) total += end - start;
  }
  return total;
}

/** Milliseconds inside both sets of spans (each merged first), within `within`. */
export function overlapMs(a: readonly Span[], b: readonly Span[], within: Span): number {
  const left = unionOf(a);
  const right = unionOf(b);
  let total = 0;
  for (const x of left)
    for (const y of right) {
      const start = Math.max(x.start, y.start, within.start);
      const end = Math.min(x.end, y.end, within.end);
      if (end > start) total += end - start;
    }
  return total;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Uptime of a window, the one computation behind GET /api/websites/{id}/uptime, the status pages
 * and the client reports: down time is time inside a down incident (an open one until `now`).
 *
 * - uptime % = 100 × (1 − down / window)
 * - SLA uptime % = 100 × (1 − (down − down in maintenance) / (window − maintenance)): time in a
 *   maintenance window counts neither as up nor as down.
 *
 * Percentages to three decimals; null for an empty window (or one all maintenance).
 */
export function availability(input: {
  window: Span;
  incidents: ReadonlyArray<{ startedAt: Date; resolvedAt: Date | null }>;
  maintenance?: readonly Span[];
  now: number;
}) {
  const { window } = input;
  const windowMs = Math.max(0, window.end - window.start);
  const down = input.incidents.map((incident) => ({
    start: incident.startedAt.getTime(),
    end: incident.resolvedAt?.getTime() ?? input.now,
  }));
  const downMs = coveredMs(down, window);
  const maintenanceMs = coveredMs(input.maintenance ?? [], window);
  const downInMaintenanceMs = overlapMs(down, input.maintenance ?? [], window);
  const slaWindowMs = windowMs - maintenanceMs;
  return {
    windowSeconds: Math.round(windowMs / 1000),
    downtimeSeconds: Math.round(downMs / 1000),
    maintenanceSeconds: Math.round(maintenanceMs / 1000),
    slaDowntimeSeconds: Math.round((downMs - downInMaintenanceMs) / 1000),
    uptimePercent: windowMs <= 0 ? null : round3((1 - downMs / windowMs) * 100),
    slaUptimePercent:
      slaWindowMs <= 0 ? null : round3((1 - (downMs - downInMaintenanceMs) / slaWindowMs) * 100),
  };
}
