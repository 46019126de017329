import { describe, expect, it } from 'vitest';
import { badgeSvg } from './badge.js';
import { renderNotFoundPage, renderStatusPage } from './page-html.js';
import type { StatusPageData } from './page-model.js';

const HOSTILE = '<script>alert(1)</script> & "quoted" \'single\'';

function page(overrides: Partial<StatusPageData> = {}): StatusPageData {
  return {
    title: HOSTILE,
    branding: {
      logoUrl: 'https://cdn.example/logo.png?a=1&b="2"',
      accentColor: '#0b7a75',
      footerText: HOSTILE,
    },
    generatedAt: '2026-11-29T10:00:00.000Z',
    overall: { state: 'operational', text: 'All systems operational' },
    websites: [
      {
        name: HOSTILE,
        status: 'up',
        statusText: 'Operational',
        lastCheckedAt: '2026-11-29T09:59:00.000Z',
        uptime90dPercent: 99.95,
        days: [{ date: '2026-11-29', uptimePercent: 100, downtimeSeconds: 0 }],
        responseTimes: [
          { hour: '2026-11-29T08:00:00.000Z', averageMs: 120 },
          { hour: '2026-11-29T09:00:00.000Z', averageMs: 80 },
        ],
        monitors: [
          {
            kind: 'Scheduled job',
            name: HOSTILE,
            status: 'down',
            statusText: 'Down',
            uptime90dPercent: null,
            days: [],
          },
        ],
      },
    ],
    incidents: [
      {
        website: HOSTILE,
        startedAt: '2026-11-29T09:00:00.000Z',
        resolvedAt: null,
        durationSeconds: 3600,
        open: true,
        note: HOSTILE,
      },
    ],
    maintenance: [
      {
        website: HOSTILE,
        title: HOSTILE,
        startsAt: '2026-11-30T01:00:00.000Z',
        endsAt: '2026-11-30T02:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

describe('public pages rendered from components: every text a tenant wrote is text', () => {
  it('a status page: names, notes, titles and the footer escaped wherever they show, the document whole', () => {
    const html = renderStatusPage(page(), { jsonPath: '/status/shop.json' });
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).not.toContain('<script>');
    // Title, heading, website, monitor, incident, its note, the maintenance's website and title, footer.
    expect(html.split('&lt;script>alert(1)&lt;/script> &amp; &quot;quoted&quot;').length - 1).toBe(9);
    expect(html).toContain('src="https://cdn.example/logo.png?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain(':root{--accent:#0b7a75}');
    expect(html).toContain('<time datetime="2026-11-29T09:00:00.000Z">2026-11-29 09:00 UTC</time>');
    expect(html).toContain('<span class="state down">✕ Down</span>');
    expect(html).toContain('<svg class="chart"');
  });

  it('an accent colour that is not one never reaches the stylesheet', () => {
    const html = renderStatusPage(
      page({
        branding: { logoUrl: null, accentColor: 'red}</style><script>x()</script>', footerText: null },
      }),
      { jsonPath: '/status/shop.json' },
    );
    expect(html).not.toContain('x()');
    expect(html).not.toContain(':root{--accent:red');
  });

  it('the page for an unknown slug says nothing more, and a badge’s words are escaped in its label and text', () => {
    expect(renderNotFoundPage()).toContain('<h1>Status page not found</h1>');
    const svg = badgeSvg('jobs & checks', '<b>1</b> down', 'red');
    expect(svg).toContain('aria-label="jobs &amp; checks: &lt;b>1&lt;/b> down"');
    expect(svg).toContain('<text x="48" y="14">jobs &amp; checks</text>');
    expect(svg).not.toContain('<b>');
  });
});
