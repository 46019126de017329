/**
 * At most `limit` tasks at once; the others wait their turn in order. Reads anyone may cause (public
 * pages, badges) go through one, so however many such requests arrive, MongoDB has at most `limit`
 * of them in hand and the authenticated API's reads never queue behind a flood of them there.
 */
export class Bulkhead {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next task as it is; with none waiting it is freed.
      if (next) next();
      else this.running--;
    }
  }
}

/** The reads of public lookups in this process (status pages by slug, badges by website id). */
export const publicReads = new Bulkhead(4);
