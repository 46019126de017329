import type { Redis } from './client.js';

/** A hint outlives its list's last append by this long (an incident's timeline, a day). */
const HINT_TTL_SECONDS = 86_400;

/**
 * Each numbered list's last number, left by its writers in Redis (`ListHints` of libs/db): a
 * notifier's first step of an incident starts after the worker's without reading MongoDB.
 */
export class ListTopHints {
  constructor(
    private readonly redis: Redis,
    /** `<prefix>:list-top:<collection>`: the list's name follows it. */
    private readonly keyPrefix: string,
  ) {}

  private key(list: string): string {
    return `${this.keyPrefix}:${list}`;
  }

  async get(list: string): Promise<number | null> {
    const value = Number(await this.redis.get(this.key(list)));
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  }

  async set(list: string, n: number): Promise<void> {
    await this.redis.set(this.key(list), String(n), 'EX', HINT_TTL_SECONDS);
  }
}
