import { describe, expect, it } from 'vitest';
import { journeySettings } from './journey-options.schema.js';
import { headersWithExtra, journeyOrigin } from './journey-origin.js';

const startingAt = (url: string) => journeySettings.parse({ steps: [{ action: 'goto', url }] });

describe('journeyOrigin', () => {
  it('is the origin of the first page a journey goes to', () => {
    expect(journeyOrigin(startingAt('https://shop.example:8443/sign-in?next=/'))).toBe(
      'https://shop.example:8443',
    );
    expect(journeyOrigin(startingAt('http://shop.example/'))).toBe('http://shop.example');
  });

  it('is none when the first step goes nowhere a browser visits', () => {
    expect(journeyOrigin(startingAt('file:///etc/passwd'))).toBeNull();
    expect(journeyOrigin(startingAt('not a URL'))).toBeNull();
  });
});

describe('headersWithExtra', () => {
  const extra = { 'X-Api-Key': 'k-1', Authorization: 'Bearer t' };
  const page = { accept: 'text/html', authorization: 'Basic old', 'x-page': 'kept' };

  it('adds the extra headers to a request to the origin, replacing the page’s own of a name in any case', () => {
    expect(headersWithExtra('https://shop.example/api?q=1', page, extra, 'https://shop.example')).toEqual({
      accept: 'text/html',
      'x-page': 'kept',
      'X-Api-Key': 'k-1',
      Authorization: 'Bearer t',
    });
  });

  it('leaves a request to any other origin as the page made it', () => {
    for (const url of [
      'https://cdn.example/app.js',
      'http://shop.example/',
      'https://shop.example:8443/',
      'https://sub.shop.example/',
      'data:text/plain,x',
      'not a URL',
    ])
      expect(headersWithExtra(url, page, extra, 'https://shop.example'), url).toBeNull();
  });
});
