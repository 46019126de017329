import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

type TemplateProblem = { message: string; line: number | null; column: number | null };
type Channel = {
  id: number;
  template: string | null;
  templateProblem: (TemplateProblem & { at: string; eventType: string }) | null;
};
type Problem = { status: number; detail: string; errors?: Array<{ path: string; message: string }> };
type Preview = { text: string | null; problem?: TemplateProblem; unknownVariables: string[] };

const SLACK = { webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX' };

describe('channel message templates: written, checked and previewed through the API', () => {
  let api: TestApi;
  let token: string;

  const create = (body: Record<string, unknown>, as = token) =>
    api.request<Channel & Problem>('POST', '/api/notification-channels', {
      token: as,
      body: { type: 'slack', name: 'Ops', config: SLACK, ...body },
    });
  const patch = (id: number, body: Record<string, unknown>) =>
    api.request<Channel & Problem>('PATCH', `/api/notification-channels/${id}`, { token, body });
  const preview = (body: Record<string, unknown>, as = token) =>
    api.request<Preview & Problem>('POST', '/api/notification-channels/template-preview', {
      token: as,
      body: { type: 'slack', ...body },
    });

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
  });
  afterAll(() => api.stop());

  it('a channel keeps its template, returns it, and clears it with null', async () => {
    const template = '{{ summary.title }}\n{% if incident %}<{{ incident.link }}>{% endif %}';
    const created = await create({ template });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ template, templateProblem: null });
    const read = await api.request<Channel>('GET', `/api/notification-channels/${created.body.id}`, {
      token,
    });
    expect(read.body).toMatchObject({ template, templateProblem: null });

    const changed = await patch(created.body.id, { template: '{{ website.name }} is {{ status }}' });
    expect(changed.status).toBe(200);
    expect(changed.body.template).toBe('{{ website.name }} is {{ status }}');
    // Other fields change without touching it.
    expect((await patch(created.body.id, { name: 'Renamed' })).body.template).toBe(
      '{{ website.name }} is {{ status }}',
    );
    expect((await patch(created.body.id, { template: null })).body.template).toBeNull();
    // Empty is none too; a channel made without one has none.
    expect((await create({ template: '' })).body.template).toBeNull();
    expect((await create({})).body).toMatchObject({ template: null, templateProblem: null });
  });

  it('a syntax error is a 400 naming template, with its line and column', async () => {
    const refused = await create({ template: 'Alert\n{% if status == "down" %}down!' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body.errors).toEqual([
      { path: 'template', message: 'line 2, column 1: tag {% if status == "down" %} not closed' },
    ]);

    const channel = (await create({ template: 'fine' })).body;
    const unclosed = await patch(channel.id, { template: 'a {{ website.name' });
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.errors).toEqual([
      { path: 'template', message: expect.stringMatching(/^line 1, column 3: output .* not closed/) },
    ]);
    const filter = await patch(channel.id, { template: '{{ website.name | shout }}' });
    expect(filter.body.errors).toEqual([
      { path: 'template', message: 'line 1, column 1: undefined filter: shout' },
    ]);
    // The refused writes changed nothing.
    expect(
      (await api.request<Channel>('GET', `/api/notification-channels/${channel.id}`, { token })).body
        .template,
    ).toBe('fine');
  });

  it('refuses what would read files, and templates over 10,000 characters', async () => {
    for (const tag of ['include', 'render', 'layout']) {
      const refused = await create({ template: `{% ${tag} "../../etc/passwd" %}` });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        {
          path: 'template',
          message: `line 1, column 1: the ${tag} tag is not available: a template cannot read other templates or files`,
        },
      ]);
    }
    const long = await create({ template: 'x'.repeat(10_001) });
    expect(long.status).toBe(400);
    expect(long.body.errors?.map((e) => e.path)).toEqual(['template']);
    expect((await create({ template: 'x'.repeat(10_000) })).status).toBe(201);
  });

  it('previews a template for a sample event of the kind asked, with unknown variables as warnings', async () => {
    const down = await preview({
      template:
        '{{ summary.severity | upcase }}: {{ summary.title }} — {{ summary.reason }} {{ website.nmae }}',
    });
    expect(down.status).toBe(200);
    // An organization with no website yet: the sample one.
    expect(down.body).toEqual({
      text: 'CRITICAL: Acme shop is down — HTTP 503, expected 200–399 ',
      unknownVariables: ['website.nmae'],
    });
    const ssl = await preview({
      template: '{{ website.name }}: {{ ssl.daysLeft }} days',
      eventType: 'ssl.expiring',
    });
    expect(ssl.body.text).toBe('Acme shop: 9 days');
    const grouped = await preview({
      template: '{% for site in group %}{{ site.name }};{% endfor %}',
      grouped: true,
    });
    expect(grouped.body.text).toBe('Acme shop;Acme blog;Acme API;');
  });

  it('a preview of a broken template says where, with no text', async () => {
    const broken = await preview({ template: 'ok\n  {% for x in group %}' });
    expect(broken.status).toBe(200);
    expect(broken.body).toEqual({
      text: null,
      problem: { message: 'line 2, column 3: tag {% for x in group %} not closed', line: 2, column: 3 },
      unknownVariables: [],
    });
    const heavy = await preview({ template: '{% for i in (1..10000000) %}{{ i }}{% endfor %}' });
    expect(heavy.body).toMatchObject({
      text: null,
      problem: { message: expect.stringMatching(/limit exceeded/) },
    });
    const badKind = await preview({ template: 'x', eventType: 'website.exploded' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.errors?.map((e) => e.path)).toEqual(['eventType']);
  });

  it('previews are for those who may change channels', async () => {
    const readOnly = await api.createToken((await api.createOrganization(['admin'])).organizationId, [
      'read',
    ]);
    expect((await preview({ template: 'x' }, readOnly)).status).toBe(403);
    expect(
      (await api.request('POST', '/api/notification-channels/template-preview', { body: {} })).status,
    ).toBe(401);
  });
});
