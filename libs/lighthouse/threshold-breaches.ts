import {
  LIGHTHOUSE_CATEGORIES,
  type LighthouseBreaches,
  type LighthouseCategory,
  type LighthouseFigures,
  type LighthouseThresholds,
  MAX_BREACH_AUDITS,
} from './lighthouse.schema.js';

type RunFigures = Pick<LighthouseFigures, 'scores' | 'auditsLost'>;

/**
 * Which of a website's thresholds a run breached: each score under its minimum, each score down
 * by more than `maxDrop` points since `previous` (the same URL and preset's last run; null for
 * the first), and the audits that cost the breached categories most points now, each with what
 * it cost before. A score a run could not measure (null) breaches nothing, nor does a drop from
 * or to one: a failed run is told apart by its own outcome, not as a degradation.
 */
export function thresholdBreaches(
  current: RunFigures,
  previous: RunFigures | null,
  thresholds: LighthouseThresholds,
): LighthouseBreaches {
  const under: LighthouseBreaches['under'] = [];
  const dropped: LighthouseBreaches['dropped'] = [];
  for (const category of LIGHTHOUSE_CATEGORIES) {
    const score = current.scores[category];
    if (score === null) continue;
    const minimum = thresholds[category];
    if (minimum !== undefined && score < minimum) under.push({ category, score, minimum });
    const before = previous?.scores[category] ?? null;
    if (thresholds.maxDrop !== undefined && before !== null && before - score > thresholds.maxDrop)
      dropped.push({ category, score, previous: before, drop: before - score });
  }
  const breached = new Set<LighthouseCategory>([...under, ...dropped].map((breach) => breach.category));
  const lostBefore = (audit: { category: LighthouseCategory; id: string }): number | null => {
    if (!previous) return null;
    const match = previous.auditsLost.find((old) => old.category === audit.category && old.id === audit.id);
    return match?.pointsLost ?? 0;
  };
  const auditsLost = current.auditsLost
    .filter((audit) => breached.has(audit.category))
    .sort((a, b) => b.pointsLost - a.pointsLost)
    .slice(0, MAX_BREACH_AUDITS)
    .map((audit) => ({ ...audit, previousPointsLost: lostBefore(audit) }));
  return { under, dropped, auditsLost };
}
