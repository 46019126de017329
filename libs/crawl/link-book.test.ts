import { describe, expect, it } from 'vitest';
import { LinkBook } from './link-book.js';

const on = (page: string) => ({ page, element: 'a' as const, text: 'link' });

describe('the link book', () => {
  it('keeps a URL once, its first mention per page, the first 20 pages, and counts them all', () => {
    const book = new LinkBook(100);
    const record = book.note('https://a.test/x', 1, true, on('https://a.test/0'));
    expect(record).not.toBeNull();
    expect(book.note('https://a.test/x', 2, true, on('https://a.test/0'))).toBeNull();
    for (let n = 1; n < 30; n++) book.note('https://a.test/x', 2, true, on(`https://a.test/${n}`));
    expect(record?.appearances).toHaveLength(20);
    expect(record?.pageCount).toBe(30);
    expect(record?.depth).toBe(1);
  });

  it('makes broken-link findings of verdicts ≥ 400 or errors, and mixed content of what was noted', () => {
    const book = new LinkBook(100);
    const ok = book.note('https://a.test/ok', 1, true, on('https://a.test/'));
    const missing = book.note('https://a.test/missing', 1, true, on('https://a.test/'));
    const down = book.note('http://down.test/', 1, false, on('https://a.test/'));
    const seeded = book.note('https://a.test/gone', 0, true, 'seed');
    if (!ok || !missing || !down || !seeded) throw new Error('not kept');
    ok.verdict = { status: 200, error: null };
    missing.verdict = { status: 404, error: null };
    down.verdict = { status: null, error: { code: 'dns', message: 'no such host' } };
    seeded.verdict = { status: 410, error: null };
    book.noteMixed('http://a.test/x.png', 'passive', { page: 'https://a.test/', element: 'img', text: 'x' });
    book.noteMixed('http://a.test/x.png', 'active', {
      page: 'https://a.test/2',
      element: 'link',
      text: null,
    });
    expect(book.findings()).toEqual([
      expect.objectContaining({
        type: 'broken-link',
        url: 'https://a.test/missing',
        status: 404,
        seeded: false,
      }),
      expect.objectContaining({
        type: 'broken-link',
        url: 'http://down.test/',
        status: null,
        error: expect.objectContaining({ code: 'dns' }),
      }),
      expect.objectContaining({
        type: 'broken-link',
        url: 'https://a.test/gone',
        pages: [],
        pageCount: 0,
        seeded: true,
      }),
      expect.objectContaining({
        type: 'mixed-content',
        url: 'http://a.test/x.png',
        category: 'active',
        pageCount: 2,
      }),
    ]);
  });

  it('keeps at most its bound of URLs, says the bound and that some were dropped', () => {
    const book = new LinkBook(2);
    book.note('https://a.test/1', 1, true, on('https://a.test/'));
    book.note('https://a.test/2', 1, true, on('https://a.test/'));
    expect(book.note('https://a.test/3', 1, true, on('https://a.test/'))).toBeNull();
    expect(book.dropped).toBe(true);
    expect(book.stoppedBy()).toEqual([
      { bound: 'maxUrls', limit: 2, count: 1, examples: ['https://a.test/3'] },
    ]);
  });

  it('counts each bound hit with at most five examples', () => {
    const book = new LinkBook(10);
    for (let n = 0; n < 8; n++) book.hit('maxDepth', 3, `https://a.test/${n}`);
    expect(book.stoppedBy()).toEqual([
      { bound: 'maxDepth', limit: 3, count: 8, examples: [0, 1, 2, 3, 4].map((n) => `https://a.test/${n}`) },
    ]);
  });
});
