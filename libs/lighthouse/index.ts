/**
 * Lighthouse runs for site health: `runLighthouse` drives Debian's chromium (never a downloaded
 * one) with the `lighthouse` package, mobile or desktop, every request behind the product's SSRF
 * guard, within a deadline; `lighthouseFigures` reads scores, lab metrics and the audits that cost
 * points from Lighthouse's result; `thresholdBreaches` (pure) says which of a website's thresholds
 * a run breached. Lighthouse itself (large) is loaded by the first run, not by importing this.
 */
export type { LighthouseReport } from './bounded-report.js';
export {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_PRESETS,
  type LighthouseAuditLost,
  type LighthouseBreaches,
  type LighthouseCategory,
  type LighthouseFigures,
  type LighthouseMetrics,
  type LighthousePreset,
  type LighthouseScores,
  type LighthouseThresholds,
  lighthouseAuditLostSchema,
  lighthouseBreachesSchema,
  lighthouseCategorySchema,
  lighthouseFiguresSchema,
  lighthouseMetricsSchema,
  lighthousePresetSchema,
  lighthouseScoresSchema,
  lighthouseThresholdsSchema,
  MAX_AUDITS_LOST,
  MAX_BREACH_AUDITS,
} from './lighthouse.schema.js';
export { LighthouseResultError, lighthouseFigures } from './lighthouse-figures.js';
export {
  type LighthouseRun,
  type LighthouseRunInput,
  type LighthouseRunOptions,
  lighthouseSettled,
  MAX_REPORT_BYTES,
  runLighthouse,
} from './lighthouse-run.js';
export { thresholdBreaches } from './threshold-breaches.js';
