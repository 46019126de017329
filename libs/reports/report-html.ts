import { DateTime } from 'luxon';
import { MONITOR_KIND_NOUNS, type OtherMonitorKind } from '../events/index.js';
import { escapeHtml } from '../status-pages/index.js';
import type { ClientReport } from './report-view.js';

/** How the agency's reports look: its accent colour, footer and logo (a data: URL), and the paper. */
export interface ReportBranding {
  accentColor: string | null;
  footerText: string | null;
  logoDataUrl: string | null;
  /** The cover line of this customer's reports (`reportIntro`). */
  intro: string | null;
}

export const PAPER_SIZES = ['A4', 'Letter'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

const DEFAULT_ACCENT = '#1570ef';
/** Incidents listed per website on the page (a flapping site can have thousands; the page stays printable). */
const MAX_LISTED_INCIDENTS = 100;

/** "Port check", "Heartbeat" (a name such as gRPC keeps its own case). */
export function monitorKindText(kind: OtherMonitorKind): string {
  const noun = MONITOR_KIND_NOUNS[kind];
  return /^[a-z][a-z]/.test(noun) ? `${noun.charAt(0).toUpperCase()}${noun.slice(1)}` : noun;
}

const percent = (value: number | null) => (value === null ? '–' : `${value.toFixed(3)} %`);
const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** 5400 → "1 h 30 min"; under a minute in seconds. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days ? `${days} d` : '', hours ? `${hours} h` : '', minutes ? `${minutes} min` : '']
    .filter(Boolean)
    .join(' ');
}

function changeText(value: number | null, unit: string, better: 'up' | 'down'): string {
  if (value === null || value === 0) return 'no change';
  const improved = better === 'up' ? value > 0 : value < 0;
  const arrow = value > 0 ? '▲' : '▼';
  return `${arrow} ${value > 0 ? '+' : ''}${value}${unit} (${improved ? 'better' : 'worse'})`;
}

/** Uptime per website as a vector bar chart: the bars start at the lowest value shown (at most 99 %). */
function uptimeChart(report: ClientReport, accent: string): string {
  const rows = report.websites.filter((w) => w.figures.uptimePercent !== null);
  if (rows.length === 0) return '';
  const floor = Math.min(99, ...rows.map((w) => Math.floor((w.figures.uptimePercent as number) * 10) / 10));
  const rowHeight = 22;
  const width = 640;
  const label = 220;
  const height = rows.length * rowHeight + 24;
  const x = (value: number) => label + ((value - floor) / (100 - floor)) * (width - label - 80);
  const bars = rows
    .map((w, i) => {
      const value = w.figures.uptimePercent as number;
      const y = i * rowHeight + 4;
      return `<text x="${label - 8}" y="${y + 14}" text-anchor="end">${escapeHtml(w.name.slice(0, 32))}</text><rect x="${label}" y="${y}" width="${Math.max(1, x(value) - label).toFixed(1)}" height="16" fill="${accent}"/><text x="${(x(value) + 6).toFixed(1)}" y="${y + 14}">${percent(value)}</text>`;
    })
    .join('');
  return `<figure><svg role="img" aria-label="Uptime per website, from ${floor} % to 100 %" viewBox="0 0 ${width} ${height}" width="100%" font-size="12" font-family="inherit">${bars}<text x="${label}" y="${height - 4}" fill="#555">${floor} %</text><text x="${width - 80}" y="${height - 4}" fill="#555" text-anchor="end">100 %</text></svg><figcaption>Uptime per website, the axis from ${floor} % to 100 %</figcaption></figure>`;
}

/**
 * The report as one self-contained HTML page (inline styles, vector charts, the logo inline): what
 * the app shows, what is e-mailed and what the PDF is printed from. Every text is escaped.
 */
