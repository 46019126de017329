import type { PostStatus } from '../status-pages/index.js';

/**
 * How an incident post's status may move (pure). A post speaks through
 * `investigating → identified → monitoring → resolved`:
 * - among the open statuses any move is taken, back too: a fix that did not hold goes from
 *   monitoring back to identified, and the page should say so rather than be refused;
 * - `resolved` closes the post (its `resolvedAt`); a further `resolved` update is a postscript
 *   (a root cause found later) and keeps it closed;
 * - an open status after `resolved` reopens the post within `REOPEN_DAYS` of its resolution (the
 *   same trouble came back); later it is refused: a new post tells it better.
 */

export const REOPEN_DAYS = 7;
const DAY_MS = 86_400_000;

/** What an update does to its post. */
export type StatusMove =
  | { kind: 'continue' }
  | { kind: 'resolve' }
  | { kind: 'postscript' }
  | { kind: 'reopen' }
  | { kind: 'refused'; reason: string };

export function statusMove(
  post: { status: PostStatus; resolvedAt: Date | null },
  next: PostStatus,
  now: Date,
): StatusMove {
  if (post.status !== 'resolved') return next === 'resolved' ? { kind: 'resolve' } : { kind: 'continue' };
  if (next === 'resolved') return { kind: 'postscript' };
  const resolvedAt = post.resolvedAt?.getTime() ?? now.getTime();
  if (now.getTime() - resolvedAt > REOPEN_DAYS * DAY_MS)
    return {
      kind: 'refused',
      reason: `The post was resolved more than ${REOPEN_DAYS} days ago: post a new incident rather than reopen it`,
    };
  return { kind: 'reopen' };
}
