import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Parser from 'rss-parser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { requireSecretsKey } from '../libs/config/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { SecretBox } from '../libs/secrets/index.js';
import { SubscriberRepository, subscriberId } from '../libs/status-subscriptions/index.js';
import { TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { publishedPageOf } from './support/status-page-fixture.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'notices' };
const BULK = 300;

/** A mail's header, unfolded. */
const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim() ?? null;

/**
 * An incident post's updates reach the page's confirmed subscribers through a notifier and a real
 * SMTP receiver: each wanted subscriber once per update (those who chose other websites not at
 * all), with the one-click unsubscribe headers, the message's Markdown rendered safe; a mailing
 * handed over by a notifier stopping halfway goes on in the next, nobody mailed twice.
 */
describe('status page notices to subscribers', () => {
  let api: TestApi;
  let mail: MailReceiver;
  let token: string;
  let pageId: number;
  let websiteIds: number[];
  let notifier: RunningService | undefined;
  const slug = `notices-${Date.now().toString(36)}`;

  const subscribe = async (email: string, components: number[] | null, organizationId: number) => {
    const secrets = new SecretBox(requireSecretsKey(api.config));
    const id = subscriberId(pageId, email);
    await new SubscriberRepository(api.db).save({
      _id: id,
      organizationId,
      pageId,
      email,
      components,
      chosenComponents: components,
      state: 'confirmed',
      confirmDigest: null,
      confirmExpiresAt: null,
      confirmationsSent: 1,
      unsubscribeToken: secrets.seal(`token-of-${email}`, `status-subscriber:${id}:unsubscribe`),
      createdAt: new Date(),
      confirmedAt: new Date(),
    });
  };
  let organizationId: number;

  beforeAll(async () => {
    mail = await startMailReceiver(SMTP_ACCOUNT);
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${mail.port}?ignoreTLS=true`,
      PUBLIC_URL: 'http://status-agency.test:8080',
      // The webhook subscriber listens on 127.0.0.1 (test/status-page-subscriptions.test.ts: refused without it).
      ALLOW_PRIVATE_TARGETS: 'true',
    });
    ({ token, organizationId, websiteIds, pageId } = await publishedPageOf(api, {
      slug,
      title: 'Acme status',
      websites: ['Shop', 'Blog'],
    }));
  }, 60_000);
  afterAll(async () => {
    await notifier?.stop();
    await api?.stop();
    await mail?.close();
  });

  const mailsTo = (address: string) => mail.mails.filter((m) => m.to.includes(address));

  it('tells each subscriber who wants it once per update, safely and with a way to leave', async () => {
    await subscribe('all@example.com', null, organizationId);
    await subscribe('shop@example.com', [websiteIds[0] as number], organizationId);
    await subscribe('blog@example.com', [websiteIds[1] as number], organizationId);
    // A pending subscriber is told nothing.
    await api.request('POST', `/status/${slug}/subscriptions`, { body: { email: 'pending@example.com' } });
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));

    const posted = await api.request<{ id: number }>('POST', `/api/status-pages/${pageId}/incidents`, {
      token,
      body: {
        title: 'Checkout errors',
        components: [{ id: websiteIds[0], impact: 'major_outage' }],
        status: 'investigating',
        message: 'We look into it. <script>alert(1)</script> [details](javascript:alert(2))',
      },
    });
    expect(posted.status).toBe(201);
    await expect.poll(() => mailsTo('shop@example.com').length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => mailsTo('all@example.com').length, { timeout: 10_000 }).toBe(1);
    const told = mailsTo('shop@example.com')[0]?.raw ?? '';
    expect(header(told, 'Subject')).toBe('[Acme status] New incident: Checkout errors');
    expect(header(told, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = header(told, 'List-Unsubscribe');
    expect(unsubscribe).toMatch(
      new RegExp(
        `^<http://status-agency\\.test:8080/status/${slug}/subscriptions/[^/]+/unsubscribe\\?token=token-of-shop@example\\.com>$`,
      ),
    );
    // The HTML part (quoted-printable undone): the message's script is text, its link no link.
    const html = (told.split(/^Content-Type: text\/html.*$/im)[1] ?? '')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain(`/status/${slug}/incidents/${posted.body.id}`);

    const resolved = await api.request(
      'POST',
      `/api/status-pages/${pageId}/incidents/${posted.body.id}/updates`,
      {
        token,
        body: { status: 'resolved', message: 'Fixed.' },
      },
    );
    expect(resolved.status).toBe(201);
    await expect.poll(() => mailsTo('shop@example.com').length, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => mailsTo('all@example.com').length, { timeout: 10_000 }).toBe(2);
    expect(header(mailsTo('all@example.com')[1]?.raw ?? '', 'Subject')).toBe(
      '[Acme status] Resolved: Checkout errors',
    );
    // Chose another website, or not confirmed: told nothing.
    expect(mailsTo('blog@example.com')).toHaveLength(0);
    expect(
      mailsTo('pending@example.com').filter((m) => !m.raw.includes('Confirm your subscription')),
    ).toHaveLength(0);
    const notices = () =>
      api.db
        .collection<{ state: string; sent: number }>('status_page_notices')
        .find({ pageId })
        .toArray()
        .then((found) => found.map((n) => [n.state, n.sent]));
    await expect.poll(notices, { timeout: 10_000 }).toEqual([
      ['done', 2],
      ['done', 2],
    ]);
  }, 60_000);

  it('goes on after a notifier stops halfway, mailing each subscriber once', async () => {
    const bulk = Array.from({ length: BULK }, (_, i) => `bulk${i}@example.com`);
    for (const email of bulk) await subscribe(email, null, organizationId);
    const posted = await api.request<{ id: number }>('POST', `/api/status-pages/${pageId}/incidents`, {
      token,
      body: { title: 'Slow pages', components: [], status: 'identified', message: 'A slow database.' },
    });
    expect(posted.status).toBe(201);
    const bulkMails = () => mail.mails.filter((m) => m.to[0]?.startsWith('bulk')).length;
    await expect.poll(bulkMails, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(50);
    await notifier?.stop();
    const atStop = bulkMails();
    expect(atStop).toBeLessThan(BULK);
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    await expect.poll(bulkMails, { timeout: 60_000 }).toBe(BULK);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const counts = new Map<string, number>();
    for (const m of mail.mails)
      for (const to of m.to) if (to.startsWith('bulk')) counts.set(to, (counts.get(to) ?? 0) + 1);
    expect(counts.size).toBe(BULK);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);

  it('announces maintenance of the page’s websites ahead, once, to those it concerns', async () => {
    const startsAt = new Date(Date.now() + 3_600_000);
    const created = await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: websiteIds[1],
        title: 'Blog move',
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    // A notifier tells maintenance as it starts, then each minute.
    await notifier?.stop();
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    const planned = (address: string) =>
      mailsTo(address).filter(
        (m) => header(m.raw, 'Subject') === '[Acme status] Maintenance planned: Blog move',
      );
    await expect.poll(() => planned('blog@example.com').length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => planned('all@example.com').length, { timeout: 10_000 }).toBe(1);
    // Another notifier's tick finds it told.
    await notifier?.stop();
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(planned('blog@example.com')).toHaveLength(1);
    expect(planned('shop@example.com')).toHaveLength(0);
  }, 60_000);

  it('serves the page’s incidents and maintenance as RSS and Atom feeds a feed library reads', async () => {
    const parser = new Parser();
    for (const format of ['rss', 'atom'] as const) {
      const answer = await api.request<string>('GET', `/status/${slug}/feed.${format}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain(
        format === 'rss' ? 'application/rss+xml' : 'application/atom+xml',
      );
      const feed = await parser.parseString(answer.body);
      expect(feed.title).toBe('Acme status: incidents and maintenance');
      const titles = feed.items.map((item) => item.title);
      expect(titles).toEqual(
        expect.arrayContaining([
          'Checkout errors (Resolved)',
          'Slow pages (Identified)',
          'Planned maintenance: Blog move (Blog)',
        ]),
      );
      const checkout = feed.items.find((item) => item.title === 'Checkout errors (Resolved)');
      expect(checkout?.link).toMatch(
        new RegExp(`^http://status-agency\\.test:8080/status/${slug}/incidents/\\d+$`),
      );
      // The message's Markdown rendered safe: its script is text.
      const content =
        format === 'rss' ? (checkout?.content ?? '') : (checkout?.content ?? checkout?.summary ?? '');
      expect(content).not.toContain('<script');
    }
    const none = await api.request('GET', '/status/no-such-page/feed.rss');
    expect(none.status).toBe(404);
  });

  it('subscribes a webhook that answers its challenge, and posts it each notice signed (Standard Webhooks)', async () => {
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    let echo = true;
    const hook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body });
        const parsed = JSON.parse(body) as { type: string; challenge?: string };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          parsed.type === 'subscription.challenge' && echo
            ? JSON.stringify({ challenge: parsed.challenge })
            : '{}',
        );
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/status`;
    try {
      // One that does not answer the challenge is refused, naming the field.
      echo = false;
      const refused = await api.request<{ errors: Array<{ path: string; message: string }> }>(
        'POST',
        `/status/${slug}/subscriptions`,
        { body: { webhookUrl: url } },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        { path: 'webhookUrl', message: expect.stringContaining('without the challenge') },
      ]);
      echo = true;
      const subscribed = await api.request<{ id: string; secret: string; unsubscribeUrl: string }>(
        'POST',
        `/status/${slug}/subscriptions`,
        { body: { webhookUrl: url, components: [websiteIds[0]] } },
      );
      expect(subscribed.status).toBe(201);
      expect(subscribed.body.secret).toMatch(/^whsec_/);
      const again = await api.request('POST', `/status/${slug}/subscriptions`, { body: { webhookUrl: url } });
      expect(again.status).toBe(409);
      const verifier = new Webhook(subscribed.body.secret);
      // The challenge was signed with the secret it was given.
      const challenge = received.at(-1);
      expect(() => verifier.verify(challenge?.body ?? '', challenge?.headers ?? {})).not.toThrow();

      const posted = await api.request<{ id: number }>('POST', `/api/status-pages/${pageId}/incidents`, {
        token,
        body: {
          title: 'Payments down',
          components: [{ id: websiteIds[0], impact: 'major_outage' }],
          status: 'investigating',
          message: 'Looking.',
        },
      });
      expect(posted.status).toBe(201);
      const deliveries = () =>
        received.filter((r) => (JSON.parse(r.body) as { type: string }).type === 'incident.created');
      await expect.poll(() => deliveries().length, { timeout: 20_000 }).toBe(1);
      const delivery = deliveries()[0];
      const payload = verifier.verify(delivery?.body ?? '', delivery?.headers ?? {}) as {
        notice: { title: string; url: string };
        unsubscribeUrl: string;
      };
      expect(payload.notice.title).toBe('Payments down');
      expect(payload.notice.url).toBe(
        `http://status-agency.test:8080/status/${slug}/incidents/${posted.body.id}`,
      );
      expect(payload.unsubscribeUrl).toBe(subscribed.body.unsubscribeUrl);
      // Its unsubscribe link (POSTed) ends it.
      const left = await api.request<string>(
        'POST',
        subscribed.body.unsubscribeUrl.replace('http://status-agency.test:8080', ''),
        {
          rawBody: '',
        },
      );
      expect(left.body).toContain('You are unsubscribed');
    } finally {
      hook.close();
    }
  }, 60_000);
});
