import { once } from 'node:events';
import { createGunzip } from 'node:zlib';

/**
 * Compressed bytes handed to gunzip at a time. Deflate expands at most ~1,032 times, so one slice
 * can grow to 4 MiB at most: a gzip bomb's chunk cannot balloon in memory before the decoded-bytes
 * bound sees it (zlib inflates a whole written chunk, however little is read of its output).
 */
const GUNZIP_SLICE = 4096;
const GZIP_MAGIC = [0x1f, 0x8b];

/** `source` gunzipped, fed in small slices with backpressure; stops reading `source` when left. */
async function* gunzip(source: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  const inflater = createGunzip();
  const stopped = new AbortController();
  const pump = (async () => {
    try {
      for await (const chunk of source) {
        for (let at = 0; at < chunk.length; at += GUNZIP_SLICE) {
          if (!inflater.write(chunk.subarray(at, at + GUNZIP_SLICE)))
            await once(inflater, 'drain', { signal: stopped.signal });
        }
      }
      inflater.end();
    } catch (error) {
      if (!stopped.signal.aborted) inflater.destroy(error as Error);
    }
  })();
  try {
    for await (const out of inflater) yield out as Buffer;
  } finally {
    stopped.abort();
    inflater.destroy();
    await pump;
  }
}

/** `source`, gunzipped when its first bytes open a gzip stream (`onGzip` is told so). */
async function* gunzipIfGzip(
  source: AsyncIterable<Uint8Array>,
  onGzip: () => void,
): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < GZIP_MAGIC.length) {
      const next = await iterator.next();
      if (next.done) break;
      head.push(next.value);
      length += next.value.length;
    }
    const first = Buffer.concat(head);
    const whole = (async function* () {
      if (first.length > 0) yield first;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
    const isGzip = first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
    if (isGzip) onGzip();
    yield* isGzip ? gunzip(whole) : whole;
  } finally {
    await iterator.return?.();
  }
}

export interface DecodedBody {
  /** Whether it was gzip-compressed (by Content-Encoding, or a .gz file however it was labelled). */
  compressed: () => boolean;
  /** The decoded bytes, as they arrive. */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * A sitemap's bytes as XML: a gzip Content-Encoding undone, then a gzip file undone once more when
 * that is what the bytes are (a sitemap.xml.gz is sent as application/x-gzip, as
 * `Content-Encoding: gzip`, or both), told by its magic bytes rather than its name or type.
 */
export function decodedBody(
  body: AsyncIterable<Uint8Array>,
  contentEncoding: string | undefined,
): DecodedBody {
  const encoding = contentEncoding?.trim().toLowerCase();
  let compressed = encoding === 'gzip' || encoding === 'x-gzip';
  const chunks = gunzipIfGzip(compressed ? gunzip(body) : body, () => {
    compressed = true;
  });
  return { compressed: () => compressed, chunks };
}
