/**
 * A report's browser journeys and API flows in words, for the server's report and the app's alike
 * (pure: the app imports it). Counts only: a run's evidence is never part of a report.
 */

/** What a report says of a journey's runs (the `ReportJourneyRuns` shape). */
export interface JourneyRunFigures {
  runs: number;
  successRatePercent: number | null;
  steps: ReadonlyArray<{ step: number; name: string; passedRuns: number; medianMs: number | null }>;
}

const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;

/** The success rate: "99.306 % of 288 runs passed". */
export function successText(runs: JourneyRunFigures): string {
  if (runs.successRatePercent === null) return 'no run in the period';
  return `${runs.successRatePercent.toFixed(3)} % of ${plural(runs.runs, 'run')} passed`;
}

/** The step table's headings, in column order. */
export const STEP_COLUMNS = ['Step', 'Median time', 'Passed in'] as const;

/** One step's row, cell by cell as `STEP_COLUMNS` names them. */
export function stepCells(step: JourneyRunFigures['steps'][number]): [string, string, string] {
  return [
    `${step.step}. ${step.name}`,
    step.medianMs === null ? '–' : `${step.medianMs.toLocaleString('en')} ms`,
    plural(step.passedRuns, 'run'),
  ];
}
