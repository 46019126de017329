import { useState } from 'preact/hooks';
import type { RecentCheck } from './overview-data.js';

/** Each check's words and shape: solid (up), hollow (degraded), striped (down) — never colour alone. */
const CHECK_WORDS: Record<RecentCheck['status'], string> = { up: 'Up', degraded: 'Degraded', down: 'Down' };

const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const DATE_AND_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const DAY_MS = 86_400_000;

/**
 * A moment as a person reads it: today's by its time, older ones with their date (a site checked
 * last yesterday must not look current). Formatters made once: 200 rows of 30 checks are 6,000 of them.
 */
export function shownTime(iso: string): string {
  const at = new Date(iso);
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const sameDay = at.getTime() >= today.getTime() && at.getTime() < today.getTime() + DAY_MS;
  return (sameDay ? TIME : DATE_AND_TIME).format(at);
}

function checkText(check: RecentCheck): string {
  const time = check.responseMs === null ? 'no answer' : `${check.responseMs} ms`;
  return `${shownTime(check.at)}: ${CHECK_WORDS[check.status]}, ${time}`;
}

const KEY_MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowLeft: (index) => Math.max(0, index - 1),
  ArrowRight: (index, last) => Math.min(last, index + 1),
  Home: () => 0,
  End: (_index, last) => last,
};

/**
 * The website's last checks, oldest first, one mark each. One tab stop per bar (the newest check);
 * the arrow keys, Home and End move between its checks, each telling its time, status and response
 * time on focus and on hover.
 */
export function CheckBar({ checks, name }: { checks: readonly RecentCheck[]; name: string }) {
  const [focused, setFocused] = useState<number | null>(null);
  if (checks.length === 0) return <span class="muted">No checks yet</span>;
  const last = checks.length - 1;
  const current = Math.min(focused ?? last, last);
  const down = checks.filter((check) => check.status === 'down').length;
  const degraded = checks.filter((check) => check.status === 'degraded').length;
  const summary = `Last ${checks.length} checks of ${name}: ${checks.length - down - degraded} up, ${degraded} degraded, ${down} down`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of marks to read, not of form controls (a fieldset)
    <div
      class="checkbar"
      role="group"
      aria-label={summary}
      onKeyDown={(event) => {
        const move = KEY_MOVES[event.key];
        if (!move) return;
        event.preventDefault();
        const next = move(current, last);
        setFocused(next);
        (event.currentTarget.children[next] as HTMLElement | undefined)?.focus();
      }}
    >
      {checks.map((check, index) => {
        const text = checkText(check);
        return (
          <span
            key={check.at}
            class={`check-mark check-${check.status}`}
            role="img"
            tabIndex={index === current ? 0 : -1}
            aria-label={text}
            data-tip={text}
            onFocus={() => setFocused(index)}
          />
        );
      })}
    </div>
  );
}

const SPARK_WIDTH = 96;
const SPARK_HEIGHT = 24;

/** The last day's hourly response times as a line (a gap where an hour had no answer). */
export function Sparkline({ values }: { values: ReadonlyArray<number | null> }) {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return null;
  const low = Math.min(...known);
  const high = Math.max(...known);
  const step = SPARK_WIDTH / Math.max(1, values.length - 1);
  const y = (value: number) =>
    high === low ? SPARK_HEIGHT / 2 : 2 + (SPARK_HEIGHT - 4) * (1 - (value - low) / (high - low));
  let path = '';
  values.forEach((value, index) => {
    if (value === null) return;
    const previous = values[index - 1];
    path += `${previous === null || previous === undefined ? 'M' : 'L'}${(index * step).toFixed(1)},${y(value).toFixed(1)}`;
  });
  const newest = [...values].reverse().find((value) => value !== null);
  return (
    <svg
      class="sparkline"
      viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
      width={SPARK_WIDTH}
      height={SPARK_HEIGHT}
      role="img"
      aria-label={`Response time over the last day, hourly: ${low} to ${high} ms, the latest hour ${newest} ms`}
    >
      <path d={path} />
    </svg>
  );
}

/** An uptime in percent as people read it (99.95 %, 100 %); a dash when unknown. */
export function percent(value: number | null): string {
  if (value === null) return '—';
  // A no-break space: the figure and its sign stay on one line in a narrow column.
  return `${value === 100 ? '100' : Math.min(value, 99.99).toFixed(2)}\u00a0%`;
}
