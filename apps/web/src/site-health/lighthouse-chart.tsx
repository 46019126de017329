import type { LighthouseRun } from '../api/site-health.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { CATEGORIES, type Category, Score } from './scores.js';

const WIDTH = 640;
const HEIGHT = 260;
/** Room for the score labels on the left, half a date on the right and the dates below. */
const LEFT = 40;
const RIGHT = 28;
const TOP = 10;
const BOTTOM = 28;

/** Each category's marker: a shape of its own besides its colour and dash. */
function Marker({ category, x, y }: { category: Category; x: number; y: number }) {
  const r = 4.5;
  switch (category) {
    case 'performance':
      return <circle cx={x} cy={y} r={r} />;
    case 'accessibility':
      return <rect x={x - r} y={y - r} width={r * 2} height={r * 2} />;
    case 'bestPractices':
      return <polygon points={`${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`} />;
    case 'seo':
      return <polygon points={`${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`} />;
  }
}

/** A short date for the axis: "12 Mar". */
const dayOf = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short' }).format(new Date(iso));

/**
 * A page and preset's four scores over time, oldest left (inline SVG, no library): a line each,
 * told apart by colour, dash and marker shape, the 50 and 90 bands marked. Its caption says what
 * it shows in words and the table under it holds every figure, for those who do not see it.
 */
export function LighthouseChart({
  runs,
  zone,
  title,
}: {
  runs: LighthouseRun[];
  zone: string;
  title: string;
}) {
  const scored = runs
    .filter((run) => run.figures)
    .slice(0, 60)
    .reverse();
  if (scored.length === 0) return <p>No scores yet: they appear after the first run that audits the page.</p>;
  const times = scored.map((run) => Date.parse(run.at));
  const first = Math.min(...times);
  const span = Math.max(...times) - first;
  const x = (at: number) =>
    span === 0 ? LEFT + (WIDTH - LEFT - RIGHT) / 2 : LEFT + ((at - first) / span) * (WIDTH - LEFT - RIGHT);
  const y = (score: number) => TOP + (1 - score / 100) * (HEIGHT - TOP - BOTTOM);
  const trend = CATEGORIES.map(([category, name]) => {
    const values = scored.flatMap((run) => {
      const value = run.figures?.scores[category];
      return value === null || value === undefined ? [] : [value];
    });
    return values.length === 0
      ? `${name} not scored`
      : values.length === 1
        ? `${name} ${values[0]}`
        : `${name} from ${values[0]} to ${values.at(-1)}`;
  });
  const summary = `${title}: Lighthouse scores of ${scored.length} ${scored.length === 1 ? 'run' : 'runs'} from ${formatIn(scored[0]?.at ?? '', zone)} to ${formatIn(scored.at(-1)?.at ?? '', zone)}. ${trend.join('; ')}.`;
  const ticks =
    scored.length <= 6 ? scored : [scored[0], scored[Math.floor(scored.length / 2)], scored.at(-1)];
  return (
    <figure class="lighthouse-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} class="lh-chart">
        {/* Lighthouse's bands: 90 and 50 (the 90 line unlabelled, its label would sit on 100's). */}
        {[0, 50, 90, 100].map((score) => (
          <g key={score} class="lh-grid">
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(score)} y2={y(score)} />
            {score !== 90 && (
              <text x={LEFT - 6} y={y(score) + 5} text-anchor="end">
                {score}
              </text>
            )}
          </g>
        ))}
        {ticks.map((run) =>
          run ? (
            <text
              key={run.runId}
              class="lh-tick"
              x={x(Date.parse(run.at))}
              y={HEIGHT - 8}
              text-anchor="middle"
            >
              {dayOf(run.at, zone)}
            </text>
          ) : null,
        )}
        {CATEGORIES.map(([category, name]) => {
          const points = scored.flatMap((run) => {
            const value = run.figures?.scores[category];
            return value === null || value === undefined
              ? []
              : [{ run, px: x(Date.parse(run.at)), py: y(value), value }];
          });
          return (
            <g key={category} class={`lh-series lh-${category}`}>
              <polyline points={points.map((p) => `${p.px},${p.py}`).join(' ')} />
              {points.map((p) => (
                <g key={p.run.runId}>
                  <title>{`${formatIn(p.run.at, zone)}: ${name} ${p.value}`}</title>
                  <Marker category={category} x={p.px} y={p.py} />
                </g>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul class="legend" aria-label="The lines">
          {CATEGORIES.map(([category, name]) => (
            <li key={category}>
              <svg class={`lh-key lh-series lh-${category}`} viewBox="0 0 36 14" aria-hidden="true">
                <polyline points="2,7 34,7" />
                <Marker category={category} x={18} y={7} />
              </svg>
              {name}
            </li>
          ))}
        </ul>
        <details class="lh-table">
          <summary>The scores as a table</summary>
          <div class="table-scroll">
            <table class="stack">
              <caption>{title}: Lighthouse scores, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  {CATEGORIES.map(([category, name]) => (
                    <th scope="col" key={category}>
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {scored
                  .slice()
                  .reverse()
                  .map((run) => (
                    <tr key={run.runId}>
                      <td data-label="When">{formatIn(run.at, zone)}</td>
                      {CATEGORIES.map(([category, name]) => (
                        <td key={category} data-label={name}>
                          <Score score={run.figures?.scores[category]} />
                        </td>
                      ))}
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        </details>
      </figcaption>
    </figure>
  );
}
