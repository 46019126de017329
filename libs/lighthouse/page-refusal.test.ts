import { describe, expect, it } from 'vitest';
import { pageRefusal } from './page-refusal.js';

const refused = (target: string) => ({ target, reason: 'it resolves to 10.0.0.5 (private)', times: 1 });

describe('pageRefusal', () => {
  it('finds the refusal of an http page by its origin, whatever the path', () => {
    const own = refused('http://shop.example/landing');
    expect(pageRefusal('http://shop.example/?q=1', [refused('http://cdn.example/a.png'), own])).toBe(own);
    expect(pageRefusal('http://shop.example:8080/', [own])).toBeNull();
    expect(pageRefusal('http://shop.example:8080/', [refused('http://shop.example:8080/')])).not.toBeNull();
  });

  it('finds the refusal of an https page by its tunnel, the default port named', () => {
    expect(pageRefusal('https://shop.example/', [refused('shop.example:443')])).not.toBeNull();
    expect(pageRefusal('https://shop.example:8443/', [refused('shop.example:443')])).toBeNull();
    expect(pageRefusal('https://shop.example/', [refused('http://shop.example/')])).toBeNull();
  });

  it('is none when only the page’s resources were refused', () => {
    expect(pageRefusal('http://shop.example/', [refused('http://shop.example.evil/x')])).toBeNull();
    expect(pageRefusal('http://shop.example/', [])).toBeNull();
    expect(pageRefusal('not a URL', [refused('http://shop.example/')])).toBeNull();
  });
});
