import { describe, expect, it } from 'vitest';
import { nextPath, serverPagePath } from './next-path.js';

const ORIGIN = 'https://app.agency.test';

describe('where the sign-in goes next', () => {
  it('keeps a path of this site, and takes nothing else', () => {
    expect(nextPath({ next: '/status-pages/3?x=1' })).toBe('/status-pages/3?x=1');
    expect(nextPath({})).toBe('/');
    for (const next of ['https://evil.test/', '//evil.test/status/x', 'javascript:alert(1)'])
      expect(nextPath({ next })).toBe('/');
  });

  it('names a status page the server draws, on this origin only', () => {
    expect(serverPagePath('/status/acme', ORIGIN)).toBe('/status/acme');
    expect(serverPagePath('/status/acme/incidents?month=2025-01#top', ORIGIN)).toBe(
      '/status/acme/incidents?month=2025-01#top',
    );
    // The app's own pages are the router's.
    expect(serverPagePath('/status-pages/3', ORIGIN)).toBeNull();
    expect(serverPagePath('/', ORIGIN)).toBeNull();
    expect(serverPagePath('/status/../people', ORIGIN)).toBeNull();
    // A browser reads `/\host` as `//host`: another site.
    expect(serverPagePath('/\\evil.test/status/x', ORIGIN)).toBeNull();
    expect(serverPagePath('https://evil.test/status/x', ORIGIN)).toBeNull();
  });
});
