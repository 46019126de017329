import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProbeOptions, systemResolve, TlsContexts } from '../libs/probe/index.js';
import {
  checkSitemapUrls,
  MAX_SITEMAP_BYTES,
  readSitemaps,
  SitemapReportSchema,
  SitemapUrlCheckSchema,
} from '../libs/sitemaps/index.js';
import { STORE_PORTS } from '../libs/targets/index.js';
import { answer, indexXml, type SitemapSite, startSitemapSite, urlsetXml } from './support/sitemap-site.js';

const probe: ProbeOptions = {
  allowPrivateTargets: true,
  resolve: systemResolve,
  tls: new TlsContexts([]),
  userAgent: 'webmon-test/1',
};
const NOW = new Date('2024-06-01T12:00:00Z');
const XML = { 'content-type': 'application/xml' };
const GZIP_FILE = { 'content-type': 'application/x-gzip' };

const sites: SitemapSite[] = [];
async function site(...args: Parameters<typeof startSitemapSite>): Promise<SitemapSite> {
  const started = await startSitemapSite(...args);
  sites.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(sites.splice(0).map((started) => started.close()));
});

const pages = (base: string, names: readonly string[]) => names.map((name) => `${base}/${name}`);

describe('reading a site’s sitemaps', () => {
  it('follows robots.txt to an index, its gzip and plain children, and names a child that is not found', async () => {
    const shop = await site((base) => ({
      '/robots.txt': answer(`User-agent: *\nDisallow: /admin\n\nSitemap: ${base}/sitemap_index.xml\n`),
      '/sitemap_index.xml': answer(
        indexXml([`${base}/products.xml.gz`, `${base}/pages.xml`, `${base}/missing.xml`, `${base}/news.xml`]),
        XML,
      ),
      '/products.xml.gz': answer(gzipSync(urlsetXml(pages(base, ['p/1', 'p/2', 'p/3']))), GZIP_FILE),
      '/pages.xml': answer(urlsetXml(pages(base, ['', 'about']))),
      // Gzip as a transfer encoding too, undone by the same reader.
      '/news.xml': answer(gzipSync(urlsetXml(pages(base, ['news/1']))), {
        ...XML,
        'content-encoding': 'gzip',
      }),
    }));
    const report = await readSitemaps(`${shop.url}/`, { probe, now: NOW });
    expect(SitemapReportSchema.parse(report)).toEqual(report);
    expect(report.found).toBe('robots.txt');
    expect(
      report.sitemaps.map(({ url, foundIn, kind, httpStatus, compressed, entries, complete }) => ({
        url: url.replace(shop.url, ''),
        foundIn: foundIn.replace(shop.url, ''),
        kind,
        httpStatus,
        compressed,
        entries,
        complete,
      })),
    ).toEqual([
      {
        url: '/sitemap_index.xml',
        foundIn: 'robots.txt',
        kind: 'index',
        httpStatus: 200,
        compressed: false,
        entries: 4,
        complete: true,
      },
      {
        url: '/products.xml.gz',
        foundIn: '/sitemap_index.xml',
        kind: 'urlset',
        httpStatus: 200,
        compressed: true,
        entries: 3,
        complete: true,
      },
      {
        url: '/pages.xml',
        foundIn: '/sitemap_index.xml',
        kind: 'urlset',
        httpStatus: 200,
        compressed: false,
        entries: 2,
        complete: true,
      },
      {
        url: '/missing.xml',
        foundIn: '/sitemap_index.xml',
        kind: null,
        httpStatus: 404,
        compressed: false,
        entries: 0,
        complete: false,
      },
      {
        url: '/news.xml',
        foundIn: '/sitemap_index.xml',
        kind: 'urlset',
        httpStatus: 200,
        compressed: true,
        entries: 1,
        complete: true,
      },
    ]);
    expect(report.sitemaps[2]?.bytes).toBe(Buffer.byteLength(urlsetXml(pages(shop.url, ['', 'about']))));
    expect(report.urls).toEqual(pages(shop.url, ['p/1', 'p/2', 'p/3', '', 'about', 'news/1']));
    expect(report.urlCount).toBe(6);
    expect([...report.sample].sort()).toEqual([...report.urls].sort());
    expect(report.errors).toEqual([
      {
        code: 'HTTP_ERROR',
        message: `answered 404 (listed in ${shop.url}/sitemap_index.xml)`,
        file: `${shop.url}/missing.xml`,
        line: null,
        column: null,
        entry: null,
      },
    ]);
    expect(report.errorCount).toBe(1);
    expect(report.stoppedBy).toEqual([]);
    // Our user agent on every request.
    expect(shop.requests).toEqual([
      'GET /robots.txt',
      'GET /sitemap_index.xml',
      'GET /products.xml.gz',
      'GET /pages.xml',
      'GET /missing.xml',
      'GET /news.xml',
    ]);
  });

  it('undoes a .gz file sent with Content-Encoding gzip too, and names a truncated gzip', async () => {
    const shop = await site((base) => {
      const gz = gzipSync(urlsetXml(pages(base, ['double'])));
      return {
        '/sitemap.xml': answer(indexXml([`${base}/double.xml.gz`, `${base}/truncated.xml.gz`])),
        '/double.xml.gz': answer(gzipSync(gz), { ...GZIP_FILE, 'content-encoding': 'gzip' }),
        '/truncated.xml.gz': answer(gz.subarray(0, gz.length - 12), GZIP_FILE),
      };
    });
    const report = await readSitemaps(shop.url, { probe, now: NOW, robotsTxt: null });
    expect(report.urls).toEqual([`${shop.url}/double`]);
    expect(report.sitemaps[1]).toMatchObject({ compressed: true, complete: true });
    expect(report.errors).toEqual([
      expect.objectContaining({ code: 'NOT_WELL_FORMED', file: `${shop.url}/truncated.xml.gz`, line: null }),
    ]);
    expect(report.errors[0]?.message).toMatch(/^not valid gzip: /);
  });

  it('falls back to /sitemap.xml, following its redirect, and says when there is none', async () => {
    const shop = await site((base) => ({
      '/sitemap.xml': answer('', { location: `${base}/sitemaps/all.xml` }, 301),
      '/sitemaps/all.xml': answer(urlsetXml(pages(base, ['a', 'b']))),
    }));
    const report = await readSitemaps(shop.url, { probe, now: NOW });
    expect(report.found).toBe('default');
    expect(report.urls).toEqual(pages(shop.url, ['a', 'b']));
    expect(report.errors).toEqual([]);
    expect(shop.requests).toEqual(['GET /robots.txt', 'GET /sitemap.xml', 'GET /sitemaps/all.xml']);

    const bare = await site(() => ({ '/robots.txt': answer('User-agent: *\nDisallow:\n') }));
    const none = await readSitemaps(bare.url, { probe, now: NOW });
    expect(none.found).toBe('none');
    expect(none.errors.map(({ code, file }) => ({ code, file }))).toEqual([
      { code: 'SITEMAP_NOT_FOUND', file: `${bare.url}/sitemap.xml` },
    ]);
  });

  it('takes robots.txt from the caller when it has read it', async () => {
    const shop = await site((base) => ({ '/listed.xml': answer(urlsetXml(pages(base, ['x']))) }));
    const report = await readSitemaps(shop.url, {
      probe,
      now: NOW,
      robotsTxt: `Sitemap: ${shop.url}/listed.xml`,
    });
    expect(report.urls).toEqual([`${shop.url}/x`]);
    expect(shop.requests).toEqual(['GET /listed.xml']);
  });

  it('stops decompressing a gzip bomb at 50 MB and says so, and names an index inside an index', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ),
        Buffer.alloc(MAX_SITEMAP_BYTES + 8 * 1024 * 1024, ' '),
        Buffer.from('</urlset>'),
      ]),
      { level: 9 },
    );
    expect(bomb.length).toBeLessThan(200 * 1024);
    const shop = await site((base) => ({
      '/sitemap.xml': answer(indexXml([`${base}/bomb.xml.gz`, `${base}/inner-index.xml`, `${base}/ok.xml`])),
      '/bomb.xml.gz': answer(bomb, GZIP_FILE),
      '/inner-index.xml': answer(indexXml([`${base}/deeper.xml`])),
      '/ok.xml': answer(urlsetXml(pages(base, ['ok']))),
    }));
    const report = await readSitemaps(shop.url, { probe, now: NOW, robotsTxt: null });
    const [, bombFile, inner] = report.sitemaps;
    expect(bombFile).toMatchObject({
      kind: 'urlset',
      compressed: true,
      bytes: MAX_SITEMAP_BYTES,
      complete: false,
    });
    expect(inner).toMatchObject({ kind: 'index', entries: 1 });
    expect(
      report.errors.map(({ code, file, message }) => ({ code, file: file.replace(shop.url, ''), message })),
    ).toEqual([
      {
        code: 'FILE_TOO_LARGE',
        file: '/bomb.xml.gz',
        message: 'over 52,428,800 bytes uncompressed (decompressing it stopped there)',
      },
      {
        code: 'NESTED_INDEX',
        file: '/inner-index.xml',
        message: `a <sitemapindex> listed in the index ${shop.url}/sitemap.xml; an index may list only <urlset> files, so its entries are not read`,
      },
    ]);
    expect(report.urls).toEqual([`${shop.url}/ok`]);
    expect(shop.requests).not.toContain('GET /deeper.xml');
  });

  it('never reaches a private address a robots.txt lists or a child redirects to, when private targets are not allowed', async () => {
    const internal = await site((base) => ({
      '/sitemap.xml': answer(urlsetXml(pages(base, ['secret']))),
      '/moved.xml': answer(urlsetXml(pages(base, ['secret']))),
    }));
    // The site is on an address the operator exempted; 127.0.0.1 stays private.
    const shop = await site(
      (base) => ({
        '/robots.txt': answer(`Sitemap: ${base}/index.xml\nSitemap: ${internal.url}/sitemap.xml\n`),
        '/index.xml': answer(indexXml([`${base}/moved.xml`, `${base}/public.xml`])),
        '/moved.xml': answer('', { location: `${internal.url}/moved.xml` }, 302),
        '/public.xml': answer(urlsetXml(pages(base, ['public']))),
      }),
      '127.0.0.2',
    );
    const guarded: ProbeOptions = {
      ...probe,
      allowPrivateTargets: false,
      exemptAddresses: [{ address: '127.0.0.2', exceptPorts: STORE_PORTS }],
    };
    const report = await readSitemaps(shop.url, { probe: guarded, now: NOW });
    expect(report.errors.map(({ code, file }) => ({ code, file }))).toEqual([
      { code: 'BLOCKED', file: `${internal.url}/sitemap.xml` },
      { code: 'BLOCKED', file: `${shop.url}/moved.xml` },
    ]);
    expect(report.errors[0]?.message).toContain('monitoring may not reach');
    expect(report.urls).toEqual([`${shop.url}/public`]);
    expect(internal.requests).toEqual([]);
  });

  it('reads no more sitemaps than its bound and says so', async () => {
    const shop = await site((base) => ({
      '/sitemap.xml': answer(indexXml(Array.from({ length: 8 }, (_, n) => `${base}/s${n}.xml`))),
      ...Object.fromEntries(
        Array.from({ length: 8 }, (_, n) => [`/s${n}.xml`, answer(urlsetXml(pages(base, [`p${n}`])))]),
      ),
    }));
    const report = await readSitemaps(shop.url, {
      probe,
      now: NOW,
      robotsTxt: null,
      maxSitemapFiles: 3,
      maxUrlsKept: 1,
    });
    expect(report.sitemaps).toHaveLength(3);
    expect(report.urlCount).toBe(2);
    expect(report.stoppedBy).toEqual([
      { bound: 'maxSitemapFiles', message: 'read 3 sitemaps; 6 more not read' },
      { bound: 'maxUrlsKept', message: 'kept the first 1 URL of the 2 listed' },
    ]);
  });
});

