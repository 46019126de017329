import type { SitemapError } from './sitemap.schema.js';

/**
 * The errors of one read, the first `maxKept` of them kept and all counted: a broken 50 MB file
 * can hold a million bad entries, and memory holds only the first ones.
 */
export class ErrorLog {
  readonly kept: SitemapError[] = [];
  count = 0;

  constructor(private readonly maxKept: number) {}

  add(error: SitemapError): void {
    this.count += 1;
    if (this.kept.length < this.maxKept) this.kept.push(error);
  }
}
