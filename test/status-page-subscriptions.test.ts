import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { publishedPageOf } from './support/status-page-fixture.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'subscriptions' };

/** The confirmation link a mail holds (quoted-printable soft breaks undone). */
function linkIn(raw: string, action: 'confirm' | 'unsubscribe'): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = new RegExp(
    `https?://[^\\s"<>]+/subscriptions/[^/\\s]+/${action}\\?token=[A-Za-z0-9_-]+`,
  ).exec(text);
  if (!match) throw new Error(`no ${action} link in:\n${text}`);
  return match[0];
}

/**
 * Visitors subscribe to a page by e-mail: double opt-in through a real SMTP receiver, the same
 * answer whoever asks, links that act only on POST (mail scanners open links), one-click
 * unsubscribe (RFC 8058), and the page's staff list, export and remove subscribers.
 */
describe('status page subscriptions', () => {
  let api: TestApi;
  let mail: MailReceiver;
  let token: string;
  let pageId: number;
  let websiteIds: number[];
  const slug = `subs-${Date.now().toString(36)}`;

  beforeAll(async () => {
    mail = await startMailReceiver(SMTP_ACCOUNT);
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${mail.port}?ignoreTLS=true`,
      PUBLIC_URL: 'http://status-agency.test:8080',
    });
    ({ token, websiteIds, pageId } = await publishedPageOf(api, {
      slug,
      title: 'Acme status',
      websites: ['Shop', 'Blog'],
    }));
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await mail?.close();
  });

  const mailsTo = (address: string) => mail.mails.filter((m) => m.to.includes(address));
  const local = (link: string) => link.replace('http://status-agency.test:8080', '');

  it('mails a confirmation link, and confirms only by its button (a POST)', async () => {
    const answer = await api.request('POST', `/status/${slug}/subscriptions`, {
      body: { email: 'Ann@Example.com', components: [websiteIds[1]] },
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ message: expect.stringContaining('confirm') });
    await expect.poll(() => mailsTo('ann@example.com').length, { timeout: 10_000 }).toBe(1);
    const raw = mailsTo('ann@example.com')[0]?.raw ?? '';
    expect(raw).toMatch(/Subject: Confirm your subscription to Acme status/);
    const link = linkIn(raw, 'confirm');
    expect(link.startsWith(`http://status-agency.test:8080/status/${slug}/subscriptions/`)).toBe(true);

    // Opening the link (as a mail scanner does) confirms nothing.
    const opened = await api.request<string>('GET', local(link));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    expect(opened.body).toContain('<form method="post"');
    const pending = await api.request<{
      subscribers: Array<{ state: string; email: string; components: number[] | null }>;
    }>('GET', `/api/status-pages/${pageId}/subscribers`, { token });
    expect(pending.body.subscribers).toEqual([
      expect.objectContaining({ email: 'ann@example.com', state: 'pending', components: [websiteIds[1]] }),
    ]);

    const confirmed = await api.request<string>('POST', local(link), { rawBody: '' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toContain('You are subscribed');
    // A link confirms once.
    expect((await api.request<string>('POST', local(link), { rawBody: '' })).body).toContain('does not hold');
    const listed = await api.request<{
      subscribers: Array<{ state: string }>;
      counts: Record<string, number>;
    }>('GET', `/api/status-pages/${pageId}/subscribers`, { token });
    expect(listed.body.subscribers.map((s) => s.state)).toEqual(['confirmed']);
    expect(listed.body.counts).toEqual({ pending: 0, confirmed: 1 });
  });

  it('answers the same for a subscribed address, and bounds the mails one address gets', async () => {
    const before = mailsTo('bob@example.com').length;
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        await api.request('POST', `/status/${slug}/subscriptions`, { body: { email: 'bob@example.com' } }),
      );
    const again = await api.request('POST', `/status/${slug}/subscriptions`, {
      body: { email: 'ann@example.com' },
    });
    for (const answer of [...answers, again]) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual(answers[0]?.body);
    }
    await expect.poll(() => mailsTo('bob@example.com').length - before, { timeout: 10_000 }).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo('bob@example.com').length - before).toBe(3);
  });

  it('refuses a website not on the page and a bad address, naming the field', async () => {
    const stranger = await api.request<{ errors: Array<{ path: string }> }>(
      'POST',
      `/status/${slug}/subscriptions`,
      {
        body: { email: 'cy@example.com', components: [websiteIds[0], 999_999] },
      },
    );
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors.map((e) => e.path)).toEqual(['components.1']);
    const bad = await api.request<{ errors: Array<{ path: string }> }>(
      'POST',
      `/status/${slug}/subscriptions`,
      {
        body: { email: 'not an address' },
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path)).toEqual(['email']);
    const both = await api.request<{ errors: Array<{ path: string }> }>(
      'POST',
      `/status/${slug}/subscriptions`,
      {
        body: { email: 'cy@example.com', webhookUrl: 'https://hooks.example.com/x' },
      },
    );
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e) => e.path)).toEqual(['webhookUrl']);
    // A webhook is challenged through the SSRF guard: a private address is not posted to.
    const inside = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'POST',
      `/status/${slug}/subscriptions`,
      { body: { webhookUrl: 'http://127.0.0.1:9/hook' } },
    );
    expect(inside.status).toBe(400);
    expect(inside.body.errors).toEqual([
      { path: 'webhookUrl', message: expect.stringContaining('may not reach') },
    ]);
    const none = await api.request('POST', '/status/no-such-page/subscriptions', {
      body: { email: 'cy@example.com' },
    });
    expect(none.status).toBe(404);
  });

  it('takes the form without script, and shows it', async () => {
    const form = await api.request<string>('GET', `/status/${slug}/subscribe`);
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(form.body).toContain(`action="/status/${slug}/subscriptions"`);
    expect(form.body).toContain('Blog');
    const posted = await api.request<string>('POST', `/status/${slug}/subscriptions`, {
      rawBody: `email=dee%40example.com&components=${websiteIds[0]}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(202);
    expect(posted.body).toContain('Check your mail');
    await expect.poll(() => mailsTo('dee@example.com').length, { timeout: 10_000 }).toBe(1);
    const invalid = await api.request<string>('POST', `/status/${slug}/subscriptions`, {
      rawBody: 'email=nobody',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain('role="alert"');
  });

  it('unsubscribes by one click (RFC 8058) with the welcome mail’s link only, and says nothing of other links', async () => {
    await api.request('POST', `/status/${slug}/subscriptions`, { body: { email: 'eve@example.com' } });
    await expect.poll(() => mailsTo('eve@example.com').length, { timeout: 10_000 }).toBe(1);
    const confirm = linkIn(mailsTo('eve@example.com')[0]?.raw ?? '', 'confirm');
    await api.request('POST', local(confirm), { rawBody: '' });
    // Confirmed: a welcome mail with the link to leave, in its headers too.
    await expect.poll(() => mailsTo('eve@example.com').length, { timeout: 10_000 }).toBe(2);
    const welcome = mailsTo('eve@example.com')[1]?.raw ?? '';
    expect(welcome).toMatch(/Subject: Subscribed to Acme status/);
    expect(welcome).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(welcome.replace(/\r?\n[ \t]+/g, ' '));
    expect(header?.[1]).toBe(linkIn(welcome, 'unsubscribe'));
    const oneClick = local(header?.[1] ?? '');

    // A wrong token: the same page, nothing removed.
    const wrong = await api.request<string>('POST', oneClick.replace(/token=.*/, `token=${'x'.repeat(43)}`), {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toContain('does not hold');
    expect(
      await api.db.collection('status_page_subscribers').countDocuments({ email: 'eve@example.com' }),
    ).toBe(1);
    // Sealed: the token in clear is not in the stored document.
    const stored = await api.db.collection('status_page_subscribers').findOne({ email: 'eve@example.com' });
    expect(JSON.stringify(stored)).not.toContain(new URL(oneClick, 'http://x').searchParams.get('token'));

    const left = await api.request<string>('POST', oneClick, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(left.status).toBe(200);
    expect(left.body).toContain('You are unsubscribed');
    expect(
      await api.db.collection('status_page_subscribers').countDocuments({ email: 'eve@example.com' }),
    ).toBe(0);
    expect((await api.request<string>('POST', oneClick, { rawBody: '' })).body).toContain('does not hold');
  });

  it('lets the staff remove an address', async () => {
    const removed = await api.request(
      'DELETE',
      `/api/status-pages/${pageId}/subscribers?email=dee%40example.com`,
      {
        token,
      },
    );
    expect(removed.status).toBe(204);
    const gone = await api.request(
      'DELETE',
      `/api/status-pages/${pageId}/subscribers?email=dee%40example.com`,
      {
        token,
      },
    );
    expect(gone.status).toBe(404);
  });

  it('exports the subscribers as CSV, and keeps them from other organizations', async () => {
    const csv = await api.request<string>('GET', `/api/status-pages/${pageId}/subscribers?format=csv`, {
      token,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const [header, ...rows] = csv.body.trim().split('\r\n');
    expect(header).toBe('email,state,components,createdAt,confirmedAt,channel,webhookUrl');
    expect(rows.some((row) => row.startsWith(`ann@example.com,confirmed,${websiteIds[1]},`))).toBe(true);
    const other = await api.createOrganization(['admin']);
    const foreign = await api.request('GET', `/api/status-pages/${pageId}/subscribers`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
  });
});
