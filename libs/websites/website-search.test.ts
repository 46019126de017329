import { describe, expect, it } from 'vitest';
import { matchesSearch, normalizedQuery, searchedText, trigramChange, trigramsOf } from './website-search.js';

describe('website search', () => {
  it('searches the name and the URL without its scheme, lower-cased', () => {
    expect(searchedText({ name: 'Acme Shop', url: 'HTTPS://Shop.Acme.test/Cart' })).toEqual([
      'acme shop',
      'shop.acme.test/cart',
    ]);
    const site = { name: 'Acme Shop', url: 'https://shop.acme.test/' };
    expect(matchesSearch(site, normalizedQuery('  ACME '))).toBe(true);
    expect(matchesSearch(site, 'acme.test')).toBe(true);
    // The scheme is not searched: every website would match it.
    expect(matchesSearch(site, 'https')).toBe(false);
    expect(matchesSearch(site, 'shopacme')).toBe(false);
  });

  it('indexes each run of three characters once, by code point', () => {
    expect(trigramsOf(['abcab'])).toEqual(['abc', 'bca', 'cab']);
    expect(trigramsOf(['ab', ''])).toEqual([]);
    expect(trigramsOf(['zürich', 'rich'])).toEqual(['zür', 'üri', 'ric', 'ich']);
    expect(trigramsOf(['a😀bc'])).toEqual(['a😀b', '😀bc']);
  });

  it('says what a rename adds and drops', () => {
    expect(trigramChange({ name: 'abcd', url: 'x' }, { name: 'bcde', url: 'x' })).toEqual({
      added: ['cde'],
      dropped: ['abc'],
    });
    expect(trigramChange(null, { name: 'abc', url: '' }).added).toEqual(['abc']);
    expect(trigramChange({ name: 'abc', url: '' }, null).dropped).toEqual(['abc']);
  });
});
