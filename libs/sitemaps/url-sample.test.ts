import { describe, expect, it } from 'vitest';
import { sampleUrls, UrlSample } from './url-sample.js';

const urls = Array.from({ length: 10_000 }, (_, n) => `https://shop.example/p/${n}`);

describe('sampleUrls', () => {
  it('draws the same sample from the same URLs and seed, whatever their order or repeats', () => {
    const sample = sampleUrls(urls, 50, 'shop');
    expect(sample).toHaveLength(50);
    expect(new Set(sample).size).toBe(50);
    expect(sampleUrls([...urls].reverse(), 50, 'shop')).toEqual(sample);
    expect(sampleUrls([...urls, ...urls.slice(0, 5000)], 50, 'shop')).toEqual(sample);
    for (const url of sample) expect(urls).toContain(url);
  });

  it('draws another sample with another seed', () => {
    const first = sampleUrls(urls, 50, 'shop');
    const second = sampleUrls(urls, 50, 'shop 2');
    expect(second.filter((url) => first.includes(url)).length).toBeLessThan(10);
  });

  it('spreads over the whole list, not its start', () => {
    const sample = sampleUrls(urls, 100, 'shop');
    const late = sample.filter((url) => Number(url.split('/').at(-1)) >= 5000);
    expect(late.length).toBeGreaterThan(30);
    expect(late.length).toBeLessThan(70);
  });

  it('keeps all of fewer URLs than the bound, once each, and none for a bound of 0', () => {
    expect(
      sampleUrls(['https://a.example/', 'https://b.example/', 'https://a.example/'], 10, 's').sort(),
    ).toEqual(['https://a.example/', 'https://b.example/']);
    expect(sampleUrls(urls, 0, 's')).toEqual([]);
  });

  it('draws as it goes what it draws from the whole list', () => {
    const sample = new UrlSample(20, 'shop');
    for (const url of urls) sample.add(url);
    expect(sample.list()).toEqual(sampleUrls(urls, 20, 'shop'));
  });
});
