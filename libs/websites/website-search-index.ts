import { type Redis, redisScript, slotTag } from '../redis/index.js';
import { normalizedQuery, searchedText, trigramChange, trigramsOf } from './website-search.js';

type Searched = { name: string; url: string };

/**
 * One command for a website's runs (a write's few dozen): an ioredis pipeline cost ~0.2 ms of the
 * API's CPU to build, twice per write. Every key shares the organization's hash slot.
 */
const addScript = redisScript("for i = 1, #KEYS do redis.call('SADD', KEYS[i], ARGV[1]) end return 0");
const removeScript = redisScript("for i = 1, #KEYS do redis.call('SREM', KEYS[i], ARGV[1]) end return 0");

/**
 * Which websites of an organization may hold a search's text: one Redis set of website ids per
 * run of three characters of their names and URLs (`trigramsOf`), intersected for a query. The
 * sets only narrow the candidates, each then read and matched (`matchesSearch`), so a set holding
 * too much (a crash between the two writes, a website since deleted) costs a read and shows
 * nothing wrong; a set holding too little would hide a website, so a write adds its new runs
 * before the website is stored and drops the old ones after. Derived data: an organization whose
 * `~built` marker is gone (a new Redis, a flush) is indexed again from MongoDB at its next search.
 */
export class WebsiteSearchIndex {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Every key of an organization shares one hash slot on a cluster (SINTER needs them together). */
  private key(organizationId: number, suffix: string): string {
    return `${this.prefix}:search:${slotTag(this.redis, `o${organizationId}`)}:${suffix}`;
  }

  /** Before a website is stored with `after` (from `before`; null: new): its new runs join. */
  async widen(
    organizationId: number,
    websiteId: number,
    before: Searched | null,
    after: Searched,
  ): Promise<void> {
    await this.apply(organizationId, websiteId, trigramChange(before, after).added, 'sadd');
  }

  /**
   * Before a website is stored with the name or URL `sent` (an update: the fields not sent stay as
   * they are, their runs already in): every run of what was sent joins, those it had already too
   * (adding is idempotent), so this needs no read of the website and may go beside that read.
   */
  async widenSent(organizationId: number, websiteId: number, sent: Partial<Searched>): Promise<void> {
    const texts = searchedText({ name: sent.name ?? '', url: sent.url ?? '' });
    await this.apply(organizationId, websiteId, trigramsOf(texts), 'sadd');
  }

  /** After a website is stored as `after` (null: deleted): the runs it no longer has leave. */
  async narrow(
    organizationId: number,
    websiteId: number,
    before: Searched,
    after: Searched | null,
  ): Promise<void> {
    await this.apply(organizationId, websiteId, trigramChange(before, after).dropped, 'srem');
  }

  private async apply(organizationId: number, websiteId: number, grams: string[], command: 'sadd' | 'srem') {
    if (grams.length === 0) return;
    const keys = grams.map((gram) => this.key(organizationId, gram));
    await (command === 'sadd' ? addScript : removeScript).run(this.redis, keys, [String(websiteId)]);
  }

  /**
   * The ids of websites that may hold `query` (at least three characters), in no order; null when
   * the organization is not indexed (its websites must be added first, see `index`).
   */
  async candidates(organizationId: number, query: string): Promise<number[] | null> {
    const grams = trigramsOf([normalizedQuery(query)]);
    const [[, built], [, ids]] = (await this.redis
      .multi()
      .exists(this.key(organizationId, '~built'))
      .sinter(...grams.map((gram) => this.key(organizationId, gram)))
      .exec()) as [[null, number], [null, string[]]];
    return built === 1 ? ids.map(Number) : null;
  }

  /** Indexes the organization's websites, then marks it indexed (adding is idempotent). */
  async index(organizationId: number, pages: AsyncIterable<Array<{ id: number } & Searched>>): Promise<void> {
    for await (const websites of pages) {
      const pipeline = this.redis.pipeline();
      for (const website of websites)
        for (const gram of trigramChange(null, website).added)
          pipeline.sadd(this.key(organizationId, gram), String(website.id));
      await pipeline.exec();
    }
    await this.redis.set(this.key(organizationId, '~built'), '1');
  }
}
