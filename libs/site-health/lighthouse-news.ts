import type { SiteHealthNews } from '../events/index.js';
import {
  type LighthouseBreaches,
  type LighthouseCategory,
  type LighthouseFigures,
  type LighthouseThresholds,
  thresholdBreaches,
} from '../lighthouse/index.js';

/** Our names for Lighthouse's categories, as its report words them. */
const CATEGORY_NAMES: Record<LighthouseCategory, string> = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  bestPractices: 'Best Practices',
  seo: 'SEO',
};

/** A run of a page and preset as judged: its figures and the thresholds it breached. */
export interface JudgedRun {
  url: string;
  preset: string;
  figures: Pick<LighthouseFigures, 'scores' | 'auditsLost'> | null;
  breaches: LighthouseBreaches | null;
}

const breachedCategories = (breaches: LighthouseBreaches | null) =>
  new Set([...(breaches?.under ?? []), ...(breaches?.dropped ?? [])].map((breach) => breach.category));

/**
 * Each run judged against the thresholds and the same page and preset's last scored run, and
 * what is news: a category breached now that the run before did not breach (a score that stays
 * under its minimum is told once, not every day). A run without figures breaches nothing. Pure.
 */
export function judgeLighthouseRuns(
  runs: ReadonlyArray<Omit<JudgedRun, 'breaches'>>,
  previousOf: (url: string, preset: string) => JudgedRun | null,
  thresholds: LighthouseThresholds,
): { judged: JudgedRun[]; news: SiteHealthNews['lighthouse'] } {
  const judged: JudgedRun[] = [];
  const news: SiteHealthNews['lighthouse'] = [];
  for (const run of runs) {
    const previous = previousOf(run.url, run.preset);
    const breaches = run.figures
      ? thresholdBreaches(run.figures, previous?.figures ?? null, thresholds)
      : null;
    judged.push({ ...run, breaches });
    const before = breachedCategories(previous?.breaches ?? null);
    const fresh = [...breachedCategories(breaches)].filter((category) => !before.has(category));
    if (!breaches || fresh.length === 0) continue;
    news.push({
      url: run.url,
      preset: run.preset,
      breaches: [
        ...breaches.under.map(
          (breach) => `${CATEGORY_NAMES[breach.category]} ${breach.score} (under ${breach.minimum})`,
        ),
        ...breaches.dropped.map(
          (breach) =>
            `${CATEGORY_NAMES[breach.category]} ${breach.score} (down ${breach.drop} from ${breach.previous})`,
        ),
      ],
      audits: breaches.auditsLost
        .slice(0, 5)
        .map((audit) => `${audit.title} (−${Math.round(audit.pointsLost)})`),
    });
  }
  return { judged, news };
}
