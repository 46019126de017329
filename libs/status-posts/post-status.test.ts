import { describe, expect, it } from 'vitest';
import { REOPEN_DAYS, statusMove } from './post-status.js';

const now = new Date('2026-06-10T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const open = (status: 'investigating' | 'identified' | 'monitoring') => ({ status, resolvedAt: null });
const resolved = (at: Date) => ({ status: 'resolved' as const, resolvedAt: at });

describe('an incident post’s status moves', () => {
  it('forward through investigating → identified → monitoring → resolved', () => {
    expect(statusMove(open('investigating'), 'identified', now)).toEqual({ kind: 'continue' });
    expect(statusMove(open('identified'), 'monitoring', now)).toEqual({ kind: 'continue' });
    expect(statusMove(open('monitoring'), 'resolved', now)).toEqual({ kind: 'resolve' });
    expect(statusMove(open('investigating'), 'resolved', now)).toEqual({ kind: 'resolve' });
  });

  it('back among the open statuses (a fix that did not hold), and again in the same status', () => {
    expect(statusMove(open('monitoring'), 'identified', now)).toEqual({ kind: 'continue' });
    expect(statusMove(open('monitoring'), 'investigating', now)).toEqual({ kind: 'continue' });
    expect(statusMove(open('identified'), 'identified', now)).toEqual({ kind: 'continue' });
  });

  it('after resolved: a postscript stays resolved; an open status reopens within the days allowed, not after', () => {
    expect(statusMove(resolved(daysAgo(30)), 'resolved', now)).toEqual({ kind: 'postscript' });
    expect(statusMove(resolved(daysAgo(1)), 'investigating', now)).toEqual({ kind: 'reopen' });
    expect(statusMove(resolved(daysAgo(REOPEN_DAYS)), 'monitoring', now)).toEqual({ kind: 'reopen' });
    const late = statusMove(resolved(daysAgo(REOPEN_DAYS + 0.01)), 'identified', now);
    expect(late.kind).toBe('refused');
  });
});
