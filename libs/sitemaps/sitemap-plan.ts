import type { ErrorLog } from './error-log.js';
import { sitemapLines } from './robots-sitemaps.js';
import type { SitemapError, SitemapFile } from './sitemap.schema.js';

/** A sitemap file to read. */
export interface FileTask {
  url: string;
  /** `robots.txt`, `default`, or the index that lists it. */
  foundIn: string;
  /** 0: listed in robots.txt or the default; 1: listed by an index. */
  depth: 0 | 1;
  /** Hosts its `<loc>`s may be on (see `locProblem`). */
  allowedHosts: ReadonlySet<string>;
}

/** An error of a whole file (no position in it). */
export function fileError(file: string, code: SitemapError['code'], message: string): SitemapError {
  return { code, message, file, line: null, column: null, entry: null };
}

/**
 * The files to read first: robots.txt's `Sitemap:` lines (each not an absolute http(s) URL named
 * at its line), else /sitemap.xml. A sitemap robots.txt lists may be on another host and still
 * list the site's URLs: robots.txt is the site owner vouching for it (the protocol's
 * cross-submission), so the site's host is allowed beside the sitemap's own.
 */
export function firstFiles(
  site: URL,
  robotsTxt: string | null,
  errors: ErrorLog,
): { found: 'robots.txt' | 'default'; tasks: FileTask[] } {
  const robotsUrl = new URL('/robots.txt', site).href;
  const tasks: FileTask[] = [];
  for (const { value, line } of robotsTxt === null ? [] : sitemapLines(robotsTxt)) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {}
    if (url && (url.protocol === 'http:' || url.protocol === 'https:'))
      tasks.push({
        url: url.href,
        foundIn: 'robots.txt',
        depth: 0,
        allowedHosts: new Set([url.host, site.host]),
      });
    else
      errors.add({
        ...fileError(
          robotsUrl,
          'INVALID_LOC',
          `Sitemap: ${value.slice(0, 100)} is not an absolute http(s) URL`,
        ),
        line,
      });
  }
  if (tasks.length > 0) return { found: 'robots.txt', tasks };
  const url = new URL('/sitemap.xml', site).href;
  return {
    found: 'default',
    tasks: [{ url, foundIn: 'default', depth: 0, allowedHosts: new Set([site.host]) }],
  };
}

/**
 * What a file read leads to: an index's children, one level down with the index's allowed hosts
 * (its `<loc>`s on another host were already named LOC_OTHER_HOST and are not among them), or, for
 * an index an index listed, the NESTED_INDEX error and nothing more (the protocol allows one level).
 */
export function filesAfter(
  task: FileTask,
  kind: SitemapFile['kind'],
  children: readonly string[],
): { tasks: FileTask[]; error: SitemapError | null } {
  if (kind !== 'index') return { tasks: [], error: null };
  if (task.depth === 1)
    return {
      tasks: [],
      error: fileError(
        task.url,
        'NESTED_INDEX',
        `a <sitemapindex> listed in the index ${task.foundIn}; an index may list only <urlset> files, so its entries are not read`,
      ),
    };
  return {
    tasks: children.map((url) => ({ url, foundIn: task.url, depth: 1, allowedHosts: task.allowedHosts })),
    error: null,
  };
}
