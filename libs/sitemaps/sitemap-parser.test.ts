import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorLog } from './error-log.js';
import { SitemapParser } from './sitemap-parser.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const FILE = 'https://shop.example/sitemap.xml';
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** Feeds `bytes` in `chunk`-byte writes, as a download would, and ends the file. */
function parse(xml: string | Uint8Array, chunk = 7, errors = new ErrorLog(1000)) {
  const locs: string[] = [];
  const parser = new SitemapParser(
    { url: FILE, allowedHosts: new Set(['shop.example']), now: NOW },
    errors,
    (loc) => locs.push(loc),
  );
  const bytes = typeof xml === 'string' ? Buffer.from(xml) : xml;
  for (let at = 0; at < bytes.length && !parser.failed; at += chunk)
    parser.write(bytes.subarray(at, at + chunk));
  parser.end(true);
  return { kind: parser.kind, entries: parser.entries, locs, errors: errors.kept, count: errors.count };
}

const urlset = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${body}\n</urlset>`;
const codes = (result: ReturnType<typeof parse>) => result.errors.map((error) => error.code);

describe('a valid sitemap', () => {
  it('reads a urlset with extensions (image, hreflang links), entities and CDATA, one byte at a time', () => {
    const result = parse(fixture('urlset.xml'), 1);
    expect(result.errors).toEqual([]);
    expect(result.kind).toBe('urlset');
    expect(result.entries).toBe(3);
    expect(result.locs).toEqual([
      'https://shop.example/',
      'https://shop.example/caf%C3%A9?colour=red&size=m',
      'https://shop.example/größe',
    ]);
  });

  it('reads an index', () => {
    const result = parse(fixture('index.xml'));
    expect(result.errors).toEqual([]);
    expect(result.kind).toBe('index');
    expect(result.locs).toEqual([
      'https://shop.example/sitemap-pages.xml',
      'https://shop.example/sitemap-products.xml.gz',
    ]);
  });

  it('accepts a byte order mark and a prefixed sitemap namespace', () => {
    const xml = `\uFEFF<sm:urlset xmlns:sm="${NS}"><sm:url><sm:loc>https://shop.example/</sm:loc></sm:url></sm:urlset>`;
    const result = parse(xml);
    expect(result.errors).toEqual([]);
    expect(result.locs).toEqual(['https://shop.example/']);
  });
});

describe('XML that is not well formed', () => {
  it('names the first error with its line and column, and judges nothing after it', () => {
    const result = parse(
      urlset('<url><loc>https://shop.example/</loc></ur>\n<url><priority>9</priority></url>'),
    );
    expect(result.errors).toEqual([
      expect.objectContaining({ code: 'NOT_WELL_FORMED', file: FILE, line: 3, column: 42 }),
    ]);
    expect(result.errors[0]?.message).toMatch(/^not well-formed XML: /);
    // What came before the error is kept (the crawl may still use it); nothing after it is read.
    expect(result.locs).toEqual(['https://shop.example/']);
  });

  it('names a file that ends inside its root, and an HTML page', () => {
    expect(codes(parse(`<urlset xmlns="${NS}"><url><loc>https://shop.example/</loc></url>`))).toEqual([
      'NOT_WELL_FORMED',
    ]);
    expect(codes(parse('<!doctype html><html><body><p>Not found<br></body></html>'))).toEqual([
      'NOT_WELL_FORMED',
    ]);
  });

  it('names bytes that are not UTF-8, and an encoding declared other than UTF-8', () => {
    const latin1 = Buffer.concat([
      Buffer.from(`<urlset xmlns="${NS}"><url><loc>https://shop.example/caf`),
      Buffer.from([0xe9]),
      Buffer.from('</loc></url></urlset>'),
    ]);
    expect(parse(latin1).errors).toEqual([expect.objectContaining({ code: 'NOT_UTF8', line: null })]);
    const declared = urlset('<url><loc>https://shop.example/</loc></url>').replace('UTF-8', 'ISO-8859-1');
    expect(parse(declared).errors).toEqual([expect.objectContaining({ code: 'NOT_UTF8', line: 1 })]);
  });
});

