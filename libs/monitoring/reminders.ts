/**
 * Whether a website still down should be told again: the package's `reminderIntervalMinutes`
 * (0: never) since it went down or since the last reminder, with the down told to subscribers,
 * no maintenance going on, and its incident not acknowledged (someone is on it).
 */
export function reminderDue(
  state: {
    notifiedHealth: string;
    since: Date | null;
    remindedAt: Date | null;
    openIncidentId: string | null;
    acknowledgedIncidentId: string | null;
  },
  at: Date,
  intervalMinutes: number,
  inMaintenance: boolean,
): boolean {
  if (intervalMinutes <= 0 || inMaintenance || state.notifiedHealth !== 'down') return false;
  if (state.openIncidentId !== null && state.acknowledgedIncidentId === state.openIncidentId) return false;
  const last = state.remindedAt ?? state.since;
  return last !== null && at.getTime() - last.getTime() >= intervalMinutes * 60_000;
}
