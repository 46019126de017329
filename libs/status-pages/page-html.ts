import type { DayBar, ShownStatus, StatusPageData } from './page-model.js';

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

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

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h`;
}

const when = (iso: string) => `<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;

function barClass(day: DayBar): string {
  if (day.uptimePercent === null) return 'none';
  if (day.uptimePercent >= 99.9) return 'up';
  if (day.uptimePercent >= 95) return 'degraded';
  return 'down';
}

function bars(days: readonly DayBar[]): string {
  const items = days
    .map((day) => {
      const label =
        day.uptimePercent === null
          ? `${day.date}: no data`
          : `${day.date}: ${day.uptimePercent}% uptime, ${duration(day.downtimeSeconds)} down`;
      return `<li class="bar ${barClass(day)}" title="${label}"><span class="sr">${label}</span></li>`;
    })
    .join('');
  return `<ol class="bars" aria-label="Uptime of the last ${days.length} days, oldest first">${items}</ol>`;
}

function chart(points: ReadonlyArray<{ hour: string; averageMs: number | null }>): string {
  const values = points.map((p) => p.averageMs).filter((v): v is number => v !== null);
  if (values.length === 0) return '<p class="muted">No response times in the last 24 hours.</p>';
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
  // A dot per hour, so that a single hour with answers shows too.
  const dots = coordinates.map((c) => `<circle cx="${c.x}" cy="${c.y}" r="3" fill="currentColor"/>`).join('');
  const average = Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  const description = `Average response time per hour over the last 24 hours: mean ${average} ms, highest ${Math.max(...values)} ms`;
  // The figures in words too: a chart of a few hours is mostly empty space to a reader.
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${description}" preserveAspectRatio="none"><title>${description}</title><polyline fill="none" stroke="currentColor" stroke-width="2" points="${coordinates.map((c) => `${c.x},${c.y}`).join(' ')}"/>${dots}</svg><p class="muted">Response time over the last 24 hours: mean ${average} ms, highest ${Math.max(...values)} ms.</p>`;
}

const STYLE = `
:root{--accent:#1570ef;color-scheme:light;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
body{margin:0;background:#f7f8fa;color:#1d2939}
main{max-width:52rem;margin:0 auto;padding:1rem}
header{display:flex;gap:1rem;align-items:center;border-bottom:4px solid var(--accent);padding:1rem 0}
header img{max-height:3rem;max-width:10rem}
h1{font-size:1.5rem;margin:0}
.overall{font-size:1.25rem;padding:1rem;border-radius:.5rem;background:#fff;border-left:.5rem solid var(--accent);margin:1rem 0}
section{background:#fff;border-radius:.5rem;padding:1rem;margin:1rem 0}
.website{border-top:1px solid #eaecf0;padding:.75rem 0}
.website:first-of-type{border-top:0}
.line{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
.state{font-weight:600}
.state.up{color:#067647}.state.degraded{color:#b54708}.state.down{color:#b42318}
.bars{display:flex;gap:1px;list-style:none;padding:0;margin:.5rem 0;height:2rem}
.bar{flex:1;border-radius:1px;background:#d0d5dd}
.bar.up{background:#17b26a}.bar.degraded{background:#f79009}.bar.down{background:#f04438}
.chart{width:100%;height:5rem;color:var(--accent)}
.muted{color:#667085;font-size:.875rem}
.monitors{list-style:none;padding:0;margin:.5rem 0 0;font-size:.875rem}.monitors li{display:flex;justify-content:space-between;gap:0 1rem;flex-wrap:wrap;padding:.25rem 0}.monitors .bars{flex-basis:100%;height:1rem;margin:.25rem 0 0}
.note{color:#344054;font-size:.875rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{color:#667085;font-size:.875rem;padding:1rem 0}
@media (max-width:30rem){.bars{gap:0}}
`;

