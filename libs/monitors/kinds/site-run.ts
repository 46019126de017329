import type { LighthouseRun, LighthouseRunInput } from '../../lighthouse/index.js';
import type { ProbeOptions } from '../../probe/index.js';

export type { SiteRun } from '../../site-health/index.js';

/** The process's Lighthouse, bound to its browser: a run behind the check's guard, with its user agent. */
export type LighthouseRunning = (input: LighthouseRunInput, probe: ProbeOptions) => Promise<LighthouseRun>;

/** How far a long run has come, as a run on request shows it. */
export interface RunProgress {
  /** In words: "crawling: 120 pages read, 840 links checked", "Lighthouse (mobile): https://…". */
  stage: string;
  done: number;
  /** What `done` counts towards, where known. */
  total: number | null;
}
