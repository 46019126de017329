import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type Schedule = Schemas['OnCallSchedule'];
export type OnCallPerson = Schemas['OnCallPerson'];
export type Override = Schemas['OnCallOverride'];
export type OnCallNow = Schemas['OnCallNow'];
export type Shift = Schemas['OnCallShifts']['shifts'][number];

/** The schedules' queries: everything of one schedule under `['schedules', id]`, so a write refreshes it all. */
export const scheduleKeys = {
  all: ['schedules'] as const,
  one: (id: number) => ['schedules', id] as const,
  people: ['schedules', 'people'] as const,
  feeds: ['schedules', 'feeds'] as const,
};

/** How often who is on call is read again while shown: a handoff shows within a minute. */
const ON_CALL_POLL_MS = 60_000;

export function useSchedules(): Loaded<Schedule[]> {
  return useApiQuery(scheduleKeys.all, async () => must(await api.GET('/api/schedules')));
}

/** One schedule; null for a new one (nothing to read). */
export function useSchedule(id: number | null): Loaded<Schedule | null> {
  const loaded = useApiQuery(
    scheduleKeys.one(id ?? 0),
    async () => must(await api.GET('/api/schedules/{id}', { params: { path: { id: id ?? 0 } } })),
    { enabled: id !== null },
  );
  return id === null ? { ...loaded, data: null } : loaded;
}

/** Who can be on call: the organization's people but client users. */
export function useOnCallPeople(): Loaded<OnCallPerson[]> {
  return useApiQuery(scheduleKeys.people, async () => must(await api.GET('/api/schedules/people')));
}

export function useOnCall(id: number): Loaded<OnCallNow> {
  return useApiQuery(
    [...scheduleKeys.one(id), 'on-call'],
    async () => must(await api.GET('/api/schedules/{id}/on-call', { params: { path: { id } } })),
    { pollMs: ON_CALL_POLL_MS },
  );
}

/** Who is on call through [from, to) (ISO instants). */
export function useShifts(id: number, from: string, to: string): Loaded<Shift[]> {
  return useApiQuery([...scheduleKeys.one(id), 'shifts', from, to], async () => {
    const answer = must(
      await api.GET('/api/schedules/{id}/shifts', { params: { path: { id }, query: { from, to } } }),
    );
    return answer.shifts;
  });
}

export function useOverrides(id: number): Loaded<Override[]> {
  return useApiQuery([...scheduleKeys.one(id), 'overrides'], async () =>
    must(await api.GET('/api/schedules/{id}/overrides', { params: { path: { id } } })),
  );
}

/** The signed-in person's calendar feed links (people only: a pasted token has none). */
export function useMyFeeds(enabled: boolean): Loaded<Schemas['OnCallFeeds']['feeds']> {
  return useApiQuery(scheduleKeys.feeds, async () => must(await api.GET('/api/me/on-call-feeds')).feeds, {
    enabled,
  });
}
