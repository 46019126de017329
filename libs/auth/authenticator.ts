import type { Authenticate } from '../contract/index.js';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { ApiTokenRepository } from './api-token.repository.js';
import { hashToken, isWellFormedToken } from './token.js';

/** `lastUsedAt` is written at most this often per token and process, not on every request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/**
 * Identifies callers by the SHA-256 of their token. Revocation takes effect on the next request:
 * nothing is cached.
 */
export function createAuthenticator(tokens: ApiTokenRepository, logger: Logger): Authenticate {
  const lastWrite = new Map<number, number>();
  return async (token) => {
    if (!isWellFormedToken(token)) return null;
    const record = await tokens.findActiveByHash(hashToken(token));
    if (!record) return null;
    const now = Date.now();
    if (now - (lastWrite.get(record.id) ?? 0) >= LAST_USED_WRITE_INTERVAL_MS) {
      lastWrite.set(record.id, now);
      tokens.touchLastUsed(record.organizationId, record.id, new Date(now)).catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, 'could not record token use');
      });
    }
    return {
      organizationId: record.organizationId,
      tokenId: record.id,
      scopes: record.scopes,
      // Bound to a customer: the access guard lets it read that customer's resources only.
      ...(record.customerId ? { customerId: record.customerId } : {}),
    };
  };
}
