/**
 * Whether a website still down should be told again: the package's `reminderIntervalMinutes`
 * (0: never) since it went down or since the last reminder, with the down told to subscribers
 * and no maintenance going on.
 */
export function reminderDue(
  state: { notifiedHealth: string; since: Date | null; remindedAt: Date | null },
  at: Date,
  intervalMinutes: number,
  inMaintenance: boolean,
): boolean {
  if (intervalMinutes <= 0 || inMaintenance || state.notifiedHealth !== 'down') return false;
  const last = state.remindedAt ?? state.since;
  return last !== null && at.getTime() - last.getTime() >= intervalMinutes * 60_000;
}
