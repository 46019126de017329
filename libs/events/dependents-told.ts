import type { EventPayload } from './event.schema.js';

/** Dependents a parent's alert names at most (its count says how many there are). */
export const DEPENDENTS_LISTED = 50;

/**
 * A parent's down alert as one receiver may read it: the dependents of `customerId`'s websites
 * only (a channel scoped to a customer hears nothing of another customer's websites, even where
 * they share a parent), or every one (`null`: the organization's own channels and people); at most
 * `DEPENDENTS_LISTED` named, and how many there are. The payload given carries them all.
 */
export function dependentsToldTo(payload: EventPayload, customerId: number | null): EventPayload {
  const { dependents, dependentCount: _all, ...data } = payload.data;
  if (!dependents) return payload;
  const told =
    customerId === null ? dependents : dependents.filter((dependent) => dependent.customerId === customerId);
  if (told.length === 0) return { ...payload, data };
  return {
    ...payload,
    data: {
      ...data,
      dependents: told.slice(0, DEPENDENTS_LISTED),
      // Everyone's count is the one given where the list came cut already (an escalation run's).
      dependentCount:
        customerId === null ? Math.max(payload.data.dependentCount ?? 0, told.length) : told.length,
    },
  };
}
