import { describe, expect, it } from 'vitest';
import { sitemapLines } from './robots-sitemaps.js';

describe('sitemapLines', () => {
  it('takes every Sitemap: line, in any case, in or out of a group, comments cut off', () => {
    const robots = [
      '\uFEFFUser-agent: *',
      'Disallow: /admin',
      'Sitemap: https://shop.example/sitemap_index.xml',
      '',
      'user-agent: webmon',
      '  sitemap:https://cdn.example/shop/sitemap.xml.gz # the products',
      'SITEMAP : https://shop.example/news.xml',
      '# Sitemap: https://shop.example/commented-out.xml',
      'Sitemap:',
      'Sitemaps: https://shop.example/not-the-field.xml',
      'Allow: /sitemap: yes',
    ].join('\r\n');
    expect(sitemapLines(robots)).toEqual([
      { value: 'https://shop.example/sitemap_index.xml', line: 3 },
      { value: 'https://cdn.example/shop/sitemap.xml.gz', line: 6 },
      { value: 'https://shop.example/news.xml', line: 7 },
    ]);
  });

  it('finds none in a robots.txt without them', () => {
    expect(sitemapLines('User-agent: *\nDisallow:\n')).toEqual([]);
    expect(sitemapLines('')).toEqual([]);
  });
});
