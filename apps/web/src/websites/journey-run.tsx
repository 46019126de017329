import type { Schemas } from '../api/client.js';

/**
 * A browser journey's run as its evidence keeps it (the API's `JourneyRunEvidence`): each step's
 * outcome and time, the screenshots and trace kept as files of the run (by `runId`), what the page
 * logged and requested, what the guard refused, and each page's Web Vitals. Partial: a result's
 * evidence is read before it is known to be a journey's.
 */
export type JourneyEvidence = Partial<Schemas['JourneyRunEvidence']>;

/** Whether the run's files can still be read, and if not, why not, in words. */
export function filesState(filesKeptUntil: string | null | undefined): {
  readable: boolean;
  gone: string | null;
} {
  if (filesKeptUntil === undefined) return { readable: true, gone: null };
  if (filesKeptUntil === null)
    return { readable: false, gone: 'Its screenshots and trace could not be stored.' };
  if (Date.parse(filesKeptUntil) > Date.now()) return { readable: true, gone: null };
  return {
    readable: false,
    gone: `Its screenshots and trace were kept until ${new Date(filesKeptUntil).toLocaleString()}.`,
  };
}

/** The screenshot the failure's page is kept as. */
const FAILURE = 'failure';
const OUTCOME = { passed: '✓', failed: '⚠', skipped: '–' } as const;
const OUTCOME_CLASS = { passed: undefined, failed: 'error-text', skipped: 'muted' } as const;

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value).toLocaleString('en')} ms`);

/** Where a run's file is read: the website's results, by the run's id (the session's cookie goes with it). */
function runFile(websiteRef: string, runId: string, file: 'screenshot' | 'trace', name?: string): string {
  const base = `/api/websites/${encodeURIComponent(websiteRef)}/results/${encodeURIComponent(runId)}/${file}`;
  return name === undefined ? base : `${base}?name=${encodeURIComponent(name)}`;
}

/** A screenshot of the run, as large as the column allows; the link opens it at its own size. */
export function Shot({ src, caption }: { src: string; caption: string }) {
  return (
    <figure class="journey-shot">
      <a href={src} target="_blank" rel="noopener">
        <img src={src} alt={caption} />
      </a>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** The name the failing step is known by in a sentence: "step 9 “Add to basket”". */
export function failingStepOf(evidence: JourneyEvidence): string | null {
  const failed = evidence.steps?.find((step) => step.outcome === 'failed');
  return failed ? `step ${failed.index + 1} “${failed.name}”` : null;
}

/**
 * One run: each step with its outcome and time (a screenshot step with its image, the failing one
 * with its error and the page at the failure), then what the page logged, what failed to load,
 * what the guard blocked, each page's Web Vitals, and the trace to download.
 */
export function JourneyRunView({ websiteRef, evidence }: { websiteRef: string; evidence: JourneyEvidence }) {
  const { runId, steps = [], screenshots = [] } = evidence;
  const files = filesState(evidence.filesKeptUntil);
  const shot = (name: string) =>
    runId && files.readable && screenshots.includes(name)
      ? runFile(websiteRef, runId, 'screenshot', name)
      : null;
  const failure = shot(FAILURE);
  const placedFailure = steps.some((step) => step.outcome === 'failed');
  const consoleErrors = evidence.consoleErrors ?? [];
  const failedRequests = evidence.failedRequests ?? [];
  const blocked = evidence.blocked ?? [];
  const vitals = evidence.vitals ?? [];
  return (
    <div class="journey-run">
      <ol class="journey-steps">
        {steps.map((step) => {
          const image = step.action === 'screenshot' ? shot(step.name) : null;
          return (
            <li key={step.index}>
              <span class={OUTCOME_CLASS[step.outcome]}>
                <span aria-hidden="true">{OUTCOME[step.outcome]} </span>
                <span class="visually-hidden">{step.outcome}: </span>
                {step.action === 'screenshot' ? `Screenshot “${step.name}”` : sentence(step.name)}
                {step.outcome === 'skipped' ? ' (not played)' : ` in ${ms(step.durationMs)}`}
              </span>
              {step.error && <p class="step-error error-text">{step.error}</p>}
              {image && <Shot src={image} caption={`Screenshot “${step.name}”`} />}
              {step.outcome === 'failed' && failure && (
                <Shot src={failure} caption={`The page when step ${step.index + 1} failed`} />
              )}
            </li>
          );
        })}
      </ol>
      {evidence.error && steps.length === 0 && <p class="error-text">{evidence.error}</p>}
      {failure && !placedFailure && <Shot src={failure} caption="The page when the run failed" />}
      {consoleErrors.length > 0 && (
        <>
          <h4>Console errors</h4>
          <ul class="journey-log">
            {consoleErrors.map((line, at) => (
              <li key={at}>
                <code>{line}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {failedRequests.length > 0 && (
        <>
          <h4>Failed requests</h4>
          <ul class="journey-log">
            {failedRequests.map((request, at) => (
              <li key={at}>
                {request.method} <code>{request.url}</code> →{' '}
                {request.status ?? `no answer${request.error ? `: ${request.error}` : ''}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {blocked.length > 0 && (
        <>
          <h4>Blocked by the address guard</h4>
          <ul class="journey-log">
            {blocked.map((refusal) => (
              <li key={refusal.target}>
                <code>{refusal.target}</code>: {refusal.reason}
                {refusal.times > 1 && ` (${refusal.times} times)`}
              </li>
            ))}
          </ul>
        </>
      )}
      {vitals.length > 0 && <Vitals vitals={vitals} />}
      {files.gone && (screenshots.length > 0 || evidence.trace) && <p class="muted">{files.gone}</p>}
      {evidence.trace && runId && files.readable && (
        <p>
          <a href={runFile(websiteRef, runId, 'trace')} download={`trace-${runId}.zip`}>
            Download the trace
          </a>{' '}
          <span class="muted">
            (zip: open it with <code>npx playwright show-trace</code> or at trace.playwright.dev)
          </span>
        </p>
      )}
      {(evidence.notKept ?? []).length > 0 && <p class="muted">Not kept: {evidence.notKept?.join('; ')}.</p>}
    </div>
  );
}

const VITALS = [
  ['ttfbMs', 'TTFB'],
  ['fcpMs', 'FCP'],
  ['lcpMs', 'LCP'],
  ['cls', 'CLS'],
  ['inpMs', 'INP'],
] as const;

/** Each page's Web Vitals as the browser measured them (a table that stacks on a phone). */
function Vitals({ vitals }: { vitals: NonNullable<JourneyEvidence['vitals']> }) {
  return (
    <table class="stack journey-vitals">
      <caption>Web Vitals per page</caption>
      <thead>
        <tr>
          <th scope="col">Page</th>
          {VITALS.map(([key, name]) => (
            <th scope="col" key={key}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {vitals.map((page, at) => (
          <tr key={at}>
            <td data-label="Page">
              <code>{page.url}</code>
            </td>
            {VITALS.map(([key, name]) => (
              <td key={key} data-label={name}>
                {key === 'cls' ? (page.cls === null ? '—' : page.cls.toFixed(3)) : ms(page[key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
