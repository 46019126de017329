import type { Redis } from '../../redis/index.js';

/** Which page holds a verified host. */
export interface HostHolder {
  organizationId: number;
  pageId: number;
}

/** A field no host can be (wildcards are refused): present once the hash was filled from MongoDB. */
const LOADED = '*';

/**
 * The verified hosts in one Redis hash (host → its page), so every API process answers `Host` and
 * the TLS ask from Redis at once after a verify or a removal. MongoDB is the record: the hash is
 * filled from it when its marker is missing (the first start, a flushed Redis), by whichever
 * process sees that first. A host removed while another process refills the hash could come back
 * until the next removal; a refill happens only after Redis lost its data.
 */
export class VerifiedHostIndex {
  private loading: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly source: () => Promise<Array<{ _id: string } & HostHolder>>,
  ) {
    this.key = `${prefix}:status-domains:verified`;
  }

  private readonly key: string;

  async lookup(host: string): Promise<HostHolder | null> {
    const [value, loaded] = await this.redis.hmget(this.key, host, LOADED);
    if (loaded !== null) return parse(value ?? null);
    await this.load();
    return parse(await this.redis.hget(this.key, host));
  }

  async add(host: string, holder: HostHolder): Promise<void> {
    await this.redis.hset(this.key, host, JSON.stringify(holder));
  }

  async remove(host: string): Promise<void> {
    await this.redis.hdel(this.key, host);
  }

  /** Fills the hash from MongoDB unless it is filled (at the API's start; after a flush, at the first lookup). */
  async ensureLoaded(): Promise<void> {
    if ((await this.redis.hexists(this.key, LOADED)) === 0) await this.load();
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const held = await this.source();
        const fields = held.flatMap(({ _id, organizationId, pageId }) => [
          _id,
          JSON.stringify({ organizationId, pageId }),
        ]);
        await this.redis.hset(this.key, ...fields, LOADED, '1');
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }
}

function parse(value: string | null): HostHolder | null {
  if (value === null) return null;
  const held = JSON.parse(value) as HostHolder;
  return { organizationId: held.organizationId, pageId: held.pageId };
}
