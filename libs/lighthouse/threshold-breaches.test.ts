import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LighthouseFigures, LighthouseScores } from './lighthouse.schema.js';
import { lighthouseFigures } from './lighthouse-figures.js';
import { thresholdBreaches } from './threshold-breaches.js';

/** The real run's figures: 100 / 84 / 76 / 75, image-alt costing accessibility 16.1 points. */
const current = lighthouseFigures(
  JSON.parse(readFileSync(new URL('./fixtures/mobile-lhr.json', import.meta.url), 'utf8')),
);

/** The same run with other scores and nothing lost (a clean previous run). */
const withScores = (scores: Partial<LighthouseScores>, auditsLost: LighthouseFigures['auditsLost'] = []) => ({
  scores: { ...current.scores, ...scores },
  auditsLost,
});

describe('thresholdBreaches', () => {
  it('names a score under its minimum and the audits that cost that category most', () => {
    expect(thresholdBreaches(current, null, { accessibility: 100, performance: 90 })).toEqual({
      under: [{ category: 'accessibility', score: 84, minimum: 100 }],
      dropped: [],
      auditsLost: [
        {
          category: 'accessibility',
          id: 'image-alt',
          title: 'Image elements do not have `[alt]` attributes',
          score: 0,
          weight: 0.1613,
          pointsLost: 16.1,
          previousPointsLost: null,
        },
      ],
    });
  });

  it('breaches nothing when every score meets its minimum, nor without thresholds', () => {
    const none = { under: [], dropped: [], auditsLost: [] };
    expect(thresholdBreaches(current, null, { accessibility: 84, bestPractices: 76, seo: 75 })).toEqual(none);
    expect(thresholdBreaches(current, withScores({ accessibility: 100 }), {})).toEqual(none);
  });

  it('names a score down by more than maxDrop since the previous run, with what each audit cost then', () => {
    const previous = withScores({ accessibility: 100, seo: 83 });
    const breaches = thresholdBreaches(current, previous, { maxDrop: 10 });
    // Accessibility is down 16; SEO's 8 is within the 10 allowed.
    expect(breaches.dropped).toEqual([{ category: 'accessibility', score: 84, previous: 100, drop: 16 }]);
    expect(breaches.under).toEqual([]);
    expect(breaches.auditsLost).toEqual([
      expect.objectContaining({ category: 'accessibility', id: 'image-alt', previousPointsLost: 0 }),
    ]);
    // A drop of exactly maxDrop is allowed.
    expect(thresholdBreaches(current, previous, { maxDrop: 16 }).dropped).toEqual([]);
  });

  it('tells an audit that already cost points in the previous run', () => {
    const imageAlt = current.auditsLost.find((audit) => audit.id === 'image-alt');
    const previous = withScores({ accessibility: 95 }, imageAlt ? [{ ...imageAlt, pointsLost: 5 }] : []);
    expect(thresholdBreaches(current, previous, { maxDrop: 5 }).auditsLost).toEqual([
      expect.objectContaining({ id: 'image-alt', pointsLost: 16.1, previousPointsLost: 5 }),
    ]);
  });

  it('names at most five audits, the largest losses of all breached categories first', () => {
    const breaches = thresholdBreaches(current, null, { accessibility: 100, bestPractices: 100, seo: 100 });
    expect(breaches.under.map((under) => under.category)).toEqual(['accessibility', 'bestPractices', 'seo']);
    expect(breaches.auditsLost.map((audit) => `${audit.category}/${audit.id}:${audit.pointsLost}`)).toEqual([
      'bestPractices/is-on-https:17.2',
      'accessibility/image-alt:16.1',
      // Equal losses keep the report's order; best practices' 3.4-point audits are past the five.
      'seo/meta-description:8.3',
      'seo/robots-txt:8.3',
      'seo/image-alt:8.3',
    ]);
  });

  it('breaches nothing for a score the run could not measure, nor for a drop from or to one', () => {
    const unscored = withScores({ performance: null, accessibility: null });
    expect(thresholdBreaches(unscored, current, { performance: 90, accessibility: 90, maxDrop: 0 })).toEqual({
      under: [],
      dropped: [],
      auditsLost: [],
    });
    expect(thresholdBreaches(current, unscored, { maxDrop: 0 }).dropped).toEqual([]);
  });
});
