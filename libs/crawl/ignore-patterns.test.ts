import { describe, expect, it } from 'vitest';
import { globMatches, ignoreMatcher } from './ignore-patterns.js';

describe('ignore patterns', () => {
  it('matches the whole URL, * standing for any run of characters, / included', () => {
    expect(globMatches('https://a.test/private/*', 'https://a.test/private/x/y?z=1')).toBe(true);
    expect(globMatches('https://a.test/private/*', 'https://a.test/public/private/x')).toBe(false);
    expect(globMatches('*.pdf', 'https://a.test/docs/file.pdf')).toBe(true);
    expect(globMatches('*.pdf', 'https://a.test/docs/file.pdf?download=1')).toBe(false);
    expect(globMatches('*://ads.example.net/*', 'http://ads.example.net/banner')).toBe(true);
    expect(globMatches('*?utm_*', 'https://a.test/?utm_source=x')).toBe(true);
    expect(globMatches('https://a.test/', 'https://a.test/')).toBe(true);
    expect(globMatches('https://a.test/', 'https://a.test/x')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('a*b*c', 'aXXbYYc')).toBe(true);
    expect(globMatches('a*b*c', 'aXXcYYb')).toBe(false);
  });

  it('treats every other character literally, regular-expression ones included', () => {
    expect(globMatches('https://a.test/?q=(1)', 'https://a.test/?q=(1)')).toBe(true);
    expect(globMatches('https://a.test/.x', 'https://a.test/Ax')).toBe(false);
  });

  it('stays fast on a pattern of many stars against a long URL that almost matches', () => {
    const url = `https://a.test/${'a'.repeat(2000)}`;
    const started = performance.now();
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*b', url)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('matches any of several patterns, and nothing without patterns', () => {
    const ignored = ignoreMatcher(['*.pdf', 'https://a.test/tmp/*']);
    expect(ignored('https://a.test/tmp/x')).toBe(true);
    expect(ignored('https://a.test/a.pdf')).toBe(true);
    expect(ignored('https://a.test/a.html')).toBe(false);
    expect(ignoreMatcher([])('https://a.test/')).toBe(false);
  });
});
