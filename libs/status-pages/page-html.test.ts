import { describe, expect, it } from 'vitest';
import { badgeSvg } from './badge.js';
import { renderNotFoundPage, renderStatusPage } from './page-html.js';
import type { StatusPageData } from './page-model.js';

const HOSTILE = '<script>alert(1)</script> & "quoted" \'single\'';

function page(overrides: Partial<StatusPageData> = {}): StatusPageData {
  return {
    title: HOSTILE,
    language: 'en',
    timezone: 'UTC',
    sections: [],
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
    posts: [],
    ...overrides,
  };
}

const post = (resolvedAt: string | null): StatusPageData['posts'][number] => ({
  id: resolvedAt ? 8 : 7,
  title: HOSTILE,
  status: resolvedAt ? 'resolved' : 'identified',
  statusText: resolvedAt ? 'Resolved' : 'Identified',
  impact: resolvedAt ? null : 'major_outage',
  components: [{ name: HOSTILE, impact: 'major_outage', impactText: 'Major outage' }],
  startedAt: '2026-11-29T08:00:00.000Z',
  updatedAt: '2026-11-29T09:30:00.000Z',
  resolvedAt,
  url: `/status/shop/incidents/${resolvedAt ? 8 : 7}`,
  updates: [
    {
      id: 'u2',
      status: 'identified',
      statusText: 'Identified',
      at: '2026-11-29T09:30:00.000Z',
      editedAt: null,
      message: '**Found**',
      html: '<p><strong>Found</strong></p>',
    },
    {
      id: 'u1',
      status: 'investigating',
      statusText: 'Investigating',
      at: '2026-11-29T08:00:00.000Z',
      editedAt: null,
      message: 'Looking',
      html: '<p>Looking</p>',
    },
  ],
});

describe('public pages rendered from components: every text a tenant wrote is text', () => {
  it('a status page: names, notes, titles and the footer escaped wherever they show, the document whole', () => {
    const html = renderStatusPage(page(), { slug: 'shop' });
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).not.toContain('<script>');
    // Title, the two feeds' titles, heading, website, monitor, incident, its note, the maintenance's
    // website and title, footer.
    expect(html.split('&lt;script>alert(1)&lt;/script> &amp; &quot;quoted&quot;').length - 1).toBe(11);
    expect(html).toContain('src="https://cdn.example/logo.png?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain(':root{--accent:#0b7a75}');
    expect(html).toContain('<time datetime="2026-11-29T09:00:00.000Z">29 Nov 2026, 09:00 UTC</time>');
    expect(html).toContain('<span class="state down">✕ Down</span>');
    expect(html).toContain('<svg class="chart"');
  });

  it('posts: the open one at the top, the resolved one under incidents, updates newest first, links absolute', () => {
    const html = renderStatusPage(page({ posts: [post(null), post('2026-11-29T10:00:00.000Z')] }), {
      slug: 'shop',
    });
    const current = html.indexOf('id="current-posts"');
    expect(current).toBeGreaterThan(0);
    expect(current).toBeLessThan(html.indexOf('id="websites"'));
    expect(html.indexOf('href="/status/shop/incidents/8"')).toBeGreaterThan(html.indexOf('id="incidents"'));
    expect(html).toContain('href="/status/shop/incidents/7"');
    expect(html).toContain('href="/status/shop/history"');
    expect(html).toContain('href="/status/shop.json"');
    expect(html.indexOf('<strong>Found</strong>')).toBeLessThan(html.indexOf('<p>Looking</p>'));
    expect(html).not.toContain('<script>');
    expect(html).toContain('<article class="post major_outage"');
  });

  it('an accent colour that is not one never reaches the stylesheet', () => {
    const html = renderStatusPage(
      page({
        branding: { logoUrl: null, accentColor: 'red}</style><script>x()</script>', footerText: null },
      }),
      { slug: 'shop' },
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
