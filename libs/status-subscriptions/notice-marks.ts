import type { Redis } from '../redis/index.js';

/** Marks are kept this long after the last one: far past any mailing, and its retries. */
const MARKS_TTL_SECONDS = 14 * 86_400;

/**
 * Which subscribers a notice was mailed to (a Redis set per notice, each id added as soon as the
 * SMTP server took its mail): a mailing taken over after its notifier stopped skips them, so each
 * is mailed once.
 */
export class NoticeMarks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(noticeId: string): string {
    return `${this.prefix}:notice-mailed:{${noticeId}}`;
  }

  async mailed(noticeId: string): Promise<Set<string>> {
    return new Set(await this.redis.smembers(this.key(noticeId)));
  }

  async mark(noticeId: string, subscriberId: string): Promise<void> {
    const key = this.key(noticeId);
    await this.redis.multi().sadd(key, subscriberId).expire(key, MARKS_TTL_SECONDS).exec();
  }
}
