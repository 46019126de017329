import { ConcurrencyLimit } from '../runtime/index.js';

/**
 * The reads of public lookups in this process (status pages by slug, badges by website id), at
 * most 2 at once: however many such requests arrive, MongoDB has at most 2 of them in hand, and the
 * authenticated API's reads never queue behind a flood of them there (with 4, a flood of unknown
 * ids took enough of FerretDB's CPU to push the authenticated p99 past 100 ms on 2 busy cores). At most 64 wait (each waits
 * within the lookup's deadline); past that a request is refused at once (503, see
 * `limitedPerAddress`) instead of piling up while MongoDB stalls.
 */
export const publicReads = new ConcurrencyLimit(2, { maxWaiting: 64, resource: 'MongoDB' });
