import { describe, expect, it } from 'vitest';
import { type CrawlCoverage, compareCrawls } from './compare.js';
import type { CrawlFinding, TrackedCrawlFinding } from './crawl.schema.js';

const earlier = '2024-01-01T00:00:00.000Z';
const at = new Date('2024-02-01T00:00:00.000Z');

function broken(url: string, pages: string[]): CrawlFinding {
  return {
    type: 'broken-link',
    url,
    status: 404,
    error: null,
    pages: pages.map((page) => ({ page, element: 'a', text: 'link' })),
    pageCount: pages.length,
    seeded: false,
  };
}
function mixed(url: string, pages: string[]): CrawlFinding {
  return {
    type: 'mixed-content',
    url,
    category: 'passive',
    pages: pages.map((page) => ({ page, element: 'img', text: null })),
    pageCount: pages.length,
  };
}
const tracked = (finding: CrawlFinding): TrackedCrawlFinding => ({
  ...finding,
  firstSeenAt: earlier,
  lastSeenAt: earlier,
});
function coverage(
  parts: Partial<Record<Exclude<keyof CrawlCoverage, 'urlsDropped'>, string[]>>,
): CrawlCoverage {
  return {
    crawledPages: new Set(parts.crawledPages ?? []),
    checkedUrls: new Set(parts.checkedUrls ?? []),
    uncheckedUrls: new Set(parts.uncheckedUrls ?? []),
    urlsDropped: false,
  };
}
const urls = (findings: TrackedCrawlFinding[]) => findings.map((finding) => finding.url).sort();

describe('comparing two crawls', () => {
  const previous = [
    tracked(broken('https://a.test/gone', ['https://a.test/1'])),
    tracked(broken('https://a.test/still', ['https://a.test/1'])),
    tracked(mixed('http://a.test/img.png', ['https://a.test/2'])),
  ];

  it('opens new findings, keeps firstSeenAt of the ones found again and fixes the ones gone', () => {
    const result = compareCrawls(
      previous,
      {
        report: {
          outcome: 'complete',
          findings: [
            broken('https://a.test/still', ['https://a.test/1']),
            broken('https://a.test/new', ['https://a.test/3']),
          ],
        },
        coverage: coverage({ crawledPages: ['https://a.test/1', 'https://a.test/3'] }),
      },
      at,
    );
    expect(urls(result.opened)).toEqual(['https://a.test/new']);
    expect(result.opened[0]).toMatchObject({ firstSeenAt: at.toISOString(), lastSeenAt: at.toISOString() });
    expect(result.stillOpen).toEqual([
      expect.objectContaining({
        url: 'https://a.test/still',
        firstSeenAt: earlier,
        lastSeenAt: at.toISOString(),
      }),
    ]);
    // A complete crawl read every page in reach: what it did not find is gone, the page it was on too.
    expect(urls(result.fixed)).toEqual(['http://a.test/img.png', 'https://a.test/gone']);
    expect(result.fixed.find((f) => f.url === 'https://a.test/gone')?.lastSeenAt).toBe(earlier);
    expect(result.untouched).toEqual([]);
    expect(urls(result.open)).toEqual(['https://a.test/new', 'https://a.test/still']);
  });

  it('identifies mixed content by its resource, whatever pages it is on now', () => {
    const result = compareCrawls(
      previous,
      {
        report: { outcome: 'complete', findings: [mixed('http://a.test/img.png', ['https://a.test/9'])] },
        coverage: coverage({}),
      },
      at,
    );
    expect(result.stillOpen).toEqual([
      expect.objectContaining({
        url: 'http://a.test/img.png',
        pages: [expect.objectContaining({ page: 'https://a.test/9' })],
      }),
    ]);
  });

  it('changes nothing after a failed crawl: no fixed storm, nothing opened', () => {
    const result = compareCrawls(
      previous,
      { report: { outcome: 'failed', findings: [broken('https://a.test/x', [])] }, coverage: coverage({}) },
      at,
    );
    expect(result.fixed).toEqual([]);
    expect(result.opened).toEqual([]);
    expect(result.untouched).toEqual(previous);
    expect(result.open).toEqual(previous);
  });

  it('after a partial crawl, fixes only what it looked at again', () => {
    const earlierFindings = [
      tracked(broken('https://a.test/checked-ok', ['https://a.test/far'])),
      tracked(broken('https://a.test/page-read', ['https://a.test/1'])),
      tracked(broken('https://a.test/page-not-read', ['https://a.test/far'])),
      tracked(broken('https://a.test/not-requested', ['https://a.test/1'])),
      tracked(mixed('http://a.test/on-read-page.png', ['https://a.test/1'])),
      tracked(mixed('http://a.test/on-far-page.png', ['https://a.test/1', 'https://a.test/far'])),
    ];
    const result = compareCrawls(
      earlierFindings,
      {
        report: { outcome: 'partial', findings: [] },
        coverage: coverage({
          crawledPages: ['https://a.test/1'],
          checkedUrls: ['https://a.test/checked-ok'],
          uncheckedUrls: ['https://a.test/not-requested'],
        }),
      },
      at,
    );
    expect(urls(result.fixed)).toEqual([
      'http://a.test/on-read-page.png',
      'https://a.test/checked-ok',
      'https://a.test/page-read',
    ]);
    expect(urls(result.untouched)).toEqual([
      'http://a.test/on-far-page.png',
      'https://a.test/not-requested',
      'https://a.test/page-not-read',
    ]);
  });

  it('does not fix a finding whose page list was cut, when the crawl was partial', () => {
    const cut = { ...tracked(broken('https://a.test/many', ['https://a.test/1'])), pageCount: 40 };
    const result = compareCrawls(
      [cut],
      {
        report: { outcome: 'partial', findings: [] },
        coverage: coverage({ crawledPages: ['https://a.test/1'] }),
      },
      at,
    );
    expect(result.untouched).toEqual([cut]);
  });

  it('keeps a broken link found but not requested open even after a complete crawl', () => {
    const result = compareCrawls(
      previous,
      {
        report: { outcome: 'complete', findings: [] },
        coverage: coverage({ uncheckedUrls: ['https://a.test/still', 'https://a.test/gone'] }),
      },
      at,
    );
    expect(urls(result.untouched)).toEqual(['https://a.test/gone', 'https://a.test/still']);
  });

  it('proves nothing by a URL not found when the crawl dropped URLs past its bound', () => {
    const result = compareCrawls(
      previous,
      {
        report: { outcome: 'partial', findings: [] },
        coverage: {
          ...coverage({ crawledPages: ['https://a.test/1', 'https://a.test/2'] }),
          urlsDropped: true,
        },
      },
      at,
    );
    expect(result.fixed).toEqual([]);
    expect(result.untouched).toHaveLength(3);
  });
});
