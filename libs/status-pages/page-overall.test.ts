import { describe, expect, it } from 'vitest';
import { overallBadge, pageBadgeSvg, renderWidget } from './page-overall.js';

describe('the whole page’s badge and widget', () => {
  it('says the overall state in a word or two, an outage in red', () => {
    expect(overallBadge('operational')).toEqual({ value: 'operational', color: 'green' });
    expect(overallBadge('degraded')).toEqual({ value: 'degraded', color: 'yellow' });
    expect(overallBadge('partial-outage')).toEqual({ value: 'partial outage', color: 'red' });
    expect(overallBadge('major-outage')).toEqual({ value: 'major outage', color: 'red' });
    expect(overallBadge('unknown')).toEqual({ value: 'no data', color: 'grey' });
    expect(pageBadgeSvg({ state: 'major-outage', text: 'Major outage' })).toContain(
      'aria-label="status: major outage"',
    );
  });

  it('renders the widget as one link without script, its title escaped', () => {
    const html = renderWidget({
      title: 'Shop <b>"status"</b>',
      overall: { state: 'operational', text: 'All systems operational' },
      pageHref: '/status/shop',
    });
    expect(html).toContain('href="/status/shop" target="_blank" rel="noopener"');
    expect(html).toContain('Shop &lt;b>&quot;status&quot;&lt;/b>');
    expect(html).toContain('All systems operational');
    expect(html).not.toContain('<script');
  });
});
