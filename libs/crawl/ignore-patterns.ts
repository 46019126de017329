/**
 * Whether `text` matches `pattern`, where `*` stands for any run of characters (`/` included) and
 * everything else for itself. Greedy matching that backtracks only to the last `*`: time grows with
 * length × length at worst, never exponentially, whatever stars a pattern holds.
 */
export function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      starAt = p++;
      resumeAt = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (starAt >= 0) {
      p = starAt + 1;
      t = ++resumeAt;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * A crawl's ignore rules: a URL is neither crawled, checked nor reported when its normalized form
 * (see `normalizeUrl`: lower-case scheme and host, no default port, no fragment) matches one of the
 * patterns whole. `*` is any run of characters; there is no other special character. Examples:
 * `https://example.com/private/*`, `*.pdf`, `*://ads.example.net/*`, `*?utm_*`.
 */
export function ignoreMatcher(patterns: readonly string[]): (url: string) => boolean {
  if (patterns.length === 0) return () => false;
  return (url) => patterns.some((pattern) => globMatches(pattern, url));
}
