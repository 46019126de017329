/** What a website is searched by: its name and its URL without the scheme, lower-cased. */
export function searchedText(website: { name: string; url: string }): string[] {
  return [website.name.toLowerCase(), website.url.toLowerCase().replace(/^https?:\/\//, '')];
}

/** The runs of three characters of each text (by code point), each once. */
export function trigramsOf(texts: readonly string[]): string[] {
  const grams = new Set<string>();
  for (const text of texts) {
    const chars = [...text];
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  }
  return [...grams];
}

/** A query as searched: trimmed and lower-cased. */
export const normalizedQuery = (query: string) => query.trim().toLowerCase();

/** Whether the website's name or URL (without the scheme) holds the normalized query. */
export function matchesSearch(website: { name: string; url: string }, query: string): boolean {
  return searchedText(website).some((text) => text.includes(query));
}

/** What an index must add and drop when a website's name or URL changes. */
export function trigramChange(
  before: { name: string; url: string } | null,
  after: { name: string; url: string } | null,
): { added: string[]; dropped: string[] } {
  const old = new Set(before ? trigramsOf(searchedText(before)) : []);
  const next = new Set(after ? trigramsOf(searchedText(after)) : []);
  return {
    added: [...next].filter((gram) => !old.has(gram)),
    dropped: [...old].filter((gram) => !next.has(gram)),
  };
}
