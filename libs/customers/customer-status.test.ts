import { describe, expect, it } from 'vitest';
import { type CustomerState, changeStatus, endOfUtcMonth } from './customer-status.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const future = new Date('2026-12-15T00:00:00.000Z');
const past = new Date('2026-11-01T00:00:00.000Z');
const active: CustomerState = { status: 'active', cancellationDate: null };
const marked: CustomerState = { status: 'marked_for_cancellation', cancellationDate: future };
const cancelled: CustomerState = { status: 'cancelled', cancellationDate: null };

describe('endOfUtcMonth', () => {
  it.each([
    ['2026-11-22T10:00:00.000Z', '2026-11-30T23:59:59.999Z'],
    ['2026-12-31T23:59:59.000Z', '2026-12-31T23:59:59.999Z'],
    ['2028-02-10T00:00:00.000Z', '2028-02-29T23:59:59.999Z'],
    ['2026-01-01T00:00:00.000Z', '2026-01-31T23:59:59.999Z'],
  ])('%s → %s', (at, end) => {
    expect(endOfUtcMonth(new Date(at)).toISOString()).toBe(end);
  });
});

describe('changeStatus', () => {
  it('marks for cancellation at the end of the month by default', () => {
    expect(changeStatus(active, { status: 'marked_for_cancellation' }, now)).toEqual({
      ok: true,
      state: { status: 'marked_for_cancellation', cancellationDate: new Date('2026-11-30T23:59:59.999Z') },
    });
  });

  it('marks for cancellation at a given future date', () => {
    const outcome = changeStatus(
      active,
      { status: 'marked_for_cancellation', cancellationDate: future },
      now,
    );
    expect(outcome).toEqual({
      ok: true,
      state: { status: 'marked_for_cancellation', cancellationDate: future },
    });
  });

  it.each([
    ['a past date', past],
    ['now', now],
  ])('refuses %s', (_label, date) => {
    expect(
      changeStatus(active, { status: 'marked_for_cancellation', cancellationDate: date }, now),
    ).toMatchObject({
      ok: false,
      kind: 'invalid',
      path: 'cancellationDate',
    });
  });

  it('moves the date of a marked customer', () => {
    const later = new Date('2027-01-31T00:00:00.000Z');
    expect(changeStatus(marked, { cancellationDate: later }, now)).toEqual({
      ok: true,
      state: { status: 'marked_for_cancellation', cancellationDate: later },
    });
  });

  it('keeps the date when a marked customer is patched without one', () => {
    expect(changeStatus(marked, { status: 'marked_for_cancellation' }, now)).toEqual({
      ok: true,
      state: marked,
    });
  });

  it('reactivation clears the date', () => {
    expect(changeStatus(marked, { status: 'active' }, now)).toEqual({ ok: true, state: active });
    expect(changeStatus(cancelled, { status: 'active' }, now)).toEqual({ ok: true, state: active });
  });

  it.each<[CustomerState, 'active' | 'marked_for_cancellation' | 'cancelled']>([
    [active, 'cancelled'],
    [marked, 'cancelled'],
    [cancelled, 'marked_for_cancellation'],
  ])('%j → %s is a conflict', (from, to) => {
    expect(changeStatus(from, { status: to }, now)).toMatchObject({ ok: false, kind: 'conflict' });
  });

  it('refuses a date for an active customer', () => {
    expect(changeStatus(active, { cancellationDate: future }, now)).toMatchObject({
      ok: false,
      path: 'cancellationDate',
    });
  });

  it('refuses clearing the date of a marked customer without reactivating', () => {
    expect(changeStatus(marked, { cancellationDate: null }, now)).toMatchObject({
      ok: false,
      path: 'cancellationDate',
    });
  });

  it('accepts a null date with reactivation, and no-ops', () => {
    expect(changeStatus(marked, { status: 'active', cancellationDate: null }, now)).toEqual({
      ok: true,
      state: active,
    });
    expect(changeStatus(active, {}, now)).toEqual({ ok: true, state: active });
    expect(changeStatus(cancelled, {}, now)).toEqual({ ok: true, state: cancelled });
  });
});
