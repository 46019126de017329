import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Redis } from '../../redis/index.js';

/** How long a validated assertion waits for its browser to come back from the ACS's redirect. */
export const HANDOVER_TTL_SECONDS = 60;

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

const handover = z.object({
  providerId: z.number().int(),
  inResponseTo: z.string().nullable(),
  identity: z.object({
    subject: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    groups: z.array(z.string()),
    claims: z.record(z.string(), z.unknown()),
  }),
});
export type SamlHandover = z.infer<typeof handover>;

/**
 * SAML's state in Redis, shared by every API process:
 * - assertion ids seen, each kept until its NotOnOrAfter (and the clock skew) so a captured
 *   response cannot be posted again (SET NX: the first poster wins);
 * - validated assertions handed from the cross-site ACS POST to the same-site GET that follows
 *   it, where the browser's Lax flow cookie is sent (one-time, short).
 */
export class SamlAssertionLedger {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** True the first time this IdP's assertion id is seen; false for a replay. */
  async firstUse(idpEntityId: string, assertionId: string, until: Date, skewMs: number): Promise<boolean> {
    const key = `${this.prefix}:saml-assertion:${digest(`${idpEntityId}\n${assertionId}`)}`;
    const expiresAt = Math.max(until.getTime(), Date.now()) + skewMs;
    return (await this.redis.set(key, '1', 'PXAT', expiresAt, 'NX')) === 'OK';
  }

  async hold(value: SamlHandover): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(this.handoverKey(token), JSON.stringify(value), 'EX', HANDOVER_TTL_SECONDS);
    return token;
  }

  /** The handover of `token`, used up now; null when unknown, expired or used. */
  async take(token: string): Promise<SamlHandover | null> {
    const raw = await this.redis.getdel(this.handoverKey(token));
    const parsed = raw ? handover.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  }

  private handoverKey(token: string): string {
    return `${this.prefix}:saml-handover:${digest(token)}`;
  }
}
