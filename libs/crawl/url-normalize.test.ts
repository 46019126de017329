import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH, normalizeUrl } from './url-normalize.js';

const normalized = (raw: string, base?: string) => {
  const result = normalizeUrl(raw, base);
  return result.ok ? result.url : result.reason;
};

describe('URL normalization', () => {
  it('lower-cases scheme and host, drops the default port and the fragment, makes an empty path /', () => {
    expect(normalized('HTTP://Example.COM:80')).toBe('http://example.com/');
    expect(normalized('https://EXAMPLE.com:443/Path#section')).toBe('https://example.com/Path');
    expect(normalized('https://example.com:8443')).toBe('https://example.com:8443/');
  });

  it('resolves dot segments, encoded ones included', () => {
    expect(normalized('https://a.test/a/./b/../c')).toBe('https://a.test/a/c');
    expect(normalized('https://a.test/a/%2e%2E/c')).toBe('https://a.test/c');
  });

  it('decodes unreserved characters and upper-cases the hex of the others, in path and query', () => {
    expect(normalized('https://a.test/%7euser/%41%2fx')).toBe('https://a.test/~user/A%2Fx');
    expect(normalized('https://a.test/?q=%7e%2f%2b')).toBe('https://a.test/?q=~%2F%2B');
    expect(normalized('https://a.test/%c3%a9')).toBe(normalized('https://a.test/é'));
  });

  it('keeps the order of the query', () => {
    expect(normalized('https://a.test/?b=2&a=1')).toBe('https://a.test/?b=2&a=1');
  });

  it('resolves relative and protocol-relative links against the page', () => {
    expect(normalized('../x?y=1#z', 'https://a.test/dir/sub/page')).toBe('https://a.test/dir/x?y=1');
    expect(normalized('//b.test/x', 'https://a.test/')).toBe('https://b.test/x');
    expect(normalized('  /spaced  ', 'https://a.test/')).toBe('https://a.test/spaced');
  });

  it('drops credentials written in a link', () => {
    expect(normalized('https://user:secret@a.test/x')).toBe('https://a.test/x');
  });

  it('refuses what is not an http(s) URL, and URLs over the length bound', () => {
    expect(normalized('mailto:someone@a.test')).toBe('not-http');
    expect(normalized('javascript:void(0)')).toBe('not-http');
    expect(normalized('data:image/png;base64,AAAA')).toBe('not-http');
    expect(normalized('http://')).toBe('invalid');
    expect(normalized(`https://a.test/${'x'.repeat(MAX_URL_LENGTH)}`)).toBe('too-long');
  });
});
