import { ConcurrencyLimit } from '../runtime/index.js';

/**
 * The reads of public lookups in this process (status pages by slug, badges by website id), at
 * most 4 at once: however many such requests arrive, MongoDB has at most 4 of them in hand, and the
 * authenticated API's reads never queue behind a flood of them there. At most 64 wait (each waits
 * within the lookup's deadline); past that a request is refused at once (503, see
 * `limitedPerAddress`) instead of piling up while MongoDB stalls.
 */
export const publicReads = new ConcurrencyLimit(4, { maxWaiting: 64 });