/** The public page: server-rendered, works without JavaScript. */
export function renderStatusPage(data: StatusPageData, options: { jsonPath: string }): string {
  const { branding } = data;
  const accent = branding.accentColor ? `:root{--accent:${branding.accentColor}}` : '';
  const websites = data.websites
    .map((website, index) => {
      const uptime =
        website.uptime90dPercent === null
          ? 'no data yet'
          : `${website.uptime90dPercent}% uptime over 90 days`;
      // Its place on the page, not an id: the page shows no ids (docs/resources.md).
      return `<article class="website" aria-labelledby="w-${index}">
<div class="line"><h3 id="w-${index}">${escapeHtml(website.name)}</h3>
<span class="state ${website.status}">${SYMBOL[website.status]} ${website.statusText}</span></div>
${bars(website.days)}
<p class="muted">${uptime}${website.lastCheckedAt ? ` · last checked ${when(website.lastCheckedAt)}` : ''}</p>
${website.responseTimes ? chart(website.responseTimes) : ''}
${
  website.monitors.length === 0
    ? ''
    : `<ul class="monitors">${website.monitors
        .map(
          (m) =>
            `<li><span>${escapeHtml(m.kind)}: ${escapeHtml(m.name)}</span> <span class="state ${m.status}">${SYMBOL[m.status]} ${m.statusText}</span>${
              m.days.length > 0
                ? `${bars(m.days)}<span class="muted">${m.uptime90dPercent === null ? 'no data yet' : `${m.uptime90dPercent}% uptime over 90 days`}</span>`
                : ''
            }</li>`,
        )
        .join('')}</ul>`
}
</article>`;
    })
    .join('\n');
  const incidents =
    data.incidents.length === 0
      ? '<p>No incidents in the last 14 days.</p>'
      : `<ul>${data.incidents
          .map(
            (i) =>
              `<li><strong>${escapeHtml(i.website)}</strong> ${i.open ? 'is down' : 'was down'} since ${when(i.startedAt)}${
                i.resolvedAt ? `, until ${when(i.resolvedAt)}` : ''
              } (${i.open ? 'ongoing, ' : ''}${duration(i.durationSeconds)})${
                i.note ? `<br><span class="note">${escapeHtml(i.note)}</span>` : ''
              }</li>`,
          )
          .join('')}</ul>`;
  const maintenance =
    data.maintenance.length === 0
      ? '<p>No maintenance planned.</p>'
      : `<ul>${data.maintenance
          .map(
            (m) =>
              `<li><strong>${escapeHtml(m.website)}</strong>: ${escapeHtml(m.title)}, ${when(m.startsAt)} – ${when(m.endsAt)}</li>`,
          )
          .join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.title)}: status</title>
<link rel="alternate" type="application/json" href="${escapeHtml(options.jsonPath)}">
<style>${STYLE}${accent}</style>
</head>
<body>
<main>
<header>${branding.logoUrl ? `<img src="${escapeHtml(branding.logoUrl)}" alt="">` : ''}<h1>${escapeHtml(data.title)}</h1></header>
<p class="overall ${data.overall.state}" role="status">${escapeHtml(data.overall.text)}</p>
<section aria-labelledby="websites"><h2 id="websites">Websites</h2>
${websites || '<p>No websites on this page yet.</p>'}
</section>
<section aria-labelledby="incidents"><h2 id="incidents">Incidents</h2>${incidents}</section>
<section aria-labelledby="maintenance"><h2 id="maintenance">Planned maintenance</h2>${maintenance}</section>
<footer>${branding.footerText ? `<p>${escapeHtml(branding.footerText)}</p>` : ''}<p>Updated ${when(data.generatedAt)}. This page refreshes its data at most every 30 seconds.</p></footer>
</main>
</body>
</html>
`;
}

/** What an unknown or private page answers: the same look, no hint whether the slug exists. */
export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Status page not found</title><style>${STYLE}</style></head>
<body><main><h1>Status page not found</h1><p>There is no public status page at this address.</p></main></body></html>
`;
}
