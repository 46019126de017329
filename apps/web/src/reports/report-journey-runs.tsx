import type { Schemas } from '../api/client.js';
import { KIND_NAME } from '../websites/monitor-forms.js';

type ReportMonitor = Schemas['ReportMonitor'];
type JourneyRuns = Schemas['ReportJourneyRuns'];

const plural = (count: number, noun: string) => `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;

/** A journey's success rate in words, as the server's report says it: "99.306 % of 288 runs passed". */
export function successText(runs: JourneyRuns): string {
  if (runs.successRatePercent === null) return 'no run in the period';
  return `${runs.successRatePercent.toFixed(3)} % of ${plural(runs.runs, 'run')} passed`;
}

/**
 * A browser journey's or API flow's runs, in a row of their own under its monitor's row: its success
 * rate and each step's median time over the runs it passed in (a table that stacks on a phone).
 * Counts only: a run's evidence (errors, screenshots, traces) is never part of a report.
 */
export function JourneyRunsRow({ monitor, columns }: { monitor: ReportMonitor; columns: number }) {
  const { runs } = monitor;
  if (!runs) return null;
  const title = `${KIND_NAME[monitor.kind]}: ${monitor.name} — ${successText(runs)}`;
  return (
    <tr>
      <td class="journey-runs-cell" colSpan={columns}>
        {runs.steps.length === 0 ? (
          <p>{title}</p>
        ) : (
          <table class="stack journey-report-steps">
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Median time</th>
                <th scope="col">Passed in</th>
              </tr>
            </thead>
            <tbody>
              {runs.steps.map((step) => (
                <tr key={step.step}>
                  <th scope="row">
                    {step.step}. {step.name}
                  </th>
                  <td data-label="Median time">
                    {step.medianMs === null ? '–' : `${step.medianMs.toLocaleString()} ms`}
                  </td>
                  <td data-label="Passed in">{plural(step.passedRuns, 'run')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </td>
    </tr>
  );
}
