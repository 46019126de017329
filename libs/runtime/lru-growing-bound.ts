/**
 * `lru-cache` options for at most `maxEntries` entries in storage that grows as they come: its
 * `max` allocates arrays for that many entries when the cache is made, megabytes for a bound set
 * far above the usual count (and again for each such cache), where counting every entry as size 1
 * against `maxSize` holds only what is kept.
 */
export function growingUpTo(maxEntries: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: maxEntries, sizeCalculation: () => 1 };
}
