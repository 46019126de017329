/** A 53-bit hash of a string (cyrb53, public domain): fast, well spread, the same everywhere. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A sample of a stream of URLs that keeps the `max` distinct ones whose seeded hash is lowest: the
 * same URLs and seed give the same sample whatever their order or repeats, each URL has the same
 * chance, a new seed draws another sample, and memory holds `max` URLs however many stream by.
 */
export class UrlSample {
  /** Ascending by hash, then by URL. */
  private readonly hashes: number[] = [];
  private readonly urls: string[] = [];

  constructor(
    private readonly max: number,
    private readonly seed: string,
  ) {}

  add(url: string): void {
    if (this.max <= 0) return;
    const hash = hash53(`${this.seed}\u0000${url}`);
    const last = this.hashes.length - 1;
    if (this.hashes.length >= this.max && hash > (this.hashes[last] ?? 0)) return;
    let low = 0;
    let high = this.hashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const at = this.hashes[middle] ?? 0;
      if (at < hash || (at === hash && (this.urls[middle] ?? '') < url)) low = middle + 1;
      else high = middle;
    }
    if (this.hashes[low] === hash && this.urls[low] === url) return;
    this.hashes.splice(low, 0, hash);
    this.urls.splice(low, 0, url);
    if (this.hashes.length > this.max) {
      this.hashes.pop();
      this.urls.pop();
    }
  }

  /** The sample, in hash order (so independent of the order the URLs came in). */
  list(): string[] {
    return [...this.urls];
  }
}

/** Up to `max` distinct URLs of `urls`, chosen by `seed` alone (see `UrlSample`). */
export function sampleUrls(urls: Iterable<string>, max: number, seed: string): string[] {
  const sample = new UrlSample(max, seed);
  for (const url of urls) sample.add(url);
  return sample.list();
}
