/** Customer states: checks run for `active` and `marked_for_cancellation`, stop for `cancelled`. */
export const CUSTOMER_STATUSES = ['active', 'marked_for_cancellation', 'cancelled'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export interface CustomerState {
  status: CustomerStatus;
  cancellationDate: Date | null;
}

export interface StatusChangeRequest {
  status?: CustomerStatus;
  /** undefined: not sent; null: sent as null. */
  cancellationDate?: Date | null;
}

export type StatusChangeOutcome =
  | { ok: true; state: CustomerState }
  | { ok: false; kind: 'conflict'; message: string }
  | { ok: false; kind: 'invalid'; path: 'status' | 'cancellationDate'; message: string };

/** The last millisecond of the UTC month of `now`. */
export function endOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - 1);
}

/** Whether websites of a customer in this state are checked. */
export function isMonitored(status: CustomerStatus): boolean {
  return status !== 'cancelled';
}

const ALLOWED: Record<CustomerStatus, readonly CustomerStatus[]> = {
  active: ['active', 'marked_for_cancellation'],
  marked_for_cancellation: ['marked_for_cancellation', 'active'],
  cancelled: ['cancelled', 'active'],
};

/**
 * The state after a PATCH of `status` / `cancellationDate`. active → marked_for_cancellation (the
 * date defaults to the end of the current UTC month and must be in the future); marked → active
 * clears the date; a cancelled customer keeps the date it was cancelled on; cancelled → active
 * clears it and restarts checks; marked → cancelled happens only when the
 * date passes. Anything else is a conflict.
 */
export function changeStatus(
  current: CustomerState,
  request: StatusChangeRequest,
  now: Date,
): StatusChangeOutcome {
  const target = request.status ?? current.status;
  if (!ALLOWED[current.status].includes(target)) {
    const how = target === 'cancelled' ? ' (a customer is cancelled when its cancellation date passes)' : '';
    return {
      ok: false,
      kind: 'conflict',
      message: `A customer cannot go from ${current.status} to ${target}${how}.`,
    };
  }
  if (target !== 'marked_for_cancellation') {
    if (request.cancellationDate) {
      return {
        ok: false,
        kind: 'invalid',
        path: 'cancellationDate',
        message: 'Only a customer marked_for_cancellation has a cancellation date',
      };
    }
    // A cancelled customer keeps the date it was cancelled on; reactivated, it has none.
    const kept = target === 'cancelled' && current.status === 'cancelled' ? current.cancellationDate : null;
    return { ok: true, state: { status: target, cancellationDate: kept } };
  }
  if (request.cancellationDate === null) {
    return {
      ok: false,
      kind: 'invalid',
      path: 'cancellationDate',
      message: 'A customer marked_for_cancellation needs a date',
    };
  }
  const date = request.cancellationDate ?? current.cancellationDate ?? endOfUtcMonth(now);
  if (date.getTime() <= now.getTime()) {
    return { ok: false, kind: 'invalid', path: 'cancellationDate', message: 'Must be in the future' };
  }
  return { ok: true, state: { status: target, cancellationDate: date } };
}
