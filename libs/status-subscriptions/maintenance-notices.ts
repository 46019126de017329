import { type MaintenanceWindowDocument, type Occurrence, occurrences } from '../maintenance/index.js';
import type { NoticeKind, PageNotice } from './notice.js';

const DAY_MS = 86_400_000;
/** A phase is told up to this long after it began (a notifier down for a while catches up); older is past. */
export const MAINTENANCE_TELL_WITHIN_MS = 15 * 60_000;
/** Occurrences of one window looked at ahead (a daily window announced a week ahead: 7). */
const OCCURRENCES_AHEAD = 10;

export type MaintenancePhase = 'scheduled' | 'started' | 'ended';

const KIND: Record<MaintenancePhase, NoticeKind> = {
  scheduled: 'maintenance.scheduled',
  started: 'maintenance.started',
  ended: 'maintenance.ended',
};
const REPEATS = {
  daily: 'It repeats daily; you are told of it once.',
  weekly: 'It repeats weekly; you are told of it once.',
  monthly: 'It repeats monthly; you are told of it once.',
} as const;
const STATUS: Record<MaintenancePhase, string> = {
  scheduled: 'Scheduled',
  started: 'In progress',
  ended: 'Completed',
};

/**
 * The phase of an occurrence to tell at `now`, or null: announced once it is `noticeDays` ahead (and
 * not yet begun), started while it runs, ended just after. One first seen after it began is not
 * announced late; each phase is told within `MAINTENANCE_TELL_WITHIN_MS` of when it began, or never.
 */
export function phaseToTell(occurrence: Occurrence, now: Date, noticeDays: number): MaintenancePhase | null {
  const at = now.getTime();
  const starts = occurrence.startsAt.getTime();
  const ends = occurrence.endsAt.getTime();
  if (at >= ends) return at - ends < MAINTENANCE_TELL_WITHIN_MS ? 'ended' : null;
  if (at >= starts) return at - starts < MAINTENANCE_TELL_WITHIN_MS ? 'started' : null;
  return starts - at <= noticeDays * DAY_MS ? 'scheduled' : null;
}

/** The notices due at `now` for a page's maintenance windows: one per occurrence and phase, told once by id. */
export function maintenanceNotices(input: {
  page: { organizationId: number; id: number; maintenanceNoticeDays: number };
  windows: readonly MaintenanceWindowDocument[];
  websiteNames: ReadonlyMap<number, string>;
  now: Date;
}): PageNotice[] {
  const { page, now } = input;
  const notices: PageNotice[] = [];
  const from = new Date(now.getTime() - MAINTENANCE_TELL_WITHIN_MS);
  for (const window of input.windows) {
    if (!input.websiteNames.has(window.websiteId)) continue;
    let seen = 0;
    for (const occurrence of occurrences(window, from)) {
      if (occurrence.startsAt.getTime() - now.getTime() > page.maintenanceNoticeDays * DAY_MS) break;
      if (++seen > OCCURRENCES_AHEAD) break;
      const phase = phaseToTell(occurrence, now, page.maintenanceNoticeDays);
      if (!phase) continue;
      // A repeating window is told once (its next occurrence, as it repeats), again only when changed:
      // a daily window told three times a day would be spam.
      if (window.recurrence && phase !== 'scheduled') continue;
      const told = window.recurrence ? `${window.updatedAt.getTime()}` : `${occurrence.startsAt.getTime()}`;
      notices.push({
        _id: `maintenance:${page.id}:${window.id}:${told}:${phase}`,
        organizationId: page.organizationId,
        pageId: page.id,
        kind: KIND[phase],
        title: window.title,
        status: STATUS[phase],
        text: window.recurrence ? REPEATS[window.recurrence.frequency] : '',
        html: window.recurrence ? `<p>${REPEATS[window.recurrence.frequency]}</p>` : '',
        components: [window.websiteId],
        componentNames: [input.websiteNames.get(window.websiteId) ?? ''],
        path: null,
        at: phase === 'ended' ? occurrence.endsAt : phase === 'started' ? occurrence.startsAt : now,
        window: { startsAt: occurrence.startsAt, endsAt: occurrence.endsAt },
        state: 'mailing',
        sent: 0,
        finishedAt: null,
        createdAt: now,
      });
      if (window.recurrence) break;
    }
  }
  return notices;
}
