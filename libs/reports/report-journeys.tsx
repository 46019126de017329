/** @jsxRuntime automatic @jsxImportSource preact */
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import { STEP_COLUMNS, stepCells, successText } from './journey-run-texts.js';
import type { ClientReport } from './report-view.js';

type ReportMonitor = ClientReport['websites'][number]['monitors'][number];
type JourneyMonitor = ReportMonitor & { runs: NonNullable<ReportMonitor['runs']> };

const isJourney = (monitor: ReportMonitor): monitor is JourneyMonitor => monitor.runs !== undefined;
const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

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
              {STEP_COLUMNS.map((column) => (
                <th scope="col">{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {journey.runs.steps.map((step) => {
              const [name, median, passedIn] = stepCells(step);
              return (
                <tr>
                  <th scope="row">{name}</th>
                  <td>{median}</td>
                  <td>{passedIn}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
    </>
  );
}
