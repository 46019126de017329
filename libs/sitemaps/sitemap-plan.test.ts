import { describe, expect, it } from 'vitest';
import { ErrorLog } from './error-log.js';
import { filesAfter, firstFiles } from './sitemap-plan.js';

const SITE = new URL('https://shop.example/');

describe('firstFiles', () => {
  it('reads the sitemaps robots.txt lists, allowing the site’s host beside each one’s own', () => {
    const errors = new ErrorLog(10);
    const first = firstFiles(
      SITE,
      'User-agent: *\nSitemap: https://cdn.example/shop-index.xml\nSitemap: /relative.xml\nSitemap: ftp://shop.example/s.xml\n',
      errors,
    );
    expect(first.found).toBe('robots.txt');
    expect(first.tasks).toEqual([
      {
        url: 'https://cdn.example/shop-index.xml',
        foundIn: 'robots.txt',
        depth: 0,
        allowedHosts: new Set(['cdn.example', 'shop.example']),
      },
    ]);
    expect(errors.kept.map(({ code, file, line }) => ({ code, file, line }))).toEqual([
      { code: 'INVALID_LOC', file: 'https://shop.example/robots.txt', line: 3 },
      { code: 'INVALID_LOC', file: 'https://shop.example/robots.txt', line: 4 },
    ]);
  });

  it('falls back to /sitemap.xml without robots.txt or without a usable Sitemap: line', () => {
    const fallback = {
      found: 'default',
      tasks: [
        {
          url: 'https://shop.example/sitemap.xml',
          foundIn: 'default',
          depth: 0,
          allowedHosts: new Set(['shop.example']),
        },
      ],
    };
    expect(firstFiles(SITE, null, new ErrorLog(10))).toEqual(fallback);
    expect(firstFiles(SITE, 'User-agent: *\nDisallow: /\n', new ErrorLog(10))).toEqual(fallback);
    expect(firstFiles(SITE, 'Sitemap: sitemap.xml\n', new ErrorLog(10))).toEqual(fallback);
  });
});

describe('filesAfter', () => {
  const listed = {
    url: 'https://shop.example/index.xml',
    foundIn: 'robots.txt',
    depth: 0 as const,
    allowedHosts: new Set(['shop.example']),
  };

  it('follows an index’s children one level down', () => {
    const after = filesAfter(listed, 'index', [
      'https://shop.example/a.xml',
      'https://shop.example/b.xml.gz',
    ]);
    expect(after.error).toBeNull();
    expect(after.tasks).toEqual([
      {
        url: 'https://shop.example/a.xml',
        foundIn: 'https://shop.example/index.xml',
        depth: 1,
        allowedHosts: listed.allowedHosts,
      },
      {
        url: 'https://shop.example/b.xml.gz',
        foundIn: 'https://shop.example/index.xml',
        depth: 1,
        allowedHosts: listed.allowedHosts,
      },
    ]);
  });

  it('names an index inside an index and follows none of its entries', () => {
    const child = {
      ...listed,
      url: 'https://shop.example/inner.xml',
      foundIn: 'https://shop.example/index.xml',
      depth: 1 as const,
    };
    const after = filesAfter(child, 'index', ['https://shop.example/deeper.xml']);
    expect(after.tasks).toEqual([]);
    expect(after.error).toEqual(
      expect.objectContaining({ code: 'NESTED_INDEX', file: 'https://shop.example/inner.xml', line: null }),
    );
    expect(after.error?.message).toContain('https://shop.example/index.xml');
  });

  it('leads nowhere from a urlset or an unread file', () => {
    expect(filesAfter(listed, 'urlset', [])).toEqual({ tasks: [], error: null });
    expect(filesAfter(listed, null, [])).toEqual({ tasks: [], error: null });
  });
});
