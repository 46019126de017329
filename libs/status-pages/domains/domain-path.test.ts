import { describe, expect, it } from 'vitest';
import { rewriteDomainPath } from './domain-path.js';

describe('rewriteDomainPath', () => {
  it.each([
    ['/', '/status/acme'],
    ['/index.json', '/status/acme.json'],
    ['/status/acme', '/status/acme'],
    ['/status/acme.json', '/status/acme.json'],
    ['/status/acme/feed.rss', '/status/acme/feed.rss'],
    ['/status/acme/history/2026-11', '/status/acme/history/2026-11'],
    ['/feed.atom', '/status/acme/feed.atom'],
    ['/subscriptions', '/status/acme/subscriptions'],
    // Nothing else of the service is reachable by a page's domain: other pages, the API, the app.
    ['/status/other', '/status/acme/status/other'],
    ['/status/acme-two', '/status/acme/status/acme-two'],
    ['/api/status-pages', '/status/acme/api/status-pages'],
    ['/status/acmeish.json', '/status/acme/status/acmeish.json'],
  ])('%s is served as %s', (path, served) => {
    expect(rewriteDomainPath(path, 'acme')).toBe(served);
  });
});
