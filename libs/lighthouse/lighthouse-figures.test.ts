import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIGHTHOUSE_CATEGORIES, lighthouseFiguresSchema } from './lighthouse.schema.js';
import { LighthouseResultError, lighthouseFigures } from './lighthouse-figures.js';

/** A real mobile run's result (see fixtures/README.md), read afresh for each test. */
const realLhr = () =>
  JSON.parse(readFileSync(new URL('./fixtures/mobile-lhr.json', import.meta.url), 'utf8')) as {
    categories: Record<string, { score: number | null }>;
    runWarnings: string[];
    runtimeError?: { code: string; message: string };
    audits: Record<string, { score: number | null }>;
  };

describe('lighthouseFigures', () => {
  it('reads the scores on 0–100, the lab metrics and what the run was', () => {
    const figures = lighthouseFigures(realLhr());
    expect(figures.scores).toEqual({ performance: 100, accessibility: 84, bestPractices: 76, seo: 75 });
    expect(figures.metrics).toEqual({ lcpMs: 946.5, cls: 0, tbtMs: 0, fcpMs: 946.5, speedIndexMs: 1710.7 });
    expect(figures).toMatchObject({
      lighthouseVersion: '12.8.2',
      preset: 'mobile',
      runWarnings: [],
      runtimeError: null,
    });
    expect(figures.finalUrl).toMatch(/^http:\/\/shop\.test:\d+\/$/);
    expect(figures.requestedUrl).toBe(figures.finalUrl);
    expect(lighthouseFiguresSchema.parse(figures)).toEqual(figures);
  });

  it('names the audits that cost points, most first, with their share of the category', () => {
    const { auditsLost } = lighthouseFigures(realLhr());
    expect(auditsLost[0]).toMatchObject({ category: 'bestPractices', id: 'is-on-https', pointsLost: 17.2 });
    expect(auditsLost).toContainEqual({
      category: 'accessibility',
      id: 'image-alt',
      title: 'Image elements do not have `[alt]` attributes',
      score: 0,
      weight: 0.1613,
      pointsLost: 16.1,
    });
    expect(auditsLost.map((audit) => audit.pointsLost)).toEqual(
      auditsLost.map((audit) => audit.pointsLost).sort((a, b) => b - a),
    );
    // A failing audit of weight 0 (informative in Lighthouse 12) costs nothing and is not named.
    expect(realLhr().audits['render-blocking-resources']?.score).toBe(0);
    expect(auditsLost.map((audit) => audit.id)).not.toContain('render-blocking-resources');
    expect(auditsLost.map((audit) => `${audit.category}/${audit.id}`).sort()).toEqual([
      'accessibility/image-alt',
      'bestPractices/image-size-responsive',
      'bestPractices/is-on-https',
      'bestPractices/redirects-http',
      'seo/image-alt',
      'seo/meta-description',
      'seo/robots-txt',
    ]);
  });

  it('accounts for each category score: 100 less the points its audits lost', () => {
    const figures = lighthouseFigures(realLhr());
    for (const category of LIGHTHOUSE_CATEGORIES) {
      const lost = figures.auditsLost
        .filter((audit) => audit.category === category)
        .reduce((sum, audit) => sum + audit.pointsLost, 0);
      expect(Math.abs(100 - lost - (figures.scores[category] ?? Number.NaN))).toBeLessThanOrEqual(1);
    }
  });

  it('keeps a failed run’s error and leaves its scores unscored', () => {
    const lhr = realLhr();
    for (const category of Object.values(lhr.categories)) category.score = null;
    lhr.runtimeError = { code: 'NO_FCP', message: 'The page did not paint any content.' };
    const figures = lighthouseFigures(lhr);
    expect(figures.scores).toEqual({
      performance: null,
      accessibility: null,
      bestPractices: null,
      seo: null,
    });
    expect(figures.runtimeError).toEqual({ code: 'NO_FCP', message: 'The page did not paint any content.' });
  });

  it('bounds Lighthouse’s warnings', () => {
    const lhr = realLhr();
    lhr.runWarnings = Array.from({ length: 30 }, (_, n) => `${n} ${'x'.repeat(1000)}`);
    const { runWarnings } = lighthouseFigures(lhr);
    expect(runWarnings).toHaveLength(20);
    expect(runWarnings[0]).toHaveLength(500);
    expect(runWarnings[0]?.endsWith('…')).toBe(true);
  });

  it('refuses what is not a Lighthouse result of the shape it reads', () => {
    expect(() => lighthouseFigures({})).toThrow(LighthouseResultError);
    expect(() => lighthouseFigures(null)).toThrow(LighthouseResultError);
    const lhr = realLhr();
    (lhr.categories.accessibility as { score: number }).score = 84;
    expect(() => lighthouseFigures(lhr)).toThrow(/categories\.accessibility\.score/);
  });
});
