import { z } from 'zod';
import { PrecompressedBody } from '../http/index.js';
import type { Redis } from '../redis/index.js';

/**
 * Kept past any use: a snapshot is served at most 30 s fresh and then while a refresh runs
 * (`PAGE_STALE_SECONDS`); after that it is only a waste of Redis memory.
 */
const SNAPSHOT_TTL_SECONDS = 15 * 60;
/** One process rebuilds a page at a time; one that died leaves the claim to expire. */
const REBUILD_CLAIM_MS = 15_000;

const bodyMeta = z.object({ type: z.string(), etag: z.string(), size: z.number().int().min(0) });
const snapshotMeta = z.object({
  revision: z.string().nullable(),
  madeAt: z.number().int(),
  embedAllowedOrigins: z.array(z.string()),
  html: bodyMeta,
  json: bodyMeta,
});

const BODY_FIELDS = ['html.gzip', 'html.br', 'json.gzip', 'json.br'] as const;

/** A public page as visitors get it: rendered once per change or refresh, in both formats. */
export interface PublishedPage {
  /** Origins that may frame the HTML page (none: it may not be framed). */
  embedAllowedOrigins: readonly string[];
  html: PrecompressedBody;
  json: PrecompressedBody;
}

/** A page as one process built it, for the others. */
export interface PageSnapshot {
  /** The slug's revision read before the build began. */
  revision: string | null;
  madeAt: number;
  page: PublishedPage;
}

/**
 * Built pages shared by every API process through Redis as their compressed forms (a page of 50
 * websites is ~0.7 MB of HTML, ~10 KB as gzip): a process that starts, or another behind the same load
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
    // Copies of exactly their bytes: the client's views would keep its whole read buffer alive.
    const bodies = BODY_FIELDS.map((field) => stored[field] && Buffer.from(stored[field]));
    const [htmlGzip, htmlBr, jsonGzip, jsonBr] = bodies;
    if (!meta.success || !htmlGzip || !htmlBr || !jsonGzip || !jsonBr) return null;
    const { html, json } = meta.data;
    return {
      revision: meta.data.revision,
      madeAt: meta.data.madeAt,
      page: {
        embedAllowedOrigins: meta.data.embedAllowedOrigins,
        html: new PrecompressedBody(
          { etag: html.etag, size: html.size, gzip: htmlGzip, br: htmlBr },
          html.type,
        ),
        json: new PrecompressedBody(
          { etag: json.etag, size: json.size, gzip: jsonGzip, br: jsonBr },
          json.type,
        ),
      },
    };
  }

  /** Shares a page built under `revision` (its compressed forms are made now if not yet). */
  async put(slug: string, snapshot: PageSnapshot): Promise<void> {
    const { html, json, embedAllowedOrigins } = snapshot.page;
    const [htmlForms, jsonForms] = await Promise.all([html.compressedForms(), json.compressedForms()]);
    const meta = {
      revision: snapshot.revision,
      madeAt: snapshot.madeAt,
      embedAllowedOrigins: [...embedAllowedOrigins],
      html: { type: html.type, etag: htmlForms.etag, size: htmlForms.size },
      json: { type: json.type, etag: jsonForms.etag, size: jsonForms.size },
    };
    const key = this.key(slug);
    await this.redis
      .multi()
      .del(key)
      .hset(key, {
        meta: JSON.stringify(meta),
        'html.gzip': htmlForms.gzip,
        'html.br': htmlForms.br,
        'json.gzip': jsonForms.gzip,
        'json.br': jsonForms.br,
      })
      .expire(key, SNAPSHOT_TTL_SECONDS)
      .exec();
  }

  /** Drops the page shared under `slug` (it is no longer public, or no longer there). */
  async forget(slug: string): Promise<void> {
    await this.redis.del(this.key(slug));
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