describe('the schema', () => {
  it.each([
    ['<rss version="2.0"><channel/></rss>', 'WRONG_ROOT'],
    ['<urlset><url><loc>https://shop.example/</loc></url></urlset>', 'WRONG_NAMESPACE'],
    [
      '<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://shop.example/</loc></url></urlset>',
      'WRONG_NAMESPACE',
    ],
    [
      `<sitemapindex xmlns="${NS}/"><sitemap><loc>https://shop.example/a.xml</loc></sitemap></sitemapindex>`,
      'WRONG_NAMESPACE',
    ],
  ])('names the root of %s', (xml, code) => {
    const result = parse(xml);
    expect(result.errors).toEqual([expect.objectContaining({ code, line: 1, entry: null })]);
    expect(result.kind).toBeNull();
    expect(result.locs).toEqual([]);
  });

  it('names elements of the sitemap namespace the schema does not have where they are', () => {
    const result = parse(
      urlset(
        [
          '<url><loc>https://shop.example/a</loc><title>A</title></url>',
          '<sitemap><loc>https://shop.example/s.xml</loc></sitemap>',
          '<url><loc>https://shop.example/<b>b</b></loc></url>',
          '<url><loc>https://shop.example/c</loc><other xmlns="">x</other></url>',
        ].join('\n'),
      ),
    );
    expect(result.errors.map(({ code, line, entry }) => ({ code, line, entry }))).toEqual([
      { code: 'UNKNOWN_ELEMENT', line: 3, entry: 1 },
      { code: 'UNKNOWN_ELEMENT', line: 4, entry: null },
      { code: 'UNKNOWN_ELEMENT', line: 5, entry: 2 },
    ]);
    expect(result.errors.map((error) => error.message)).toEqual([
      '<title> is not allowed in <url>',
      '<sitemap> is not allowed in <urlset>',
      '<b> is not allowed in <loc>',
    ]);
    // An element of no namespace is not the sitemap's: an extension, allowed.
    expect(result.locs).toEqual(['https://shop.example/a', 'https://shop.example/c']);
  });

  it('names a url or priority in an index', () => {
    const xml = `<sitemapindex xmlns="${NS}"><sitemap><loc>https://shop.example/a.xml</loc><priority>1</priority></sitemap><url><loc>https://shop.example/</loc></url></sitemapindex>`;
    expect(parse(xml).errors.map((error) => error.message)).toEqual([
      '<priority> is not allowed in <sitemap>',
      '<url> is not allowed in <sitemapindex>',
    ]);
  });

  it('names a repeated element, an entry without <loc> (by its index) and an empty urlset', () => {
    const result = parse(
      urlset(
        '<url><loc>https://shop.example/a</loc><loc>https://shop.example/b</loc></url>\n<url><lastmod>2024-01-01</lastmod></url>',
      ),
    );
    expect(result.errors.map(({ code, entry }) => ({ code, entry }))).toEqual([
      { code: 'REPEATED_ELEMENT', entry: 1 },
      { code: 'MISSING_LOC', entry: 2 },
    ]);
    expect(result.locs).toEqual(['https://shop.example/a']);
    expect(parse(urlset('')).errors).toEqual([
      expect.objectContaining({ code: 'EMPTY_SITEMAP', line: null }),
    ]);
  });

  it('names each bad value with its line, column and entry, and keeps only valid <loc>s', () => {
    const result = parse(
      urlset(
        [
          '<url><loc>/relative</loc></url>',
          `<url><loc>https://shop.example/${'x'.repeat(2100)}</loc></url>`,
          '<url><loc>https://other.example/</loc></url>',
          '<url><loc>https://shop.example/1</loc><lastmod>2024-31-12</lastmod></url>',
          '<url><loc>https://shop.example/2</loc><lastmod>2030-01-01</lastmod></url>',
          '<url><loc>https://shop.example/3</loc><changefreq>sometimes</changefreq></url>',
          '<url><loc>https://shop.example/4</loc>  <priority>1.5</priority></url>',
          '<url><loc>\n  https://shop.example/5\n</loc><lastmod> 2024-05-31T10:00:00Z </lastmod></url>',
        ].join('\n'),
      ),
    );
    expect(result.errors.map(({ code, line, column, entry }) => ({ code, line, column, entry }))).toEqual([
      { code: 'INVALID_LOC', line: 3, column: 10, entry: 1 },
      { code: 'LOC_TOO_LONG', line: 4, column: 10, entry: 2 },
      { code: 'LOC_OTHER_HOST', line: 5, column: 10, entry: 3 },
      { code: 'INVALID_LASTMOD', line: 6, column: 47, entry: 4 },
      { code: 'FUTURE_LASTMOD', line: 7, column: 47, entry: 5 },
      { code: 'INVALID_CHANGEFREQ', line: 8, column: 50, entry: 6 },
      { code: 'INVALID_PRIORITY', line: 9, column: 50, entry: 7 },
    ]);
    expect(result.locs).toEqual([
      'https://shop.example/1',
      'https://shop.example/2',
      'https://shop.example/3',
      'https://shop.example/4',
      'https://shop.example/5',
    ]);
  });
});

describe('bounds', () => {
  /** A urlset of `count` URLs, generated as it is written, never whole in memory. */
  function streamUrlset(count: number) {
    const errors = new ErrorLog(10);
    let locs = 0;
    const parser = new SitemapParser(
      { url: FILE, allowedHosts: new Set(['shop.example']), now: NOW },
      errors,
      () => {
        locs += 1;
      },
    );
    parser.write(Buffer.from(`<urlset xmlns="${NS}">`));
    const perChunk = 1000;
    for (let first = 0; first < count; first += perChunk) {
      let chunk = '';
      for (let n = first; n < Math.min(count, first + perChunk); n++)
        chunk += `<url><loc>https://shop.example/p/${n}</loc><lastmod>2024-05-01</lastmod></url>\n`;
      parser.write(Buffer.from(chunk));
    }
    parser.write(Buffer.from('</urlset>'));
    parser.end(true);
    return { entries: parser.entries, locs, errors: errors.kept };
  }

  it('allows 50,000 URLs in a file', () => {
    expect(streamUrlset(50_000)).toEqual({ entries: 50_000, locs: 50_000, errors: [] });
  });

  it('names the 50,001st URL once, and reads on', () => {
    const result = streamUrlset(50_001);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'TOO_MANY_URLS',
        entry: 50_001,
        line: 50_001,
        message: 'more than 50,000 <url> entries',
      }),
    ]);
    expect(result.locs).toBe(50_001);
  });

  it('keeps the first errors and counts them all', () => {
    const body = Array.from(
      { length: 500 },
      (_, n) => `<url><loc>https://shop.example/${n}</loc><priority>2</priority></url>`,
    );
    const result = parse(urlset(body.join('')), 4096, new ErrorLog(100));
    expect(result.errors).toHaveLength(100);
    expect(result.count).toBe(500);
    expect(result.locs).toHaveLength(500);
  });

  it('judges nothing more of a file a bound cut short', () => {
    const errors = new ErrorLog(10);
    const parser = new SitemapParser(
      { url: FILE, allowedHosts: new Set(['shop.example']), now: NOW },
      errors,
      () => {},
    );
    parser.write(Buffer.from(`<urlset xmlns="${NS}"><url><loc>https://shop.ex`));
    parser.end(false);
    expect(errors.kept).toEqual([]);
  });
});
