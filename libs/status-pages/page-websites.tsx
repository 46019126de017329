/** @jsxRuntime automatic @jsxImportSource preact */
import { type Translator, useTranslator, When, Words } from './i18n/index.js';
import type { DayBar, ShownStatus, StatusPageData } from './page-model.js';

/** The page's websites: each with its state, 90 day bars, response times and other monitors. */

/** Colour is never the only sign: every state also has its words and a symbol. */
const SYMBOL: Record<ShownStatus, string> = {
  up: '✓',
  degraded: '!',
  down: '✕',
  maintenance: '⚙',
  unknown: '?',
  paused: '–',
  unmonitored: '–',
  cancelled: '–',
};

function barClass(day: DayBar): string {
  if (day.uptimePercent === null) return 'none';
  if (day.uptimePercent >= 99.9) return 'up';
  if (day.uptimePercent >= 95) return 'degraded';
  return 'down';
}

function Bars({ days }: { days: readonly DayBar[] }) {
  const t = useTranslator();
  return (
    <ol class="bars" aria-label={t.text('page.barsLabel', { days: days.length })}>
      {days.map((day) => {
        const label =
          day.uptimePercent === null
            ? t.text('page.dayNoData', { date: day.date })
            : t.text('page.dayUptime', {
                date: day.date,
                percent: day.uptimePercent,
                duration: t.duration(day.downtimeSeconds),
              });
        return (
          <li class={`bar ${barClass(day)}`} title={label}>
            <span class="sr">{label}</span>
          </li>
        );
      })}
    </ol>
  );
}

function Chart({ points }: { points: ReadonlyArray<{ hour: string; averageMs: number | null }> }) {
  const t = useTranslator();
  const values = points.map((p) => p.averageMs).filter((v): v is number => v !== null);
  if (values.length === 0) return <p class="muted">{t.text('page.noResponseTimes')}</p>;
  const max = Math.max(...values, 1);
  const width = 480;
  const height = 80;
  const step = width / (points.length - 1);
  const coordinates = points
    .map((p, i) =>
      p.averageMs === null
        ? null
        : { x: (i * step).toFixed(1), y: (height - (p.averageMs / max) * (height - 8) - 4).toFixed(1) },
    )
    .filter((c): c is { x: string; y: string } => c !== null);
  const average = Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  const figures = { mean: average, highest: Math.max(...values) };
  const description = t.text('page.chartLabel', figures);
  // The figures in words too: a chart of a few hours is mostly empty space to a reader.
  return (
    <>
      <svg
        class="chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={description}
        preserveAspectRatio="none"
      >
        <title>{description}</title>
        <polyline
          fill="none"
          stroke="currentColor"
          stroke-width="2"
          points={coordinates.map((c) => `${c.x},${c.y}`).join(' ')}
        />
        {/* A dot per hour, so that a single hour with answers shows too. */}
        {coordinates.map((c) => (
          <circle cx={c.x} cy={c.y} r="3" fill="currentColor" />
        ))}
      </svg>
      <p class="muted">{t.text('page.chartText', figures)}</p>
    </>
  );
}

const uptimeText = (t: Translator, percent: number | null) =>
  percent === null ? t.text('page.uptimeNoData') : t.text('page.uptime90', { percent });

function Website({
  website,
  index,
  level,
}: {
  website: StatusPageData['websites'][number];
  index: number;
  level: 'h3' | 'h4';
}) {
  const t = useTranslator();
  const Heading = level;
  // Its place on the page, not an id: the page shows no ids (docs/resources.md).
  return (
    <article class="website" aria-labelledby={`w-${index}`}>
      <div class="line">
        <Heading id={`w-${index}`}>{website.name}</Heading>
        <span class={`state ${website.status}`}>{`${SYMBOL[website.status]} ${website.statusText}`}</span>
      </div>
      <Bars days={website.days} />
      <p class="muted">
        {uptimeText(t, website.uptime90dPercent)}
        {website.lastCheckedAt && (
          <Words text={t.raw('page.lastChecked')} values={{ time: <When iso={website.lastCheckedAt} /> }} />
        )}
      </p>
      {website.responseTimes && <Chart points={website.responseTimes} />}
      {website.monitors.length > 0 && (
        <ul class="monitors">
          {website.monitors.map((m) => (
            <li>
              <span>{`${m.kind}: ${m.name}`}</span>{' '}
              <span class={`state ${m.status}`}>{`${SYMBOL[m.status]} ${m.statusText}`}</span>
              {m.days.length > 0 && (
                <>
                  <Bars days={m.days} />
                  <span class="muted">{uptimeText(t, m.uptime90dPercent)}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/** The websites as one list, or in the page's sections (each its own part, in order). */
export function WebsiteSections({ data }: { data: StatusPageData }) {
  const t = useTranslator();
  if (data.sections.length === 0)
    return (
      <section aria-labelledby="websites">
        <h2 id="websites">{t.text('page.websites')}</h2>
        {data.websites.length === 0 ? (
          <p>{t.text('page.noWebsites')}</p>
        ) : (
          data.websites.map((website, index) => <Website website={website} index={index} level="h3" />)
        )}
      </section>
    );
  return (
    <>
      {data.sections.map((section, number) => (
        <section aria-labelledby={`section-${number}`} class="group">
          <h2 id={`section-${number}`}>{section.name ?? t.text('page.otherWebsites')}</h2>
          {section.websites.length === 0 ? (
            <p class="muted">{t.text('page.noWebsites')}</p>
          ) : (
            section.websites.map((index) => {
              const website = data.websites[index];
              return website && <Website website={website} index={index} level="h3" />;
            })
          )}
        </section>
      ))}
    </>
  );
}
