import type { Schemas } from '../api/client.js';

export type Category = Schemas['LighthouseAuditLost']['category'];
export type Scores = Schemas['LighthouseScores'];

/** Lighthouse's categories in its report's order, as people read them. */
export const CATEGORIES: ReadonlyArray<readonly [Category, string]> = [
  ['performance', 'Performance'],
  ['accessibility', 'Accessibility'],
  ['bestPractices', 'Best practices'],
  ['seo', 'SEO'],
];
export const CATEGORY_NAME = Object.fromEntries(CATEGORIES) as Record<Category, string>;

export const PRESET_NAME = { mobile: 'Mobile', desktop: 'Desktop' } as const;

/** Lighthouse's own bands (90–100 good, 50–89 needs improvement, under 50 poor), each with a symbol of its own. */
export function band(score: number): { key: 'good' | 'fair' | 'poor'; icon: string; text: string } {
  if (score >= 90) return { key: 'good', icon: '✓', text: 'good' };
  if (score >= 50) return { key: 'fair', icon: '!', text: 'needs improvement' };
  return { key: 'poor', icon: '✕', text: 'poor' };
}

/** A score with its band told by a symbol and in words (for screen readers), never by colour alone. */
export function Score({ score }: { score: number | null | undefined }) {
  if (score === null || score === undefined)
    return (
      <span class="muted" title="Not scored">
        —<span class="visually-hidden">not scored</span>
      </span>
    );
  const b = band(score);
  return (
    <span class={`score score-${b.key}`} title={b.text}>
      <span aria-hidden="true">{b.icon}</span> {score}
      <span class="visually-hidden"> ({b.text})</span>
    </span>
  );
}

/** A time in milliseconds as Lighthouse's report shows it: "840 ms", "2.4 s". */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The lab metrics in the report's order, with how each is written. */
export const METRICS: ReadonlyArray<
  readonly [keyof Schemas['LighthouseMetrics'], string, (value: number | null) => string]
> = [
  ['fcpMs', 'First Contentful Paint', duration],
  ['lcpMs', 'Largest Contentful Paint', duration],
  ['tbtMs', 'Total Blocking Time', duration],
  ['cls', 'Cumulative Layout Shift', (value) => (value === null ? '—' : value.toFixed(3))],
  ['speedIndexMs', 'Speed Index', duration],
];

/** A URL shown short where its site is known: the path of a page of that site, else the whole URL. */
export function shortUrl(url: string, site?: string): string {
  try {
    const parsed = new URL(url);
    if (site && parsed.origin === new URL(site).origin) return `${parsed.pathname}${parsed.search}`;
    return url;
  } catch {
    return url;
  }
}

/** A count with its noun: "1 page", "3 pages". */
export const counted = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
