import { inMaintenanceAt, type MonitorStateDocument } from './monitor-state.js';
import type { MonitorSubject } from './transition-effects.js';

/**
 * Whether a transition changed what the overview shows of its website beyond the check the feed
 * tells anyway: another monitor's health (the row's count of monitors down), or the website's
 * reported status (maintenance starting or ending, placement, a status decided without a check).
 */
export function overviewShowsChange(
  subject: Pick<MonitorSubject, 'monitor'>,
  before: MonitorStateDocument,
  after: MonitorStateDocument,
  at: Date,
): boolean {
  if (subject.monitor) return before.health !== after.health;
  return (
    inMaintenanceAt(before, at) !== inMaintenanceAt(after, at) ||
    (before.reported?.status ?? before.health) !== (after.reported?.status ?? after.health)
  );
}
