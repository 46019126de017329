import { z } from 'zod';

/**
 * The shapes a Lighthouse run leaves behind (stored as history, served by the API, carried by
 * `site.lighthouse_degraded`): scores on Lighthouse's own 0–100 scale, lab metrics in its units,
 * the audits that cost points, and the thresholds a website sets. No Lighthouse import here, so the
 * API and the app can use them without loading Lighthouse.
 */

export const LIGHTHOUSE_PRESETS = ['mobile', 'desktop'] as const;
export type LighthousePreset = (typeof LIGHTHOUSE_PRESETS)[number];

export const lighthousePresetSchema = z
  .enum(LIGHTHOUSE_PRESETS)
  .describe(
    'Lighthouse’s preset: mobile (a mid-range phone on a slow 4G link, simulated) or desktop (a desktop screen on a fast link)',
  );

/** Our names for the four categories Lighthouse scores, in the order its report shows them. */
export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'bestPractices', 'seo'] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

export const lighthouseCategorySchema = z
  .enum(LIGHTHOUSE_CATEGORIES)
  .describe('A Lighthouse category: performance, accessibility, bestPractices (Best Practices) or seo');

const score = z.number().int().min(0).max(100);

function scoreOf(what: string) {
  return score
    .nullable()
    .describe(`${what}, 0–100 as Lighthouse shows it; null: not scored (the run failed or an audit errored)`);
}

export const lighthouseScoresSchema = z
  .object({
    performance: scoreOf('Performance'),
    accessibility: scoreOf('Accessibility'),
    bestPractices: scoreOf('Best Practices'),
    seo: scoreOf('SEO'),
  })
  .meta({ id: 'LighthouseScores' });
export type LighthouseScores = z.infer<typeof lighthouseScoresSchema>;

function metricOf(what: string) {
  return z
    .number()
    .nonnegative()
    .nullable()
    .describe(`${what}; null: Lighthouse could not measure it in this run`);
}

export const lighthouseMetricsSchema = z
  .object({
    lcpMs: metricOf('Largest Contentful Paint, in milliseconds'),
    cls: metricOf('Cumulative Layout Shift (unitless)'),
    tbtMs: metricOf('Total Blocking Time, in milliseconds'),
    fcpMs: metricOf('First Contentful Paint, in milliseconds'),
    speedIndexMs: metricOf('Speed Index, in milliseconds'),
  })
  .describe('Lab metrics of the run, under the preset’s simulated device and network')
  .meta({ id: 'LighthouseMetrics' });
export type LighthouseMetrics = z.infer<typeof lighthouseMetricsSchema>;

export const lighthouseAuditLostSchema = z
  .object({
    category: lighthouseCategorySchema,
    id: z.string().describe('Lighthouse’s audit id, e.g. image-alt'),
    title: z.string().describe('The audit’s title as the run’s report words it'),
    score: score.describe('The audit’s own score, 0–100'),
    weight: z.number().min(0).max(1).describe('Its share of the category’s score (its weight over theirs)'),
    pointsLost: z
      .number()
      .min(0)
      .max(100)
      .describe('Category points it cost: its share × what it missed of full marks × 100'),
  })
  .describe('An audit that cost its category points')
  .meta({ id: 'LighthouseAuditLost' });
export type LighthouseAuditLost = z.infer<typeof lighthouseAuditLostSchema>;

/** Bounds on what a run's figures keep of Lighthouse's free texts and lists. */
export const MAX_AUDITS_LOST = 50;
export const MAX_RUN_WARNINGS = 20;
export const MAX_WARNING_CHARS = 500;

export const lighthouseFiguresSchema = z
  .object({
    lighthouseVersion: z.string(),
    preset: lighthousePresetSchema,
    requestedUrl: z.string(),
    finalUrl: z.string().describe('The page Lighthouse ended on, after redirects'),
    fetchedAt: z.iso.datetime().describe('When Lighthouse loaded the page'),
    scores: lighthouseScoresSchema,
    metrics: lighthouseMetricsSchema,
    auditsLost: z
      .array(lighthouseAuditLostSchema)
      .max(MAX_AUDITS_LOST)
      .describe(`The audits that cost points, most points first (at most ${MAX_AUDITS_LOST})`),
    runWarnings: z
      .array(z.string().max(MAX_WARNING_CHARS))
      .max(MAX_RUN_WARNINGS)
      .describe('Lighthouse’s warnings about the run itself (e.g. the page loaded too slowly)'),
    runtimeError: z
      .object({ code: z.string(), message: z.string().max(MAX_WARNING_CHARS) })
      .nullable()
      .describe('Why Lighthouse could not audit the page (e.g. NO_FCP); null: it could'),
  })
  .describe('What one Lighthouse run measured')
  .meta({ id: 'LighthouseFigures' });
export type LighthouseFigures = z.infer<typeof lighthouseFiguresSchema>;

function minimumOf(what: string) {
  return score.optional().describe(`A ${what} score under this is a breach`);
}

export const lighthouseThresholdsSchema = z
  .object({
    performance: minimumOf('Performance'),
    accessibility: minimumOf('Accessibility'),
    bestPractices: minimumOf('Best Practices'),
    seo: minimumOf('SEO'),
    maxDrop: score
      .optional()
      .describe('Any score down by more than this many points since the previous run is a breach'),
  })
  .describe('When a website’s Lighthouse run raises site.lighthouse_degraded; absent fields never breach')
  .meta({ id: 'LighthouseThresholds' });
export type LighthouseThresholds = z.infer<typeof lighthouseThresholdsSchema>;

/** Audits a breach names: the largest losses are what an agency fixes first. */
export const MAX_BREACH_AUDITS = 5;

export const lighthouseBreachesSchema = z
  .object({
    under: z
      .array(z.object({ category: lighthouseCategorySchema, score, minimum: score }))
      .describe('Scores under their minimum'),
    dropped: z
      .array(
        z.object({
          category: lighthouseCategorySchema,
          score,
          previous: score,
          drop: score.describe('Points down since the previous run'),
        }),
      )
      .describe('Scores down by more than maxDrop since the previous run'),
    auditsLost: z
      .array(
        lighthouseAuditLostSchema.extend({
          previousPointsLost: z
            .number()
            .min(0)
            .max(100)
            .nullable()
            .describe('What it cost in the previous run (0: nothing); null: no previous run'),
        }),
      )
      .max(MAX_BREACH_AUDITS)
      .describe(
        `The audits that cost the breached categories most points in this run (at most ${MAX_BREACH_AUDITS})`,
      ),
  })
  .describe('Which thresholds a run breached; all empty: none')
  .meta({ id: 'LighthouseBreaches' });
export type LighthouseBreaches = z.infer<typeof lighthouseBreachesSchema>;
