import { z } from 'zod';
import {
  LIGHTHOUSE_CATEGORIES,
  type LighthouseAuditLost,
  type LighthouseCategory,
  type LighthouseFigures,
  type LighthouseMetrics,
  type LighthouseScores,
  MAX_AUDITS_LOST,
  MAX_RUN_WARNINGS,
  MAX_WARNING_CHARS,
} from './lighthouse.schema.js';

/** Lighthouse's category ids for ours. */
const CATEGORY_IDS: Record<LighthouseCategory, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  bestPractices: 'best-practices',
  seo: 'seo',
};

/** The audits whose `numericValue` is each lab metric (milliseconds, CLS unitless). */
const METRIC_AUDITS: Record<keyof LighthouseMetrics, string> = {
  lcpMs: 'largest-contentful-paint',
  cls: 'cumulative-layout-shift',
  tbtMs: 'total-blocking-time',
  fcpMs: 'first-contentful-paint',
  speedIndexMs: 'speed-index',
};

const fraction = z.number().min(0).max(1);

/**
 * The parts of Lighthouse's result (LHR) read here, checked: it is another program's answer, and
 * a version of it could change them. Unknown keys are dropped.
 */
const lhrSchema = z.object({
  lighthouseVersion: z.string(),
  requestedUrl: z.string().optional(),
  finalDisplayedUrl: z.string(),
  fetchTime: z.iso.datetime(),
  configSettings: z.object({ formFactor: z.enum(['mobile', 'desktop']) }),
  runWarnings: z.array(z.string()),
  runtimeError: z.object({ code: z.string(), message: z.string() }).optional(),
  categories: z.record(
    z.string(),
    z.object({
      score: fraction.nullable(),
      auditRefs: z.array(z.object({ id: z.string(), weight: z.number().nonnegative() })),
    }),
  ),
  audits: z.record(
    z.string(),
    z.object({
      title: z.string(),
      score: fraction.nullable(),
      numericValue: z.number().optional(),
    }),
  ),
});
type Lhr = z.infer<typeof lhrSchema>;

/** Lighthouse's result did not have the shape read here (another version, or not an LHR). */
export class LighthouseResultError extends Error {
  override name = 'LighthouseResultError';
}

const asScore = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : Math.round(value * 100);

const bounded = (text: string) =>
  text.length <= MAX_WARNING_CHARS ? text : `${text.slice(0, MAX_WARNING_CHARS - 1)}…`;

/**
 * Each weighted audit that missed full marks, with the category points it cost: Lighthouse's
 * category score is the weighted mean of its audits' scores (weights of audits not applicable are
 * already 0 in the LHR), so an audit costs `weight / Σ weights × (1 − score) × 100` points.
 */
function auditsLost(lhr: Lhr): LighthouseAuditLost[] {
  const lost: LighthouseAuditLost[] = [];
  for (const category of LIGHTHOUSE_CATEGORIES) {
    const refs = lhr.categories[CATEGORY_IDS[category]]?.auditRefs ?? [];
    const total = refs.reduce((sum, ref) => sum + ref.weight, 0);
    if (total === 0) continue;
    for (const ref of refs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight === 0 || !audit || audit.score === null || audit.score >= 1) continue;
      const share = ref.weight / total;
      lost.push({
        category,
        id: ref.id,
        title: audit.title,
        score: Math.round(audit.score * 100),
        weight: Math.round(share * 10_000) / 10_000,
        pointsLost: Math.round(share * (1 - audit.score) * 1000) / 10,
      });
    }
  }
  return lost.sort((a, b) => b.pointsLost - a.pointsLost).slice(0, MAX_AUDITS_LOST);
}

/**
 * What a run measured, read from Lighthouse's result JSON (`lhr`): the four scores on 0–100, the
 * lab metrics, the audits that cost points, and what Lighthouse said about the run itself.
 * Throws `LighthouseResultError` when the result does not have the shape read here.
 */
export function lighthouseFigures(lhr: unknown): LighthouseFigures {
  const parsed = lhrSchema.safeParse(lhr);
  if (!parsed.success)
    throw new LighthouseResultError(
      `Lighthouse's result could not be read: ${z.prettifyError(parsed.error).slice(0, MAX_WARNING_CHARS)}`,
    );
  const result = parsed.data;
  const scores = Object.fromEntries(
    LIGHTHOUSE_CATEGORIES.map((category) => [
      category,
      asScore(result.categories[CATEGORY_IDS[category]]?.score),
    ]),
  ) as LighthouseScores;
  const metrics = Object.fromEntries(
    Object.entries(METRIC_AUDITS).map(([metric, auditId]) => {
      const value = result.audits[auditId]?.numericValue;
      if (value === undefined || value < 0) return [metric, null];
      // Milliseconds to a tenth; CLS is a small fraction, kept to four places.
      const places = metric === 'cls' ? 10_000 : 10;
      return [metric, Math.round(value * places) / places];
    }),
  ) as LighthouseMetrics;
  return {
    lighthouseVersion: result.lighthouseVersion,
    preset: result.configSettings.formFactor,
    requestedUrl: result.requestedUrl ?? result.finalDisplayedUrl,
    finalUrl: result.finalDisplayedUrl,
    fetchedAt: result.fetchTime,
    scores,
    metrics,
    auditsLost: auditsLost(result),
    runWarnings: result.runWarnings.slice(0, MAX_RUN_WARNINGS).map(bounded),
    runtimeError: result.runtimeError
      ? { code: result.runtimeError.code, message: bounded(result.runtimeError.message) }
      : null,
  };
}