describe('reading within time bounds', () => {
  /** Sends the start of a urlset and then nothing more. */
  const stalls = (base: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, XML);
    res.write(urlsetXml(pages(base, ['early'])).slice(0, 120));
  };

  it('gives up a file that stalls mid-body and goes on to the next', async () => {
    const shop = await site((base) => ({
      '/sitemap.xml': answer(indexXml([`${base}/stalls.xml`, `${base}/next.xml`])),
      '/stalls.xml': stalls(base),
      '/next.xml': answer(urlsetXml(pages(base, ['next']))),
    }));
    const report = await readSitemaps(shop.url, { probe, now: NOW, robotsTxt: null, fileTimeoutMs: 400 });
    expect(
      report.errors.map(({ code, file, message }) => ({ code, file: file.replace(shop.url, ''), message })),
    ).toEqual([{ code: 'UNREACHABLE', file: '/stalls.xml', message: 'no complete answer within 0.4 s' }]);
    expect(report.sitemaps[1]).toMatchObject({ httpStatus: 200, kind: 'urlset', complete: false });
    expect(report.urls).toEqual([`${shop.url}/next`]);
    expect(report.stoppedBy).toEqual([]);
  });

  it('stops at its deadline and says what it did not read', async () => {
    const shop = await site((base) => ({
      '/sitemap.xml': answer(indexXml([`${base}/stalls.xml`, `${base}/never.xml`])),
      '/stalls.xml': stalls(base),
    }));
    const started = Date.now();
    const report = await readSitemaps(shop.url, { probe, now: NOW, robotsTxt: null, deadlineMs: 500 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(report.errors).toEqual([]);
    expect(report.stoppedBy).toEqual([
      { bound: 'deadlineMs', message: 'stopped after 0.5 s; 1 sitemap not read' },
    ]);
    expect(shop.requests).not.toContain('GET /never.xml');
  });
});

describe('checking a sitemap’s URLs', () => {
  it('finds exactly the planted broken URLs, a few requests at a time', async () => {
    const slowly = (status: number) => (_req: unknown, res: { statusCode: number; end(): void }) => {
      setTimeout(() => {
        res.statusCode = status;
        res.end();
      }, 30);
    };
    const fine = Array.from({ length: 16 }, (_, n) => `ok/${n}`);
    const planted = ['missing', 'gone', 'error', 'loop', 'dropped', 'stalls'];
    const shop = await site((base) => ({
      ...Object.fromEntries(fine.map((name) => [`/${name}`, slowly(200)])),
      // A server that refuses HEAD is not a broken link: GET decides.
      '/head-refused': (req, res) => {
        res.statusCode = req.method === 'HEAD' ? 405 : 200;
        res.end();
      },
      '/moved': answer('', { location: `${base}/ok/1` }, 301),
      '/missing': slowly(404),
      '/gone': slowly(410),
      '/error': slowly(500),
      '/loop': answer('', { location: `${base}/loop-back` }, 302),
      '/loop-back': answer('', { location: `${base}/loop` }, 302),
      '/dropped': (req) => req.socket.destroy(),
      '/stalls': () => undefined,
      '/sitemap.xml': answer(urlsetXml(pages(base, [...fine, 'head-refused', 'moved', ...planted]))),
    }));
    const report = await readSitemaps(shop.url, { probe, now: NOW, robotsTxt: null });
    expect(report.urlCount).toBe(24);
    const check = await checkSitemapUrls(report.urls, { probe, concurrency: 3, timeoutMs: 1500 });
    expect(SitemapUrlCheckSchema.parse(check)).toEqual(check);
    expect(check.checked).toBe(24);
    expect(check.stoppedBy).toEqual([]);
    expect(
      check.broken.map(({ url, status, error }) => ({ url: url.replace(shop.url, ''), status, error })),
    ).toEqual([
      { url: '/missing', status: 404, error: null },
      { url: '/gone', status: 410, error: null },
      { url: '/error', status: 500, error: null },
      { url: '/loop', status: 302, error: 'REDIRECT_LOOP' },
      { url: '/dropped', status: null, error: expect.any(String) },
      { url: '/stalls', status: null, error: 'TIMEOUT' },
    ]);
    expect(shop.peakInFlight()).toBeLessThanOrEqual(3);
    expect(shop.requests).toContain('GET /head-refused');
    expect(shop.requests).toContain('GET /missing');
  });

  it('starts no check past its deadline and says how many were left', async () => {
    const shop = await site(() => ({ '/slow': (_req, res) => setTimeout(() => res.end(), 300) }));
    const urls = Array.from({ length: 6 }, (_, n) => `${shop.url}/slow?n=${n}`);
    const check = await checkSitemapUrls(urls, { probe, concurrency: 1, deadlineMs: 500 });
    expect(check.checked).toBe(2);
    expect(check.broken).toEqual([]);
    expect(check.stoppedBy).toEqual([
      { bound: 'deadlineMs', message: 'stopped after 0.5 s; 4 URLs not checked' },
    ]);
  });

  it('checks no more than its bound and says so', async () => {
    const shop = await site(() => ({ '/a': answer('a'), '/b': answer('b') }));
    const check = await checkSitemapUrls([`${shop.url}/a`, `${shop.url}/b`, `${shop.url}/c`], {
      probe,
      maxUrls: 2,
    });
    expect(check).toEqual({
      checked: 2,
      broken: [],
      stoppedBy: [{ bound: 'maxUrls', message: 'checked the first 2 of 3 URLs' }],
    });
    expect(shop.requests).toEqual(['HEAD /a', 'HEAD /b']);
  });
});
