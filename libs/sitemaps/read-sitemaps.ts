import { errorMessage } from '../errors/index.js';
import { type BodyDecoding, ProbeFailure, type ProbeOptions, readBoundedBody } from '../probe/index.js';
import { ErrorLog } from './error-log.js';
import { type GuardedAnswer, guardedGet } from './guarded-get.js';
import type { SitemapError, SitemapFile, SitemapReport, StoppedBy } from './sitemap.schema.js';
import { SitemapParser } from './sitemap-parser.js';
import { type FileTask, fileError, filesAfter, firstFiles } from './sitemap-plan.js';
import { UrlSample } from './url-sample.js';

export interface SitemapReadOptions {
  /** The SSRF guard, resolver, trusted roots and user agent every request goes with. */
  probe: ProbeOptions;
  /**
   * robots.txt's text when the caller has it (a crawl reads it anyway); null: the site has none;
   * absent: read here.
   */
  robotsTxt?: string | null;
  /** What `lastmod` "in the future" is measured from. @defaultValue now */
  now?: Date;
  /** Sitemap files read in all, listed ones and an index's children. @defaultValue 50 */
  maxSitemapFiles?: number;
  /** Uncompressed bytes read of one file: the protocol's 50 MB; more is FILE_TOO_LARGE. @defaultValue 52_428_800 */
  maxFileBytes?: number;
  /** Distinct URLs kept in `urls`. @defaultValue 1000 */
  maxUrlsKept?: number;
  /** URLs in `sample`. @defaultValue 100 */
  sampleSize?: number;
  /** What draws the sample. @defaultValue the website's origin (the same site, the same sample) */
  sampleSeed?: string;
  /** Errors kept (all are counted). @defaultValue 100 */
  maxErrorsKept?: number;
  /** One file's exchange, its body read whole included. @defaultValue 60_000 */
  fileTimeoutMs?: number;
  /** The whole read. @defaultValue 300_000 */
  deadlineMs?: number;
  /** Redirects followed for one file. @defaultValue 5 */
  maxRedirects?: number;
  /** Ends the read early (the worker stops), as its deadline does. */
  signal?: AbortSignal;
}

/** The protocol's 50 MB (52,428,800 bytes). */
export const MAX_SITEMAP_BYTES = 52_428_800;
/** robots.txt read (Google reads 500 KiB of it). */
const ROBOTS_MAX_BYTES = 500 * 1024;
const ACCEPT_XML = 'application/xml, text/xml;q=0.9, */*;q=0.8';

/**
 * A gzip Content-Encoding undone, then a gzip file undone once more when that is what the bytes
 * are (a sitemap.xml.gz); a truncated gzip is an error (NOT_WELL_FORMED), not a shorter file.
 */
const decodingOf = (answer: GuardedAnswer): BodyDecoding => ({
  contentEncoding: answer.headers['content-encoding'],
  gzipByMagic: true,
  strict: true,
});

interface ReadContext {
  settings: Required<Omit<SitemapReadOptions, 'robotsTxt' | 'signal'>>;
  deadline: AbortSignal;
  errors: ErrorLog;
  urls: Set<string>;
  sample: UrlSample;
  urlCount: number;
}

