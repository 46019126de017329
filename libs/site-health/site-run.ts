import type { LighthouseRun } from '../lighthouse/index.js';
import type { CrawlFound } from './site-findings.js';

/**
 * What a site-health run (a crawl, a Lighthouse check) hands the runner beside its verdict: the
 * whole of what it found, which is kept (findings, scores' history) and compared with the run
 * before to tell what is new. In memory only: its result keeps a bounded summary.
 */
export interface SiteRun {
  runId: string;
  crawl?: CrawlFound;
  /** Each page and preset run, in order, its report's HTML kept apart (the run's files). */
  lighthouse?: Array<Omit<LighthouseRun, 'report'> & { reportKept: boolean; reportNote: string | null }>;
}
