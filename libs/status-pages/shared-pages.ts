import { z } from 'zod';
import { StoredBody } from '../compression/index.js';
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
  html: StoredBody;
  json: StoredBody;
}

/** A body as its compressed forms and type: what crosses threads and goes to Redis. */
export interface PackedBody {
  type: string;
  etag: string;
  /** Its length uncompressed. */
  size: number;
  br: Uint8Array;
  gzip: Uint8Array;
}

export interface PackedPage {
  embedAllowedOrigins: string[];
  html: PackedBody;
  json: PackedBody;
}

/** The page as its compressed forms (made now if they were not). */
export async function packedPage(page: PublishedPage): Promise<PackedPage> {
  const pack = async (body: StoredBody): Promise<PackedBody> => ({
    type: body.type,
    ...(await body.compressedForms()),
  });
  const [html, json] = await Promise.all([pack(page.html), pack(page.json)]);
  return { embedAllowedOrigins: [...page.embedAllowedOrigins], html, json };
}

/**
 * The page held as its compressed forms only (~1/50 of its HTML and JSON), each a copy of exactly
 * its bytes: a view would keep the whole block it came in alive (a thread's message, Redis's buffer).
 */
export function unpackedPage(packed: PackedPage): PublishedPage {
  const unpack = ({ type, etag, size, br, gzip }: PackedBody) =>
    new StoredBody({ etag, size, br: Buffer.from(br), gzip: Buffer.from(gzip) }, type);
  return {
    embedAllowedOrigins: packed.embedAllowedOrigins,
    html: unpack(packed.html),
    json: unpack(packed.json),
  };
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
    const [htmlGzip, htmlBr, jsonGzip, jsonBr] = BODY_FIELDS.map((field) => stored[field]);
    if (!meta.success || !htmlGzip || !htmlBr || !jsonGzip || !jsonBr) return null;
    const { revision, madeAt, embedAllowedOrigins, html, json } = meta.data;
    const page = unpackedPage({
      embedAllowedOrigins,
      html: { ...html, gzip: htmlGzip, br: htmlBr },
      json: { ...json, gzip: jsonGzip, br: jsonBr },
    });
    return { revision, madeAt, page };
  }

  /** Shares a page built under `revision` (its compressed forms are made now if not yet). */
  async put(slug: string, snapshot: PageSnapshot): Promise<void> {
    const { embedAllowedOrigins, html, json } = await packedPage(snapshot.page);
    const bodyMetaOf = ({ type, etag, size }: PackedBody) => ({ type, etag, size });
    const meta = {
      revision: snapshot.revision,
      madeAt: snapshot.madeAt,
      embedAllowedOrigins,
      html: bodyMetaOf(html),
      json: bodyMetaOf(json),
    };
    const key = this.key(slug);
    await this.redis
      .multi()
      .del(key)
      .hset(key, {
        meta: JSON.stringify(meta),
        'html.gzip': Buffer.from(html.gzip),
        'html.br': Buffer.from(html.br),
        'json.gzip': Buffer.from(json.gzip),
        'json.br': Buffer.from(json.br),
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
