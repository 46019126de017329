import { describe, expect, it } from 'vitest';
import { plainHttpUrl } from './check-observation.js';

describe('plainHttpUrl (what the HTTPS redirect check asks)', () => {
  it.each([
    ['https://shop.example/', 'http://shop.example/'],
    ['https://shop.example:8443/cart?id=1', 'http://shop.example/cart?id=1'],
    ['https://[2001:db8::1]/', 'http://[2001:db8::1]/'],
    ['http://shop.example:8080/a', 'http://shop.example:8080/a'],
  ])('%s → %s', (url, expected) => {
    expect(plainHttpUrl(url)).toBe(expected);
  });
});