const plural = (count: number, word: string) =>
  `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

/**
 * Why an exchange gave no answer, as the error it is (UNREACHABLE, BLOCKED, a corrupt gzip), or
 * null past the whole read's deadline (said once in stoppedBy, not per file).
 */
function exchangeError(
  url: string,
  error: unknown,
  context: ReadContext,
  signal: AbortSignal,
): SitemapError | null {
  if (context.deadline.aborted) return null;
  if (signal.aborted)
    return fileError(
      url,
      'UNREACHABLE',
      `no complete answer within ${context.settings.fileTimeoutMs / 1000} s`,
    );
  if (error instanceof ProbeFailure)
    return fileError(url, error.code === 'BLOCKED_TARGET' ? 'BLOCKED' : 'UNREACHABLE', error.message);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && code.startsWith('Z_'))
    return fileError(url, 'NOT_WELL_FORMED', `not valid gzip: ${errorMessage(error)}`);
  return fileError(url, 'UNREACHABLE', errorMessage(error));
}

function exchangeSignal(context: ReadContext): AbortSignal {
  return AbortSignal.any([context.deadline, AbortSignal.timeout(context.settings.fileTimeoutMs)]);
}

/** robots.txt's text, or null when it cannot be read (no robots.txt: the default sitemap is tried). */
async function readRobots(url: string, context: ReadContext): Promise<string | null> {
  let answer: GuardedAnswer | null = null;
  try {
    answer = await guardedGet(url, context.settings.probe, {
      signal: exchangeSignal(context),
      maxRedirects: context.settings.maxRedirects,
      accept: 'text/plain, */*;q=0.8',
    });
    if (answer.status < 200 || answer.status > 299) return null;
    // What is past the bound is dropped, as a crawler does.
    const body = readBoundedBody(answer.body, decodingOf(answer), {
      maxWireBytes: Number.POSITIVE_INFINITY,
      maxDecodedBytes: ROBOTS_MAX_BYTES,
    });
    const parts: Buffer[] = [];
    for await (const chunk of body.chunks) parts.push(chunk);
    return new TextDecoder().decode(Buffer.concat(parts));
  } catch {
    return null;
  } finally {
    await answer?.close();
  }
}

/** An index's children to read, up to the files bound, and how many more it listed. */
interface Children {
  urls: string[];
  dropped: number;
}

/** One sitemap file fetched and parsed as it arrives; its entries' URLs go to `context` or `children`. */
async function readFile(task: FileTask, context: ReadContext, children: Children): Promise<SitemapFile> {
  const { settings, errors } = context;
  const file: SitemapFile = {
    url: task.url,
    foundIn: task.foundIn,
    kind: null,
    httpStatus: null,
    compressed: false,
    bytes: 0,
    entries: 0,
    complete: false,
  };
  const signal = exchangeSignal(context);
  let answer: GuardedAnswer;
  try {
    answer = await guardedGet(task.url, settings.probe, {
      signal,
      maxRedirects: settings.maxRedirects,
      accept: ACCEPT_XML,
    });
  } catch (error) {
    const problem = exchangeError(task.url, error, context, signal);
    if (problem) errors.add(problem);
    return file;
  }
  file.httpStatus = answer.status;
  if (answer.status < 200 || answer.status > 299) {
    await answer.close();
    const notFound = task.foundIn === 'default' && answer.status === 404;
    errors.add(
      notFound
        ? fileError(
            task.url,
            'SITEMAP_NOT_FOUND',
            'no usable `Sitemap:` line in robots.txt, and /sitemap.xml answered 404',
          )
        : fileError(
            task.url,
            'HTTP_ERROR',
            `answered ${answer.status}${task.depth ? ` (listed in ${task.foundIn})` : ''}`,
          ),
    );
    return file;
  }
  const parser = new SitemapParser(
    { url: task.url, allowedHosts: task.allowedHosts, now: settings.now },
    errors,
    (loc) => {
      if (parser.kind === 'index') {
        if (children.urls.length < settings.maxSitemapFiles) children.urls.push(loc);
        else children.dropped += 1;
        return;
      }
      context.urlCount += 1;
      if (context.urls.size < settings.maxUrlsKept) context.urls.add(loc);
      context.sample.add(loc);
    },
  );
  // The file's bound is on its uncompressed bytes; the file timeout bounds its time on the wire.
  const body = readBoundedBody(answer.body, decodingOf(answer), {
    maxWireBytes: Number.POSITIVE_INFINITY,
    maxDecodedBytes: settings.maxFileBytes,
  });
  let readWhole = true;
  try {
    for await (const chunk of body.chunks) {
      parser.write(chunk);
      if (parser.failed) break;
    }
    if (body.read.cutBy === 'decodedBytes') {
      errors.add(
        fileError(
          task.url,
          'FILE_TOO_LARGE',
          `over ${plural(settings.maxFileBytes, 'byte')} uncompressed${body.compressed() ? ' (decompressing it stopped there)' : ''}`,
        ),
      );
      readWhole = false;
    }
  } catch (error) {
    readWhole = false;
    const problem = exchangeError(task.url, error, context, signal);
    if (problem) errors.add(problem);
  } finally {
    file.bytes = body.read.decodedBytes;
    await answer.close();
  }
  parser.end(readWhole);
  return {
    ...file,
    kind: parser.kind,
    compressed: body.compressed(),
    entries: parser.entries,
    complete: readWhole && !parser.failed,
  };
}

/**
 * A website's sitemaps found (robots.txt `Sitemap:` lines, else /sitemap.xml), read one file at a
 * time through the SSRF guard (gzip undone, an index's children followed one level), validated as
 * they stream, with their URLs: the first ones kept for a crawl and a seeded sample for checking.
 * Every bound that cut the read short is in `stoppedBy`; this function does not throw for the site.
 */
export async function readSitemaps(websiteUrl: string, options: SitemapReadOptions): Promise<SitemapReport> {
  const site = new URL(websiteUrl);
  const settings = {
    now: new Date(),
    maxSitemapFiles: 50,
    maxFileBytes: MAX_SITEMAP_BYTES,
    maxUrlsKept: 1000,
    sampleSize: 100,
    sampleSeed: site.origin,
    maxErrorsKept: 100,
    fileTimeoutMs: 60_000,
    deadlineMs: 300_000,
    maxRedirects: 5,
    ...options,
  };
  const context: ReadContext = {
    settings,
    deadline: options.signal
      ? AbortSignal.any([AbortSignal.timeout(settings.deadlineMs), options.signal])
      : AbortSignal.timeout(settings.deadlineMs),
    errors: new ErrorLog(settings.maxErrorsKept),
    urls: new Set(),
    sample: new UrlSample(settings.sampleSize, settings.sampleSeed),
    urlCount: 0,
  };
  const stoppedBy: StoppedBy[] = [];
  const robotsTxt =
    options.robotsTxt !== undefined
      ? options.robotsTxt
      : await readRobots(new URL('/robots.txt', site).href, context);
  const first = firstFiles(site, robotsTxt, context.errors);
  const queue = [...first.tasks];
  const files: SitemapFile[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (let task = queue.shift(); task; task = queue.shift()) {
    if (seen.has(task.url)) continue;
    seen.add(task.url);
    if (context.deadline.aborted || files.length >= settings.maxSitemapFiles) {
      skipped += 1;
      continue;
    }
    const children: Children = { urls: [], dropped: 0 };
    const file = await readFile(task, context, children);
    files.push(file);
    const after = filesAfter(task, file.kind, children.urls);
    if (after.error) context.errors.add(after.error);
    else skipped += children.dropped;
    queue.push(...after.tasks);
  }
  if (context.deadline.aborted)
    stoppedBy.push({
      bound: 'deadlineMs',
      message: `stopped after ${settings.deadlineMs / 1000} s; ${plural(skipped, 'sitemap')} not read`,
    });
  else if (skipped > 0)
    stoppedBy.push({
      bound: 'maxSitemapFiles',
      message: `read ${plural(files.length, 'sitemap')}; ${skipped.toLocaleString('en')} more not read`,
    });
  if (context.urlCount > context.urls.size && context.urls.size >= settings.maxUrlsKept)
    stoppedBy.push({
      bound: 'maxUrlsKept',
      message: `kept the first ${plural(settings.maxUrlsKept, 'URL')} of the ${context.urlCount.toLocaleString('en')} listed`,
    });
  if (context.errors.count > context.errors.kept.length)
    stoppedBy.push({
      bound: 'maxErrorsKept',
      message: `kept the first ${plural(settings.maxErrorsKept, 'error')} of ${context.errors.count.toLocaleString('en')}`,
    });
  const notFound = first.found === 'default' && files[0]?.httpStatus === 404;
  return {
    found: notFound ? 'none' : first.found,
    sitemaps: files,
    urlCount: context.urlCount,
    urls: [...context.urls],
    sample: context.sample.list(),
    errors: context.errors.kept,
    errorCount: context.errors.count,
    stoppedBy,
  };
}
