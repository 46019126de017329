import type { Schemas } from '../api/client.js';

const PHASES = [
  ['dns', 'DNS', 'bar-dns'],
  ['connect', 'Connect', 'bar-connect'],
  ['tls', 'TLS', 'bar-tls'],
  ['ttfb', 'First byte', 'bar-first'],
  ['download', 'Download', 'bar-transfer'],
] as const;

/**
 * Response times of the recent results as stacked bars, oldest left, each split into its phases
 * (inline SVG: no library, no script). The caption says the numbers for those who do not see it.
 */
export function TimingChart({ results }: { results: Schemas['Result'][] }) {
  const shown = results
    .filter((r) => r.timings.total > 0)
    .slice(0, 60)
    .reverse();
  if (shown.length === 0) return <p>No response times yet: they appear after the first check.</p>;
  const phaseSum = (r: Schemas['Result']) => PHASES.reduce((sum, [key]) => sum + r.timings[key], 0);
  const highest = Math.max(...shown.map((r) => Math.max(r.timings.total, phaseSum(r))));
  const mean = Math.round(shown.reduce((sum, r) => sum + r.timings.total, 0) / shown.length);
  const width = 600;
  const height = 160;
  // At least 30 slots: two results are two bars, not two walls.
  const bar = width / Math.max(shown.length, 30);
  const scale = (ms: number) => (ms / Math.max(highest, 1)) * (height - 20);
  return (
    <figure>
      <div class="chart-scale muted" aria-hidden="true">
        {Math.round(highest)} ms
      </div>
      {/* Stretched to the chart's height whatever the width, so a phone's bars are not a sliver. */}
      <svg
        class="chart"
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Response times of the last ${shown.length} checks: mean ${mean} ms, highest ${Math.round(highest)} ms`}
      >
        <line class="axis" x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} />
        {shown.map((result, index) => {
          let y = height;
          return (
            <g key={`${result.startedAt}-${result.region}`}>
              <title>
                {`${new Date(result.startedAt).toLocaleString()} (${result.region}): ${Math.round(result.timings.total)} ms — ${PHASES.map(([key, label]) => `${label} ${Math.round(result.timings[key])}`).join(', ')}`}
              </title>
              {PHASES.map(([key, , className]) => {
                const h = scale(result.timings[key]);
                y -= h;
                return (
                  <rect
                    key={key}
                    class={className}
                    x={index * bar + bar * 0.15}
                    y={y}
                    width={bar * 0.7}
                    height={Math.max(h, 0)}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        Mean {mean} ms, highest {Math.round(highest)} ms over the last {shown.length} checks.
        <ul class="legend" aria-label="Phases">
          {PHASES.map(([key, label, className]) => (
            <li key={key}>
              <span class={`swatch ${className}`} aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
