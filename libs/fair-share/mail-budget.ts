import { createHash } from 'node:crypto';
import { tooMany } from '../errors/index.js';
import { type Redis, redisScript, slotTag } from '../redis/index.js';

/**
 * Counts a mail to each recipient against the organization's budget (`#KEYS - 1` at once) and one
 * against each recipient's, or nothing when any is short: [0, 0], or [the key at fault (1: the
 * organization's), its milliseconds until it refills]. A counter's window starts at its first mail.
 */
const TAKE_SCRIPT = `
local cost = #KEYS - 1
local function refusal(i)
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then ttl = tonumber(ARGV[1]) end
  return {i, ttl}
end
if tonumber(redis.call('GET', KEYS[1]) or '0') + cost > tonumber(ARGV[2]) then return refusal(1) end
for i = 2, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') + 1 > tonumber(ARGV[3]) then return refusal(i) end
end
for i = 1, #KEYS do
  local by = 1
  if i == 1 then by = cost end
  redis.call('INCRBY', KEYS[i], by)
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
return {0, 0}
`;
const takeScript = redisScript(TAKE_SCRIPT);

/** What a mail is, in the log and the refusal ("invitation", "report mailing"). */
export type MailPurpose = 'invitation' | 'password reset' | 'report mailing' | 'test send';

export interface MailBudgetOptions {
  redis: Redis;
  /** REDIS_KEY_PREFIX. */
  prefix: string;
  /** Mails an organization may send in a window (every purpose together). */
  perOrganization: number;
  /** Mails one address may be sent by one organization in a window. */
  perRecipient: number;
}

/** The budgets' window: an hour from the first mail counted in it. */
const WINDOW_MS = 3_600_000;

/**
 * Budgets of mail through the service's mail routes, per organization and per recipient address
 * (of that organization: another tenant cannot use up an address's budget to keep its own
 * organization from inviting it), in Redis so every API process shares them. Keys hold a hash of
 * the address, never the address; an organization's keys share a hash slot (one script on a
 * cluster).
 */
export class MailBudget {
  constructor(private readonly options: MailBudgetOptions) {}

  /**
   * Counts one mail to each recipient (addresses compared without case), or throws 429 naming the
   * budget that is short and when it refills; nothing is counted then.
   */
  async take(organizationId: number, recipients: readonly string[], purpose: MailPurpose): Promise<void> {
    const { redis, prefix, perOrganization, perRecipient } = this.options;
    const addresses = [...new Set(recipients.map((address) => address.trim().toLowerCase()))];
    const base = `${prefix}:mail-budget:${slotTag(redis, `mail-o${organizationId}`)}`;
    const keys = [
      `${base}:organization`,
      ...addresses.map((address) => `${base}:to:${createHash('sha256').update(address).digest('hex')}`),
    ];
    const [at, ttlMs] = (await takeScript.run(redis, keys, [WINDOW_MS, perOrganization, perRecipient])) as [
      number,
      number,
    ];
    if (at === 0) return;
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
    if (at === 1)
      throw tooMany(
        `This ${purpose} would send ${addresses.length} mail${addresses.length === 1 ? '' : 's'}, past the organization's mail budget (${perOrganization} mails an hour); it refills in ${seconds} s.`,
        'mail-per-organization',
        seconds,
      );
    throw tooMany(
      `${addresses[at - 2]} has been sent ${perRecipient} mails by this organization within the hour (its budget); it refills in ${seconds} s.`,
      'mail-per-recipient',
      seconds,
    );
  }
}
