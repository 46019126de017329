import { describe, expect, it } from 'vitest';
import { limitsOf } from '../../packages/index.js';
import { crawlVerdict } from './crawl/crawl.verdict.js';
import { PROBE_KINDS } from './index.js';
import { lighthouseVerdict } from './lighthouse/lighthouse.verdict.js';

const pkg = { features: {}, limits: limitsOf({ limits: {} }) };

describe('site-health kinds: their verdicts, schedules and package bounds are pure', () => {
  it('a crawl is down only when it could not crawl, each start-page failure named as other kinds name it', () => {
    const failed = (
      code: 'timeout' | 'dns' | 'connection-refused' | null,
      message = 'the start page answered 503',
    ) => ({
      refused: null,
      crawl: {
        report: { outcome: 'failed' as const, failure: { reason: 'start-page' as const, message, code } },
      },
    });
    expect(
      crawlVerdict({ refused: null, crawl: { report: { outcome: 'partial', failure: null } } }),
    ).toMatchObject({
      status: 'up',
    });
    expect(crawlVerdict(failed(null))).toMatchObject({ status: 'down', code: 'CRAWL_FAILED' });
    expect(crawlVerdict(failed('timeout', 'the crawl reached its deadline'))).toMatchObject({
      code: 'TIMEOUT',
    });
    expect(crawlVerdict(failed('dns'))).toMatchObject({ code: 'DNS' });
    expect(crawlVerdict(failed('connection-refused'))).toMatchObject({ code: 'CONNECT' });
    expect(
      crawlVerdict({
        refused: { code: 'BLOCKED_TARGET', message: 'site resolves to 10.0.0.1' },
        crawl: null,
      }),
    ).toMatchObject({ status: 'down', code: 'BLOCKED_TARGET', cause: 'site resolves to 10.0.0.1' });
  });

  it('a Lighthouse check is up while any run scored; all failed is down, a deadline TIMEOUT, a refused page its code', () => {
    const run = (outcome: 'completed' | 'failed' | 'deadline', error: string | null = null) => ({
      url: 'https://shop.example/',
      preset: 'mobile' as const,
      outcome,
      error,
    });
    expect(lighthouseVerdict({ runs: [run('failed', 'NO_FCP'), run('completed')], refused: [] }).status).toBe(
      'up',
    );
    expect(lighthouseVerdict({ runs: [run('failed', 'NO_FCP: no paint')], refused: [] })).toMatchObject({
      status: 'down',
      code: 'LIGHTHOUSE_FAILED',
      cause: 'https://shop.example/ (mobile): NO_FCP: no paint',
    });
    expect(lighthouseVerdict({ runs: [run('deadline')], refused: [] }).code).toBe('TIMEOUT');
    expect(
      lighthouseVerdict({
        runs: [],
        refused: [{ url: 'http://intranet.example/', code: 'BLOCKED_TARGET', message: 'refused' }],
      }),
    ).toMatchObject({ status: 'down', code: 'BLOCKED_TARGET' });
  });

  it('their schedule sets their interval and timeout; the package bounds pages and runs a day, each field named', () => {
    const { crawl, lighthouse } = PROBE_KINDS;
    const crawlSettings = crawl.settings.parse({ startUrl: 'https://shop.example/', schedule: 'hourly' });
    expect(crawl.cadence?.intervalSeconds(crawlSettings)).toBe(3600);
    expect(crawl.cadence?.timeoutSeconds(crawlSettings)).toBe(900);
    expect(crawl.packageProblems?.(crawlSettings, pkg)).toEqual([]);
    const hourlyOver = crawl.packageProblems?.(crawlSettings, {
      ...pkg,
      limits: { ...pkg.limits, maxCrawlsPerDay: 4 },
    });
    expect(hourlyOver?.map((p) => p.path)).toEqual(['schedule']);
    const tooManyPages = crawl.packageProblems?.(
      crawl.settings.parse({ startUrl: 'https://shop.example/', maxPages: 501 }),
      pkg,
    );
    expect(tooManyPages?.map((p) => p.path)).toEqual(['maxPages']);

    const audit = lighthouse.settings.parse({
      urls: ['https://shop.example/', 'https://shop.example/basket'],
      presets: ['mobile', 'desktop'],
      schedule: 'daily',
    });
    expect(lighthouse.cadence?.intervalSeconds(audit)).toBe(86_400);
    // Four runs of 90 s at most, and a margin.
    expect(lighthouse.cadence?.timeoutSeconds(audit)).toBe(4 * 90 + 30);
    expect(lighthouse.packageProblems?.(audit, pkg)).toEqual([]);
    const over = lighthouse.packageProblems?.(audit, {
      ...pkg,
      limits: { ...pkg.limits, maxLighthouseRunsPerDay: 3 },
    });
    expect(over?.map((p) => p.path)).toEqual(['urls']);
    expect(lighthouse.targetsOf?.(audit).map((t) => [t.host, t.port, t.path])).toEqual([
      ['shop.example', 443, 'urls.0'],
      ['shop.example', 443, 'urls.1'],
    ]);
    expect(lighthouse.settings.safeParse({ presets: ['mobile', 'mobile'] }).success).toBe(false);
    expect(lighthouse.settings.safeParse({ urls: ['ftp://shop.example/'] }).success).toBe(false);
    expect(crawl.settings.safeParse({ startUrl: 'https://user:pw@shop.example/' }).success).toBe(false);
  });

  it('what a crawl or Lighthouse check takes from its website when not given', () => {
    const { crawl, lighthouse } = PROBE_KINDS;
    expect(crawl.fromWebsite?.(crawl.settings.parse({}), 'https://shop.example/')).toMatchObject({
      startUrl: 'https://shop.example/',
    });
    expect(lighthouse.fromWebsite?.(lighthouse.settings.parse({}), 'https://shop.example/')).toMatchObject({
      urls: ['https://shop.example/'],
      presets: ['mobile'],
    });
  });
});
