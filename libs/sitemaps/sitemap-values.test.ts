import { describe, expect, it } from 'vitest';
import {
  changefreqProblem,
  lastmodProblem,
  locProblem,
  parseW3cDatetime,
  priorityProblem,
} from './sitemap-values.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const HOSTS = new Set(['shop.example']);

describe('lastmod', () => {
  it.each([
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['2024-05', '2024-05-01T00:00:00.000Z'],
    ['2024-05-31', '2024-05-31T00:00:00.000Z'],
    ['2024-05-31T10:15Z', '2024-05-31T10:15:00.000Z'],
    ['2024-05-31T10:15+02:00', '2024-05-31T08:15:00.000Z'],
    ['2024-05-31T10:15:30-05:30', '2024-05-31T15:45:30.000Z'],
    ['2024-05-31T10:15:30.45Z', '2024-05-31T10:15:30.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads the W3C Datetime form %s', (value, instant) => {
    expect(parseW3cDatetime(value)?.toISOString()).toBe(instant);
    expect(lastmodProblem(value, NOW)).toBeNull();
  });

  it.each([
    '',
    '24-05-31',
    '2024/05/31',
    '2024-5-31',
    '2024-13',
    '2023-02-29',
    '2024-04-31',
    '2024-05-31T10:15',
    '2024-05-31T10:15:30',
    '2024-05-31T25:00Z',
    '2024-05-31T10:60Z',
    '2024-05-31 10:15Z',
    '2024-05-31T10:15+0200',
    '2024-05-31T10:15+15:00',
    'yesterday',
    'Fri, 31 May 2024 10:15:00 GMT',
  ])('names %j as not a W3C Datetime', (value) => {
    expect(lastmodProblem(value, NOW)?.code).toBe('INVALID_LASTMOD');
  });

  it('names a lastmod more than a day ahead as in the future, and allows a date a zone east of UTC writes', () => {
    expect(lastmodProblem('2024-06-03', NOW)?.code).toBe('FUTURE_LASTMOD');
    expect(lastmodProblem('2025', NOW)?.code).toBe('FUTURE_LASTMOD');
    expect(lastmodProblem('2024-06-02', NOW)).toBeNull();
    expect(lastmodProblem('2024-06-01T23:00:00+14:00', NOW)).toBeNull();
  });
});

describe('changefreq and priority', () => {
  it.each(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'])(
    'accepts changefreq %s',
    (value) => {
      expect(changefreqProblem(value)).toBeNull();
    },
  );

  it.each(['Daily', 'fortnightly', '', 'daily '])('names changefreq %j', (value) => {
    expect(changefreqProblem(value)?.code).toBe('INVALID_CHANGEFREQ');
  });

  it.each(['0', '0.0', '1', '1.0', '0.5', '.8', '1.'])('accepts priority %s', (value) => {
    expect(priorityProblem(value)).toBeNull();
  });

  it.each(['1.1', '-0.1', '2', 'high', '', '0,5', '1e-1', 'NaN'])('names priority %j', (value) => {
    expect(priorityProblem(value)?.code).toBe('INVALID_PRIORITY');
  });
});

describe('loc', () => {
  it('accepts an absolute http(s) URL on an allowed host', () => {
    expect(locProblem('https://shop.example/a?b=c', HOSTS)).toBeNull();
    expect(locProblem('http://shop.example/', HOSTS)).toBeNull();
  });

  it.each([
    ['/relative/page', 'INVALID_LOC'],
    ['', 'INVALID_LOC'],
    ['ftp://shop.example/file', 'INVALID_LOC'],
    ['javascript:alert(1)', 'INVALID_LOC'],
    ['https://www.shop.example/', 'LOC_OTHER_HOST'],
    ['https://shop.example:8443/', 'LOC_OTHER_HOST'],
    ['https://elsewhere.example/', 'LOC_OTHER_HOST'],
  ])('names %j as %s', (loc, code) => {
    expect(locProblem(loc, HOSTS)?.code).toBe(code);
  });

  it('allows 2,048 characters and names one more', () => {
    const base = 'https://shop.example/';
    expect(locProblem(base + 'a'.repeat(2048 - base.length), HOSTS)).toBeNull();
    expect(locProblem(base + 'a'.repeat(2049 - base.length), HOSTS)?.code).toBe('LOC_TOO_LONG');
  });
});
