import { STEP_COLUMNS, stepCells, successText } from '../../../../libs/reports/journey-run-texts.js';
import type { Schemas } from '../api/client.js';
import { KIND_NAME } from '../websites/monitor-forms.js';

type ReportMonitor = Schemas['ReportMonitor'];

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
                {STEP_COLUMNS.map((column) => (
                  <th scope="col" key={column}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {runs.steps.map((step) => {
                const [name, median, passedIn] = stepCells(step);
                return (
                  <tr key={step.step}>
                    <th scope="row">{name}</th>
                    <td data-label={STEP_COLUMNS[1]}>{median}</td>
                    <td data-label={STEP_COLUMNS[2]}>{passedIn}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </td>
    </tr>
  );
}
