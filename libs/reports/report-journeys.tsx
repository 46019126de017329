/** @jsxRuntime automatic @jsxImportSource preact */
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import type { ClientReport } from './report-view.js';

type ReportMonitor = ClientReport['websites'][number]['monitors'][number];
type JourneyMonitor = ReportMonitor & { runs: NonNullable<ReportMonitor['runs']> };

const isJourney = (monitor: ReportMonitor): monitor is JourneyMonitor => monitor.runs !== undefined;
const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;

/** A journey's success rate in words: "99.306 % of 288 runs passed". */
export function successText(runs: JourneyMonitor['runs']): string {
  if (runs.successRatePercent === null) return 'no run in the period';
  return `${runs.successRatePercent.toFixed(3)} % of ${plural(runs.runs, 'run')} passed`;
}

/**
 * A website's browser journeys and API flows in its details: each one's success rate over the period
 * and each step's median time over the runs it passed in (none: nothing shown).
 */
export function JourneyRuns({ monitors }: { monitors: readonly ReportMonitor[] }) {
  const journeys = monitors.filter(isJourney);
  return (
    <>
      {journeys.map((journey) => (
        <table class="nums">
          <caption>{`${capitalized(MONITOR_KIND_NOUNS[journey.kind])}: ${journey.name} — ${successText(journey.runs)}`}</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Median time</th>
              <th scope="col">Passed in</th>
            </tr>
          </thead>
          <tbody>
            {journey.runs.steps.map((step) => (
              <tr>
                <th scope="row">{`${step.step}. ${step.name}`}</th>
                <td>{step.medianMs === null ? '–' : `${step.medianMs.toLocaleString('en')} ms`}</td>
                <td>{plural(step.passedRuns, 'run')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </>
  );
}
