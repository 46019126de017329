import { describe, expect, it } from 'vitest';
import { robotsRules } from './robots.js';

const origin = 'https://a.test';
const rules = (body: string) => robotsRules(origin, { status: 200, body });

describe('robots.txt for webmon', () => {
  it('follows the webmon group over the * group', () => {
    const robots = rules('User-agent: *\nDisallow: /\n\nUser-agent: webmon\nDisallow: /private/\n');
    expect(robots.state).toBe('parsed');
    expect(robots.allows('https://a.test/')).toBe(true);
    expect(robots.allows('https://a.test/p/1')).toBe(true);
    expect(robots.allows('https://a.test/private/')).toBe(false);
    expect(robots.allows('https://a.test/private/x?y=1')).toBe(false);
  });

  it('matches the token case-insensitively, and falls back to * without a webmon group', () => {
    expect(rules('User-agent: WebMon\nDisallow: /x\n').allows('https://a.test/x')).toBe(false);
    const generic = rules('User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n');
    expect(generic.allows('https://a.test/tmp/file')).toBe(false);
    expect(generic.allows('https://a.test/page')).toBe(true);
  });

  it('applies the longest match, Allow winning a tie, with * and $', () => {
    const robots = rules(
      'User-agent: webmon\nDisallow: /shop/\nAllow: /shop/public/\nDisallow: /*.pdf$\nDisallow: /*?session=\n',
    );
    expect(robots.allows('https://a.test/shop/cart')).toBe(false);
    expect(robots.allows('https://a.test/shop/public/item')).toBe(true);
    expect(robots.allows('https://a.test/docs/a.pdf')).toBe(false);
    expect(robots.allows('https://a.test/docs/a.pdf?x=1')).toBe(true);
    expect(robots.allows('https://a.test/list?session=9')).toBe(false);
  });

  it('allows everything when robots.txt is absent (4xx) or empty', () => {
    for (const status of [401, 403, 404, 410]) {
      const robots = robotsRules(origin, { status, body: 'User-agent: *\nDisallow: /' });
      expect(robots.state).toBe('absent');
      expect(robots.allows('https://a.test/anything')).toBe(true);
    }
    expect(rules('').allows('https://a.test/x')).toBe(true);
    expect(
      robotsRules(origin, { status: 301, body: null, tooManyRedirects: true }).allows('https://a.test/'),
    ).toBe(true);
  });

  it('allows nothing when robots.txt is unreachable (5xx, 429, no answer)', () => {
    for (const status of [500, 503, 429, null]) {
      const robots = robotsRules(origin, { status, body: null });
      expect(robots.state).toBe('unreachable');
      expect(robots.allows('https://a.test/')).toBe(false);
    }
  });
});
