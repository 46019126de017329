import { describe, expect, it } from 'vitest';
import { summarize } from '../connectors/index.js';
import { EVENT_KINDS } from '../events/index.js';
import { previewTemplate } from './preview.js';
import { SAMPLE_WEBSITE, sampleEvent } from './samples.js';
import { templateScope } from './scope.js';
import { TEMPLATE_VARIABLES } from './variables.js';

const options = {
  organizationId: 3,
  incidentLink: (id: string) => `https://webmon.example/incidents/${id}`,
  at: new Date('2024-03-01T10:05:00.000Z'),
};
const shop = { id: 42, publicId: 'wbs_shop', name: 'Shop', url: 'https://shop.example.org/', customerId: 9 };

/** Every documented variable once, as a template would read it. */
const everything = TEMPLATE_VARIABLES.filter(({ path }) => !path.includes('[]'))
  .map(({ path }) => `${path}={{ ${path} }}`)
  .join('\n');

describe('template variables, samples and preview', () => {
  it('every event kind has a sample that renders every documented variable, none unknown', () => {
    for (const type of EVENT_KINDS) {
      const preview = previewTemplate(everything, type, options);
      expect(preview.problem, type).toBeNull();
      expect(preview.unknownVariables, type).toEqual([]);
      expect(preview.text, type).toContain(`event.type=${type}`);
    }
  });

  it('a sample is about the organization’s website when it has one, linked as real events are', () => {
    const preview = previewTemplate(
      '{{ summary.title }} ({{ website.url }}, customer {{ customer.id }}): {{ summary.reason }} — {{ summary.excerpt }} {{ incident.link }}',
      'website.down',
      { ...options, website: shop },
    );
    expect(preview.text).toMatch(
      /^Shop is down \(https:\/\/shop\.example\.org\/, customer 9\): HTTP 503, expected 200–399 — HTTP 503 Service Unavailable — <html>.* https:\/\/webmon\.example\/incidents\/[0-9a-f-]{36}$/,
    );
    expect(previewTemplate('{{ website.name }}', 'website.up', options).text).toBe(SAMPLE_WEBSITE.name);
    // The test event is about no website.
    expect(previewTemplate('[{{ website.name }}]{{ summary.title }}', 'test', options).text).toBe(
      '[]Test notification from webmon: this channel works',
    );
  });

  it('each kind’s sample carries what its producer writes', () => {
    const render = (template: string, type: (typeof EVENT_KINDS)[number]) =>
      previewTemplate(template, type, options).text;
    expect(render('{{ ssl.daysLeft }} days, {{ ssl.issuer }}', 'ssl.expiring')).toBe(
      "9 days, Let's Encrypt R11",
    );
    expect(
      render('{{ maintenance.title }} until {{ maintenance.endsAt | date: "%H:%M" }}', 'maintenance.started'),
    ).toBe('Database upgrade until 11:05');
    expect(render('{{ dns.previous | join: "," }} → {{ dns.current[0] }}', 'dns.changed')).toBe(
      '203.0.113.10 → 198.51.100.7',
    );
    expect(render('{{ acknowledgement.by }}: {{ acknowledgement.note }}', 'incident.acknowledged')).toBe(
      'Dana Ops: Looking into it: the database restarts',
    );
    expect(
      render('{{ monitor.kind }} {{ monitor.name }} {{ status }}←{{ previousStatus }}', 'heartbeat.down'),
    ).toBe('heartbeat Nightly backup down←up');
    expect(render('{{ siteHealth.brokenLinkCount }} {{ summary.severity }}', 'site.links_broken')).toBe(
      '1 warning',
    );
    expect(render('{{ summary.recovery }} {{ result.checks.first.outcome }}', 'website.up')).toBe(
      'true pass',
    );
  });

  it('the group is rendered when the payload carries one, and is nil otherwise', () => {
    const template =
      '{% if group %}{{ group.size }} down:{% for site in group %} {{ site.name }} ({{ site.reason }}){% endfor %}{% else %}one{% endif %}';
    expect(previewTemplate(template, 'website.down', options).text).toBe('one');
    expect(previewTemplate(template, 'website.down', { ...options, grouped: true }).text).toBe(
      '3 down: Acme shop (HTTP 503, expected 200–399) Acme blog (TIMEOUT: no answer within 30 s) Acme API (HTTP 502, expected 200–399)',
    );
    // Whatever else a payload's group holds is not shown; a malformed group is none.
    const event = sampleEvent('website.down', options);
    const odd = {
      ...event,
      data: {
        ...event.data,
        group: [{ name: 'A', url: 'https://a/', status: 7, secret: 'x' }],
      } as unknown as typeof event.data,
    };
    expect(templateScope(odd).group).toEqual([{ name: 'A', url: 'https://a/', status: null, reason: null }]);
    expect(
      templateScope({ ...event, data: { ...event.data, group: 'all' } as unknown as typeof event.data })
        .group,
    ).toBeNull();
  });

  it('the scope holds what summarize() says of the event', () => {
    const event = sampleEvent('browser.down', { ...options, website: shop });
    const summary = summarize(event);
    expect(templateScope(event)).toMatchObject({
      event: { type: 'browser.down', id: event.id, createdAt: '2024-03-01T10:05:00.000Z' },
      website: { id: 42, publicId: 'wbs_shop', name: 'Shop', url: 'https://shop.example.org/' },
      customer: { id: 9 },
      incident: { id: event.data.incident, link: summary.link },
      summary: { title: summary.title, reason: summary.reason, severity: 'critical', recovery: false },
    });
  });

  it('a render error is a problem with no text, unknown variables listed', () => {
    expect(
      previewTemplate('{{ websit.name }}{% for i in (1..10000000) %}{{ i }}{% endfor %}', 'test', options),
    ).toEqual({
      text: null,
      problem: expect.objectContaining({
        message: expect.stringMatching(/^line 1, column \d+: .*limit exceeded/),
      }),
      unknownVariables: ['websit.name'],
    });
    expect(previewTemplate('{% if %}', 'test', options)).toMatchObject({ text: null, unknownVariables: [] });
  });
});
