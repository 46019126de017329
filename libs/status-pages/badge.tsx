/** @jsxRuntime automatic @jsxImportSource preact */
import { renderToString } from 'preact-render-to-string';

const COLORS = { green: '#2e7d32', yellow: '#b26a00', red: '#c62828', grey: '#616161' } as const;
export type BadgeColor = keyof typeof COLORS;

/** Verdana 11px, roughly: wide enough for the text without measuring fonts. */
const textWidth = (text: string) => Math.round([...text].length * 6.6 + 10);

/** A shields-style flat badge: `label | value`, the value on a colour, both readable as text. */
export function badgeSvg(label: string, value: string, color: BadgeColor): string {
  const left = textWidth(label);
  const right = textWidth(value);
  const width = left + right;
  const title = `${label}: ${value}`;
  return renderToString(
    <svg xmlns="http://www.w3.org/2000/svg" width={width} height="20" role="img" aria-label={title}>
      <title>{title}</title>
      <linearGradient id="s" x2="0" y2="100%">
        <stop offset="0" stop-color="#bbb" stop-opacity=".1" />
        <stop offset="1" stop-opacity=".1" />
      </linearGradient>
      <clipPath id="r">
        <rect width={width} height="20" rx="3" fill="#fff" />
      </clipPath>
      <g clip-path="url(#r)">
        <rect width={left} height="20" fill="#555" />
        <rect x={left} width={right} height="20" fill={COLORS[color]} />
        <rect width={width} height="20" fill="url(#s)" />
      </g>
      <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
        <text x={left / 2} y="14">
          {label}
        </text>
        <text x={left + right / 2} y="14">
          {value}
        </text>
      </g>
    </svg>,
  );
}

export function statusBadgeColor(status: string): BadgeColor {
  if (status === 'up') return 'green';
  if (status === 'degraded' || status === 'maintenance') return 'yellow';
  if (status === 'down') return 'red';
  return 'grey';
}

export function uptimeBadgeColor(percent: number | null): BadgeColor {
  if (percent === null) return 'grey';
  if (percent >= 99.9) return 'green';
  if (percent >= 99) return 'yellow';
  return 'red';
}
