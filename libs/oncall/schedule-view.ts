import type { z } from 'zod';
import type { ScheduleDocument, StoredOverride } from './schedule.repository.js';
import type { overrideView, scheduleView } from './schedule.schema.js';
import { type OnCallPerson, participantsOf } from './schedule.service.js';

/** A schedule as the API shows it, with the people it names who are still the organization's. */
export function toScheduleView(
  schedule: ScheduleDocument,
  people: readonly OnCallPerson[],
): z.input<typeof scheduleView> {
  const named = new Set(participantsOf(schedule));
  return {
    id: schedule.id,
    name: schedule.name,
    timezone: schedule.timezone,
    layers: schedule.layers.map(({ participants, rotation }) => ({
      participants,
      rotation: {
        length: rotation.length,
        handoff: rotation.handoff,
        startsAt: rotation.startsAt.toISOString(),
        endsAt: rotation.endsAt?.toISOString() ?? null,
      },
    })),
    people: people.filter((person) => named.has(person.id)),
    createdAt: schedule.createdAt.toISOString(),
    updatedAt: schedule.updatedAt.toISOString(),
  };
}

export function toOverrideView(
  scheduleId: number,
  override: StoredOverride,
  user: OnCallPerson | null,
): z.input<typeof overrideView> {
  return {
    id: override.id,
    scheduleId,
    userId: override.userId,
    user,
    from: override.from.toISOString(),
    to: override.to.toISOString(),
    createdAt: override.createdAt.toISOString(),
  };
}