export function reportHtml(report: ClientReport, branding: ReportBranding, paper: PaperSize = 'A4'): string {
  const accent = branding.accentColor ?? DEFAULT_ACCENT;
  const { period, totals } = report;
  const zone = period.timezone;
  const day = (date: string) => DateTime.fromISO(date, { zone }).toFormat('d LLLL yyyy');
  const at = (iso: string | null) =>
    iso ? DateTime.fromISO(iso, { zone }).toFormat('d LLL yyyy, HH:mm') : '–';
  const dateOnly = (iso: string | null) =>
    iso ? DateTime.fromISO(iso, { zone }).toFormat('d LLL yyyy') : '–';
  const card = (title: string, value: string, note: string) =>
    `<div class="card"><div class="label">${title}</div><div class="value">${value}</div><div class="note">${note}</div></div>`;
  // Each website's other monitors under it: their own uptime, no checks or response times of theirs.
  const websiteRows = report.websites
    .map(
      (w) =>
        `<tr><th scope="row">${escapeHtml(w.name)}<div class="url">${escapeHtml(w.url)}</div></th><td>${percent(w.figures.uptimePercent)}</td><td>${percent(w.figures.slaUptimePercent)}</td><td>${w.figures.incidents}</td><td>${duration(w.figures.downtimeSeconds)}</td><td>${duration(w.figures.longestIncidentSeconds)}</td><td>${duration(w.figures.mttrSeconds)}</td><td>${w.figures.checks.toLocaleString('en')}</td><td>${ms(w.figures.responseTimeMs.p50)}</td><td>${ms(w.figures.responseTimeMs.p95)}</td></tr>${w.monitors
          .map(
            (m) =>
              `<tr class="monitor"><th scope="row"><span class="kind">${monitorKindText(m.kind)}</span> ${escapeHtml(m.name)}${m.target ? `<div class="url">${escapeHtml(m.target)}</div>` : ''}</th><td>${percent(m.figures.uptimePercent)}</td><td>${percent(m.figures.slaUptimePercent)}</td><td>${m.figures.incidents}</td><td>${duration(m.figures.downtimeSeconds)}</td><td>${duration(m.figures.longestIncidentSeconds)}</td><td>${duration(m.figures.mttrSeconds)}</td><td>–</td><td>–</td><td>–</td></tr>`,
          )
          .join('')}`,
    )
    .join('');
  const expiryRows = report.websites
    .map(
      (w) =>
        `<tr><th scope="row">${escapeHtml(w.name)}</th><td>${dateOnly(w.certificateExpiresAt)}</td><td>${dateOnly(w.domainExpiresAt)}</td></tr>`,
    )
    .join('');
  const details = report.websites
    .map((w) => {
      const parts = [
        ...w.months.map((m) => ({ label: m.month, f: m.figures })),
        ...w.weeks.map((k) => ({ label: k.week, f: k.figures })),
      ]
        .map(
          (p) =>
            `<tr><th scope="row">${p.label}</th><td>${percent(p.f.uptimePercent)}</td><td>${percent(p.f.slaUptimePercent)}</td><td>${p.f.incidents}</td><td>${ms(p.f.responseTimeMs.p50)}</td><td>${ms(p.f.responseTimeMs.p95)}</td><td>${p.f.checks.toLocaleString('en')}</td></tr>`,
        )
        .join('');
      const listed = w.incidents.slice(-MAX_LISTED_INCIDENTS);
      const omitted = w.incidents.length - listed.length;
      const incidents = w.incidents.length
        ? `${omitted > 0 ? `<p class="note">The ${MAX_LISTED_INCIDENTS} latest of ${w.incidents.length} incidents (all are in the JSON and CSV reports’ counts).</p>` : ''}<table><caption>Incidents</caption><thead><tr><th scope="col">Started</th><th scope="col">Resolved</th><th scope="col">Lasted</th><th scope="col">Monitor</th><th scope="col">Cause</th><th scope="col">Regions</th><th scope="col">What happened</th></tr></thead><tbody>${listed
            .map(
              (i) =>
                `<tr><td>${at(i.startedAt)}</td><td>${i.resolvedAt ? at(i.resolvedAt) : 'ongoing'}</td><td>${duration(i.durationSeconds)}</td><td>${i.monitor ? `${monitorKindText(i.monitor.kind)}: ${escapeHtml(i.monitor.name)}` : 'HTTP check'}</td><td>${escapeHtml(i.cause)}</td><td>${escapeHtml(i.regions.join(', '))}</td><td>${escapeHtml(i.publicNote ?? '')}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : '<p class="note">No incidents.</p>';
      const maintenance = w.maintenance.length
        ? `<p>Maintenance held: ${w.maintenance.map((m) => `${escapeHtml(m.title)} (${at(m.startsAt)} – ${at(m.endsAt)})`).join('; ')}</p>`
        : '';
      return `<section class="website"><h3>${escapeHtml(w.name)}</h3><table><caption>By month and week</caption><thead><tr><th scope="col">Period</th><th scope="col">Uptime</th><th scope="col">SLA uptime</th><th scope="col">Incidents</th><th scope="col">p50</th><th scope="col">p95</th><th scope="col">Checks</th></tr></thead><tbody>${parts}</tbody></table>${incidents}${maintenance}</section>`;
    })
    .join('');
  const formulas = Object.values(report.formulas)
    .map((text) => `<li>${escapeHtml(text)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(report.customer.name)}: monitoring report ${period.from} – ${period.to}</title>
<style>
@page { size: ${paper}; margin: 16mm 14mm; }
:root { --accent: ${accent}; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d2433; margin: 0 auto; max-width: 960px; padding: 24px; line-height: 1.45; }
header { border-bottom: 4px solid var(--accent); padding-bottom: 12px; margin-bottom: 16px; display: flex; gap: 16px; align-items: center; }
header img { max-height: 56px; max-width: 200px; }
h1 { font-size: 1.6rem; margin: 0; } h2 { font-size: 1.2rem; margin-top: 28px; color: var(--accent); } h3 { font-size: 1.05rem; margin-bottom: 4px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 10px; }
.card { border: 1px solid #d0d5dd; border-radius: 8px; padding: 10px; break-inside: avoid; }
.label { font-size: .8rem; color: #555; } .value { font-size: 1.35rem; font-weight: 700; } .note, .url { font-size: .8rem; color: #555; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; margin: 8px 0; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border-bottom: 1px solid #e4e7ec; padding: 4px 6px; text-align: left; vertical-align: top; }
thead th { background: #f2f4f7; }
.url { overflow-wrap: anywhere; font-weight: 400; }
tr.monitor th { padding-left: 18px; font-weight: 400; } .kind { font-weight: 600; }
.website { break-inside: avoid-page; }
figcaption { font-size: .8rem; color: #555; }
h2, h3, caption { break-after: avoid; }
.nums td { white-space: nowrap; }
@media print { body { padding: 0; max-width: none; } }
footer { margin-top: 32px; border-top: 1px solid #d0d5dd; padding-top: 8px; font-size: .8rem; color: #555; }
@media (prefers-color-scheme: dark) { @media screen { body { background: #101828; color: #f2f4f7; } thead th { background: #1d2939; } .label, .note, .url, footer { color: #c0c6d0; } .card { border-color: #475467; } } }
</style></head>
<body>
<header>${branding.logoDataUrl ? `<img src="${escapeHtml(branding.logoDataUrl)}" alt="${escapeHtml(report.organization.name)}">` : ''}<div><div class="note">${escapeHtml(report.organization.name)}</div><h1>Monitoring report: ${escapeHtml(report.customer.name)}</h1><div>${day(period.from)} – ${day(period.to)} (${escapeHtml(zone)})</div></div></header>
${branding.intro ? `<p class="intro">${escapeHtml(branding.intro)}</p>` : ''}
<h2>Summary</h2>
<div class="cards">
${card('Uptime', percent(totals.uptimePercent), changeText(totals.change.uptimePercent, ' pt', 'up'))}
${card('SLA uptime', percent(totals.slaUptimePercent), `maintenance left out; ${changeText(totals.change.slaUptimePercent, ' pt', 'up')}`)}
${card('Incidents', String(totals.incidents), changeText(totals.change.incidents, '', 'down'))}
${card('Down time', duration(totals.downtimeSeconds), `longest ${duration(totals.longestIncidentSeconds)}`)}
${card('Mean time to recovery', duration(totals.mttrSeconds), `${totals.checks.toLocaleString('en')} checks`)}
${card('Response time', ms(totals.responseTimeMs.p95), `p95; p50 ${ms(totals.responseTimeMs.p50)}`)}
</div>
<p class="note">Compared with ${day(report.previousPeriod.from)} – ${day(report.previousPeriod.to)}: uptime then ${percent(totals.previous.uptimePercent)}, SLA uptime ${percent(totals.previous.slaUptimePercent)}, ${totals.previous.incidents} incident${totals.previous.incidents === 1 ? '' : 's'}.</p>
${uptimeChart(report, accent)}
<h2>Websites</h2>
<table class="nums"><thead><tr><th scope="col">Website</th><th scope="col">Uptime</th><th scope="col">SLA uptime</th><th scope="col">Incidents</th><th scope="col">Down time</th><th scope="col">Longest</th><th scope="col">MTTR</th><th scope="col">Checks</th><th scope="col">p50</th><th scope="col">p95</th></tr></thead><tbody>${websiteRows}</tbody></table>
<table><caption>Certificates and domains</caption><thead><tr><th scope="col">Website</th><th scope="col">Certificate expires</th><th scope="col">Domain expires</th></tr></thead><tbody>${expiryRows}</tbody></table>
<h2>Each website</h2>
${details}
<h2>How the figures are computed</h2>
<ul>${formulas}</ul>
<footer>${branding.footerText ? `${escapeHtml(branding.footerText)} · ` : ''}Generated ${at(report.generatedAt)} (${escapeHtml(zone)})</footer>
</body></html>`;
}
