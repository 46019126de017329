import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Redis } from '../redis/index.js';

/** How long a started sign-in may take at the provider (a person typing a password and a code). */
export const FLOW_TTL_SECONDS = 600;

const hash = (value: string) => createHash('sha256').update(value).digest();

/** A random browser binding for the flow cookie (opaque; only its hash is kept). */
export const newBinding = () => randomBytes(32).toString('base64url');

const storedFlow = z.object({
  providerId: z.number().int(),
  /** SHA-256 of the browser's binding cookie, hex. */
  binding: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  /** An app path to land on after signing in. */
  next: z.string(),
});
export type SsoFlow = Omit<z.infer<typeof storedFlow>, 'binding'>;

/**
 * Sign-ins under way, server-side in Redis: one key per `state` (`<prefix>:sso-flow:<sha256>`),
 * read and deleted at once (GETDEL) by the callback, so a state is good once, for
 * FLOW_TTL_SECONDS, and only in the browser holding the binding cookie it was started with.
 * The SAML helper's AuthnRequest ids can live here too: `state` is then the request id.
 */
export class SsoFlowStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(state: string): string {
    return `${this.prefix}:sso-flow:${hash(state).toString('hex')}`;
  }

  async begin(state: string, binding: string, flow: SsoFlow): Promise<void> {
    const stored = { ...flow, binding: hash(binding).toString('hex') };
    await this.redis.set(this.key(state), JSON.stringify(stored), 'EX', FLOW_TTL_SECONDS);
  }

  /**
   * The flow of `state`, used up now; null when unknown, expired, used, or started in another
   * browser. Used up only by the browser that started it: someone who saw a `state` (a log, a
   * referrer) cannot cancel another person's sign-in by presenting it first.
   */
  async take(state: string, binding: string | undefined): Promise<SsoFlow | null> {
    if (!binding) return null;
    const key = this.key(state);
    const raw = await this.redis.get(key);
    if (!raw) return null;
    const parsed = storedFlow.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    const { binding: expected, ...flow } = parsed.data;
    const given = hash(binding);
    const wanted = Buffer.from(expected, 'hex');
    if (!(wanted.length === given.length && timingSafeEqual(wanted, given))) return null;
    // Of two uses at once by that browser, the one whose delete removed it goes on.
    return (await this.redis.del(key)) === 1 ? flow : null;
  }
}

const storedLink = z.object({
  providerId: z.number().int(),
  userId: z.number().int(),
  organizationId: z.number().int(),
  subject: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  groups: z.array(z.string()),
  claims: z.record(z.string(), z.unknown()),
  next: z.string(),
});
export type PendingLink = z.infer<typeof storedLink>;

/**
 * A provider's person whose e-mail is an existing password account's, waiting for that account's
 * person to confirm with their password (`<prefix>:sso-link:<sha256 of token>`, one-time, short).
 */
export class PendingLinks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(token: string): string {
    return `${this.prefix}:sso-link:${hash(token).toString('hex')}`;
  }

  async hold(link: PendingLink): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(token), JSON.stringify(link), 'EX', FLOW_TTL_SECONDS);
    return token;
  }

  /** What the token holds, left in place (the link page shows the e-mail). */
  async peek(token: string): Promise<PendingLink | null> {
    const raw = await this.redis.get(this.key(token));
    const parsed = raw ? storedLink.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  }

  async take(token: string): Promise<PendingLink | null> {
    const raw = await this.redis.getdel(this.key(token));
    const parsed = raw ? storedLink.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  }
}
