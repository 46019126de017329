import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

interface Post {
  id: number;
  title: string;
  status: string;
  url: string;
  incidentId: string | null;
  resolvedAt: string | null;
  components: Array<{ id: number; name: string | null; impact: string }>;
  updates: Array<{ id: string; status: string; message: string; html: string; editedAt: string | null }>;
}
interface Problem {
  detail: string;
  errors: Array<{ path: string }>;
}

describe('incident posts on status pages', () => {
  let stack: MonitoringStack;
  let upSite: { id: number; name: string };
  let downSite: { id: number; name: string };
  let incidentId: string;
  const slug = `posts-${randomUUID().slice(0, 8)}`;
  let pageId: number;
  let narrowPageId: number;
  let post: Post;

  const api = () => stack.api;
  const token = () => stack.token;
  const call = <T = Post>(method: string, path: string, body?: unknown, as = token()) =>
    api().request<T>(method, path, { token: as, body });

  beforeAll(async () => {
    stack = await startMonitoringStack('status-posts-node', { rollupFlushMs: 300 });
    const create = async (name: string, path: string) =>
      (
        await call<{ id: number; name: string }>('POST', '/api/websites', {
          customerId: stack.customerId,
          name,
          url: `${stack.target.url}${path}`,
          checkInterval: 10,
          timeoutSeconds: 5,
        })
      ).body;
    upSite = await create('Shop', '/ok');
    downSite = await create('Checkout API', '/status/503');
    await until(async () => (await stack.status(downSite.id)).openIncidentId !== null, 30_000);
    incidentId = (await stack.status(downSite.id)).openIncidentId as string;
    const page = await call<{ id: number; maintenanceNoticeDays: number }>('POST', '/api/status-pages', {
      slug,
      title: 'Acme status',
      customerId: stack.customerId,
      public: true,
    });
    expect(page.status).toBe(201);
    expect(page.body.maintenanceNoticeDays).toBe(7);
    pageId = page.body.id;
    const narrow = await call<{ id: number }>('POST', '/api/status-pages', {
      slug: `${slug}-narrow`,
      title: 'Shop only',
      customerId: stack.customerId,
      websiteIds: [upSite.id],
      public: false,
    });
    narrowPageId = narrow.body.id;
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses bad posts with a 400 naming each field: components not on the page, statuses and impacts', async () => {
    const notOnPage = await call<Problem>('POST', `/api/status-pages/${narrowPageId}/incidents`, {
      title: 'Slow',
      components: [
        { id: upSite.id, impact: 'degraded' },
        { id: downSite.id, impact: 'major_outage' },
      ],
      status: 'investigating',
      message: 'Looking',
    });
    expect(notOnPage.status).toBe(400);
    expect(notOnPage.body.errors.map((e) => e.path)).toEqual(['components.1.id']);
    const bad = await call<Problem>('POST', `/api/status-pages/${pageId}/incidents`, {
      title: '',
      components: [{ id: upSite.id, impact: 'down' }],
      status: 'fixed',
      message: '',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path).sort()).toEqual(
      ['components.0.impact', 'message', 'status', 'title'].sort(),
    );
    const draftOfOther = await call<Problem>(
      'GET',
      `/api/status-pages/${narrowPageId}/incident-draft?incident=${incidentId}`,
    );
    expect(draftOfOther.status).toBe(400);
    expect(draftOfOther.body.errors[0]?.path).toBe('incident');
  });

  it('publishes an automatic incident as a post: prefilled by the draft, edited, posted', async () => {
    const draft = await call<{
      title: string;
      status: string;
      message: string;
      components: Array<{ id: number; impact: string }>;
      fromIncidentId: string;
    }>('GET', `/api/status-pages/${pageId}/incident-draft?incident=${incidentId}`);
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      title: 'Checkout API is unavailable',
      status: 'investigating',
      components: [{ id: downSite.id, impact: 'major_outage' }],
      fromIncidentId: incidentId,
    });
    const created = await call('POST', `/api/status-pages/${pageId}/incidents`, {
      ...draft.body,
      title: 'Checkout is failing',
      message: `${draft.body.message}\n\n**We are on it.** <script>alert(1)</script> [x](javascript:alert(1))`,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/status-pages/${pageId}/incidents/${created.body.id}`);
    post = created.body;
    expect(post).toMatchObject({
      title: 'Checkout is failing',
      status: 'investigating',
      incidentId,
      resolvedAt: null,
      url: `/status/${slug}/incidents/${post.id}`,
      components: [{ id: downSite.id, name: 'Checkout API', impact: 'major_outage' }],
    });
    expect(post.updates[0]?.html).toContain('<strong>We are on it.</strong> &lt;script&gt;');
    expect(post.updates[0]?.html).not.toContain('href="javascript:');
  });

  it('moves through identified, monitoring and resolved; a later open status reopens it; edits and the list', async () => {
    const path = `/api/status-pages/${pageId}/incidents/${post.id}`;
    for (const status of ['identified', 'monitoring', 'identified', 'resolved']) {
      const update = await call('POST', `${path}/updates`, { status, message: `Now ${status}` });
      expect(update.status).toBe(201);
      expect(update.body.status).toBe(status);
    }
    const resolved = await call('GET', path);
    expect(resolved.body.resolvedAt).not.toBeNull();
    expect(resolved.body.updates.map((u) => u.status)).toEqual([
      'resolved',
      'identified',
      'monitoring',
      'identified',
      'investigating',
    ]);
    const reopened = await call('POST', `${path}/updates`, {
      status: 'investigating',
      message: 'It is back',
      components: [{ id: downSite.id, impact: 'partial_outage' }],
    });
    expect(reopened.body).toMatchObject({ status: 'investigating', resolvedAt: null });
    expect(reopened.body.components[0]?.impact).toBe('partial_outage');

    const renamed = await call('PATCH', path, { title: 'Checkout errors' });
    expect(renamed.body.title).toBe('Checkout errors');
    const first = reopened.body.updates.at(-1);
    const edited = await call('PATCH', `${path}/updates/${first?.id}`, { message: 'Corrected text' });
    expect(edited.body.updates.at(-1)).toMatchObject({ message: 'Corrected text' });
    expect(edited.body.updates.at(-1)?.editedAt).not.toBeNull();
    expect((await call('PATCH', path, {})).status).toBe(400);

    const second = await call('POST', `/api/status-pages/${pageId}/incidents`, {
      title: 'Slow shop',
      components: [{ id: upSite.id, impact: 'degraded' }],
      status: 'resolved',
      message: 'Was slow for 5 minutes.',
    });
    expect(second.body.resolvedAt).not.toBeNull();
    const pageOne = await call<{ items: Post[]; nextBefore: number | null }>(
      'GET',
      `/api/status-pages/${pageId}/incidents?limit=1`,
    );
    expect(pageOne.body.items.map((p) => p.id)).toEqual([second.body.id]);
    expect(pageOne.body.nextBefore).toBe(second.body.id);
    const pageTwo = await call<{ items: Post[]; nextBefore: number | null }>(
      'GET',
      `/api/status-pages/${pageId}/incidents?limit=1&before=${pageOne.body.nextBefore}`,
    );
    expect(pageTwo.body.items.map((p) => p.id)).toEqual([post.id]);
    expect(pageTwo.body.nextBefore).toBeNull();
  });

  it('every write is in the audit log', async () => {
    const events = await call<{ items: Array<{ action: string; resource: string }> }>(
      'GET',
      '/api/audit-events?resource=status-pages&limit=50',
    );
    expect(events.status).toBe(200);
    const actions = events.body.items.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['createIncidentPost', 'addIncidentPostUpdate', 'updateIncidentPost']),
    );
  });

  it('tenancy and roles: another organization sees nothing; a read token reads and cannot write', async () => {
    const other = await api().createOrganization(['admin']);
    const path = `/api/status-pages/${pageId}/incidents`;
    expect((await call('GET', path, undefined, other.token)).status).toBe(404);
    expect((await call('GET', `${path}/${post.id}`, undefined, other.token)).status).toBe(404);
    const foreignWrite = await call(
      'POST',
      `${path}/${post.id}/updates`,
      { status: 'resolved', message: 'x' },
      other.token,
    );
    expect(foreignWrite.status).toBe(404);
    const reader = await api().createToken(stack.organizationId, ['read']);
    expect((await call('GET', `${path}/${post.id}`, undefined, reader)).status).toBe(200);
    const readerWrite = await call(
      'POST',
      `${path}/${post.id}/updates`,
      { status: 'resolved', message: 'x' },
      reader,
    );
    expect(readerWrite.status).toBe(403);
    expect((await call('DELETE', `${path}/${post.id}`, undefined, reader)).status).toBe(403);
  });

  it('the public page shows the open post at the top and the resolved one under incidents; the JSON twin carries both', async () => {
    const html = await api().request<string>('GET', `/status/${slug}`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-security-policy')).not.toContain('script-src');
    const current = html.body.indexOf('id="current-posts"');
    expect(current).toBeGreaterThan(0);
    expect(html.body.indexOf('Checkout errors')).toBeGreaterThan(current);
    expect(html.body.indexOf('Checkout errors')).toBeLessThan(html.body.indexOf('id="websites"'));
    expect(html.body.indexOf('Slow shop')).toBeGreaterThan(html.body.indexOf('id="incidents"'));
    expect(html.body).toContain(`href="/status/${slug}/incidents/${post.id}"`);
    expect(html.body).toContain(`href="/status/${slug}/history"`);
    expect(html.body).not.toContain('<script>');
    const json = await api().request<{
      overall: { state: string };
      posts: Array<{
        title: string;
        status: string;
        impact: string | null;
        updates: Array<{ html: string }>;
      }>;
    }>('GET', `/status/${slug}.json`);
    expect(json.body.posts.map((p) => [p.title, p.status, p.impact])).toEqual([
      ['Checkout errors', 'investigating', 'partial_outage'],
      ['Slow shop', 'resolved', null],
    ]);
    expect(json.body.overall.state).toMatch(/partial-outage|major-outage/);
  });

  it('the permalink and the month’s history; a month outside the page’s life, another page’s post and a private page: 404', async () => {
    const permalink = await api().request<string>('GET', `/status/${slug}/incidents/${post.id}`);
    expect(permalink.status).toBe(200);
    expect(permalink.body).toContain('<h1 id=');
    expect(permalink.body).toContain('Checkout errors');
    expect(permalink.headers.get('content-security-policy')).toContain("default-src 'none'");
    const month = new Date().toISOString().slice(0, 7);
    const history = await api().request<string>('GET', `/status/${slug}/history?month=${month}`);
    expect(history.status).toBe(200);
    expect(history.body).toContain('Checkout errors');
    expect(history.body).toContain('Slow shop');
    expect(history.body).not.toContain('rel="next"');
    expect((await api().request<string>('GET', `/status/${slug}/history`)).body).toContain('Slow shop');
    expect((await api().request('GET', `/status/${slug}/history?month=2001-01`)).status).toBe(404);
    expect((await api().request('GET', `/status/${slug}/history?month=2026-13`)).status).toBe(400);
    expect((await api().request('GET', `/status/${slug}-narrow/history?month=${month}`)).status).toBe(404);
    expect((await api().request('GET', `/status/${slug}/incidents/999999`)).status).toBe(404);
  });

  it('a deleted post leaves the API and the page at once', async () => {
    const path = `/api/status-pages/${pageId}/incidents/${post.id}`;
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
    expect((await api().request('GET', `/status/${slug}/incidents/${post.id}`)).status).toBe(404);
    expect((await api().request<string>('GET', `/status/${slug}`)).body).not.toContain('Checkout errors');
  });
});
