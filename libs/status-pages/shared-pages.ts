import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { z } from 'zod';
import { PrecompressedBody } from '../http/index.js';
import type { Redis } from '../redis/index.js';
import type { PublishedPage } from './public-pages.js';

const gunzipAsync = promisify(gunzip);

/**
 * Kept past any use: a snapshot is served at most 30 s fresh and then while a refresh runs
 * (`PAGE_STALE_SECONDS`); after that it is only a waste of Redis memory.
 */
const SNAPSHOT_TTL_SECONDS = 15 * 60;
/** One process rebuilds a page at a time; one that died leaves the claim to expire. */
const REBUILD_CLAIM_MS = 15_000;

const snapshotMeta = z.object({
  revision: z.string().nullable(),
  madeAt: z.number().int(),
  embedAllowedOrigins: z.array(z.string()),
  htmlType: z.string(),
  jsonType: z.string(),
});

const BODY_FIELDS = ['html.gzip', 'html.br', 'json.gzip', 'json.br'] as const;

/** A page as one process built it, for the others. */
export interface PageSnapshot {
  /** The slug's revision read before the build began. */
  revision: string | null;
  madeAt: number;
  page: PublishedPage;
}

/**
 * Built pages shared by every API process through Redis, compressed (a page of 50 websites is
 * ~460 KB of HTML and ~10 KB as gzip): a process that starts, or another behind the same load
 * balancer, serves a page another built instead of building it again (hundreds of reads), and a
 * page's periodic rebuild runs on one process at a time. A snapshot counts only under the
 * revision it was built under, so a change still shows at once everywhere.
 */
export class SharedPublishedPages {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(slug: string) {
    return `${this.prefix}:status-page:${slug}`;
  }

  async get(slug: string): Promise<PageSnapshot | null> {
    const stored = await this.redis.hgetallBuffer(this.key(slug));
    const meta = snapshotMeta.safeParse(parseJson(stored.meta?.toString()));
    const bodies = BODY_FIELDS.map((field) => stored[field]);
    const [htmlGzip, htmlBr, jsonGzip, jsonBr] = bodies;
    if (!meta.success || !htmlGzip || !htmlBr || !jsonGzip || !jsonBr) return null;
    const [html, json] = await Promise.all([gunzipAsync(htmlGzip), gunzipAsync(jsonGzip)]);
    return {
      revision: meta.data.revision,
      madeAt: meta.data.madeAt,
      page: {
        embedAllowedOrigins: meta.data.embedAllowedOrigins,
        html: new PrecompressedBody(html, meta.data.htmlType, { gzip: htmlGzip, br: htmlBr }),
        json: new PrecompressedBody(json, meta.data.jsonType, { gzip: jsonGzip, br: jsonBr }),
      },
    };
  }

  /** Shares a page built under `revision` (its compressed forms are made now if not yet). */
  async put(slug: string, snapshot: PageSnapshot): Promise<void> {
    const { html, json, embedAllowedOrigins } = snapshot.page;
    const [htmlGzip, htmlBr, jsonGzip, jsonBr] = await Promise.all([
      html.coded('gzip'),
      html.coded('br'),
      json.coded('gzip'),
      json.coded('br'),
    ]);
    const meta = {
      revision: snapshot.revision,
      madeAt: snapshot.madeAt,
      embedAllowedOrigins: [...embedAllowedOrigins],
      htmlType: html.type,
      jsonType: json.type,
    };
    const key = this.key(slug);
    await this.redis
      .multi()
      .del(key)
      .hset(key, {
        meta: JSON.stringify(meta),
        'html.gzip': htmlGzip,
        'html.br': htmlBr,
        'json.gzip': jsonGzip,
        'json.br': jsonBr,
      })
      .expire(key, SNAPSHOT_TTL_SECONDS)
      .exec();
  }

  /** Whether this process may rebuild the page now: false while another does. */
  async claimRebuild(slug: string): Promise<boolean> {
    return (await this.redis.set(`${this.key(slug)}:rebuild`, '1', 'PX', REBUILD_CLAIM_MS, 'NX')) === 'OK';
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
