import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../libs/status-pages/index.js';
import { TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { publishedPageOf } from './support/status-page-fixture.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'language' };

type Problem = { errors: Array<{ path: string }> };

/** A mail's Subject header, its RFC 2047 encoded words (UTF-8, B or Q) decoded. */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (__, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}

/**
 * A page in its client's language: German words on the page, its posts' pages, badge, widget,
 * subscribe form and mails, moments in Europe/Berlin, websites in named sections in their order,
 * and links to its subscribe form and feeds. Bad settings are 400s naming the field.
 */
describe('a status page in its client’s language', () => {
  let api: TestApi;
  let mail: MailReceiver;
  let token: string;
  let pageId: number;
  let websiteIds: number[];
  const slug = `sprache-${Date.now().toString(36)}`;

  beforeAll(async () => {
    mail = await startMailReceiver(SMTP_ACCOUNT);
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${mail.port}?ignoreTLS=true`,
      PUBLIC_URL: 'http://status-agency.test:8080',
    });
    ({ token, websiteIds, pageId } = await publishedPageOf(api, {
      slug,
      title: 'Acme Status',
      websites: ['Shop', 'Blog', 'Mail'],
    }));
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await mail?.close();
  });

  const patch = (body: Record<string, unknown>) =>
    api.request<Problem & Record<string, unknown>>('PATCH', `/api/status-pages/${pageId}`, { token, body });

  it('keeps English, UTC and no sections for a page that says nothing', async () => {
    const view = await api.request('GET', `/api/status-pages/${pageId}`, { token });
    expect(view.body).toMatchObject({ language: 'en', timezone: 'UTC', sections: [] });
    const html = (await api.request<string>('GET', `/status/${slug}`)).body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Subscribe to updates');
  });

  it('refuses a language, a time zone or a section website it cannot have, naming the field', async () => {
    const language = await patch({ language: 'xx' });
    expect(language.status).toBe(400);
    expect(language.body.errors.map((e) => e.path)).toEqual(['language']);
    const timezone = await patch({ timezone: 'Europe/Atlantis' });
    expect(timezone.status).toBe(400);
    expect(timezone.body.errors.map((e) => e.path)).toEqual(['timezone']);
    const foreign = await patch({ sections: [{ name: 'Kasse', websiteIds: [websiteIds[0], 999_999] }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.map((e) => e.path)).toEqual(['sections.0.websiteIds.1']);
    const twice = await patch({
      sections: [
        { name: 'Kasse', websiteIds: [websiteIds[0]] },
        { name: 'Inhalte', websiteIds: [websiteIds[1], websiteIds[0]] },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors.map((e) => e.path)).toEqual(['sections.1.websiteIds.1']);
    // Nothing of it was taken.
    const view = await api.request('GET', `/api/status-pages/${pageId}`, { token });
    expect(view.body).toMatchObject({ language: 'en', timezone: 'UTC', sections: [] });
  });

  it('shows the page in German, its moments in Berlin time, its websites in their sections', async () => {
    const changed = await patch({
      language: 'de',
      timezone: 'Europe/Berlin',
      sections: [
        { name: 'Kasse', websiteIds: [websiteIds[2], websiteIds[0]] },
        { name: 'Inhalte', websiteIds: [websiteIds[1]] },
      ],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      language: 'de',
      timezone: 'Europe/Berlin',
      sections: [
        { name: 'Kasse', websiteIds: [websiteIds[2], websiteIds[0]] },
        { name: 'Inhalte', websiteIds: [websiteIds[1]] },
      ],
    });

    const page = await api.request<string>('GET', `/status/${slug}`);
    expect(page.status).toBe(200);
    const html = page.body;
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<title>Acme Status: Status</title>');
    // Paused websites: not monitored, and no data for the page as a whole.
    expect(html).toContain('Nicht überwacht');
    expect(html).toContain('Noch keine Daten');
    expect(html).toContain('Keine Störungen in den letzten 14 Tagen.');
    expect(html).toContain('Geplante Wartungen');
    expect(html).not.toContain('Operational');
    // Moments in Berlin time, the zone named, and the zone said in words.
    expect(html).toMatch(/<time datetime="[^"]+Z">\d{1,2}\. [^<]+ \d{4}, \d\d:\d\d (MEZ|MESZ)<\/time>/);
    expect(html).toContain('Alle Zeiten in der Zeitzone Europe/Berlin.');
    // Sections in their order, each with its websites in theirs.
    const order = ['>Kasse</h2>', '>Mail</h3>', '>Shop</h3>', '>Inhalte</h2>', '>Blog</h3>'].map((text) =>
      html.indexOf(text),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).not.toContain('Weitere Websites');
    // Its subscribe form and feeds, linked by absolute paths.
    expect(html).toContain(`<a class="subscribe" href="/status/${slug}/subscribe">Updates abonnieren</a>`);
    expect(html).toMatch(
      new RegExp(
        `<link rel="alternate" type="application/rss\\+xml" title="[^"]+" href="/status/${slug}/feed.rss"`,
      ),
    );
    expect(html).toMatch(
      new RegExp(
        `<link rel="alternate" type="application/atom\\+xml" title="[^"]+" href="/status/${slug}/feed.atom"`,
      ),
    );
    expect(html).toContain(`<a href="/status/${slug}/feed.atom">Atom</a>`);

    // The JSON twin keeps machine values and says the language and zone.
    const data = await api.request<{
      language: string;
      timezone: string;
      overall: { state: string; text: string };
      websites: Array<{ name: string; status: string; statusText: string }>;
      sections: Array<{ name: string | null; websites: number[] }>;
    }>('GET', `/status/${slug}.json`);
    expect(data.body).toMatchObject({
      language: 'de',
      timezone: 'Europe/Berlin',
      overall: { state: 'unknown', text: 'Noch keine Daten' },
      sections: [
        { name: 'Kasse', websites: [0, 1] },
        { name: 'Inhalte', websites: [2] },
      ],
    });
    expect(data.body.websites.map((w) => [w.name, w.status])).toEqual([
      ['Mail', 'paused'],
      ['Shop', 'paused'],
      ['Blog', 'paused'],
    ]);
  });

  it('lists websites in no section after the sections, under a default heading', async () => {
    expect((await patch({ sections: [{ name: 'Kasse', websiteIds: [websiteIds[0]] }] })).status).toBe(200);
    const html = (await api.request<string>('GET', `/status/${slug}`)).body;
    expect(html.indexOf('>Kasse</h2>')).toBeLessThan(html.indexOf('>Weitere Websites</h2>'));
    expect(html.indexOf('>Weitere Websites</h2>')).toBeLessThan(html.indexOf('>Blog</h3>'));
  });

  it('speaks German on its history, badge and widget', async () => {
    const history = (await api.request<string>('GET', `/status/${slug}/history`)).body;
    expect(history).toContain('<html lang="de">');
    expect(history).toMatch(/<h1>Störungsverlauf: [^<]+ \d{4}<\/h1>/);
    const badge = (await api.request<string>('GET', `/status/${slug}/badge.svg`)).body;
    expect(badge).toContain('aria-label="Status: keine Daten"');
    const widget = (await api.request<string>('GET', `/status/${slug}/widget`)).body;
    expect(widget).toContain('<html lang="de">');
    expect(widget).toContain('Noch keine Daten');
  });

  it('has a German subscribe form and answers it in German', async () => {
    const form = await api.request<string>('GET', `/status/${slug}/subscribe`);
    expect(form.status).toBe(200);
    expect(form.body).toContain('<html lang="de">');
    expect(form.body).toContain('<h1>Updates per E-Mail erhalten</h1>');
    expect(form.body).toContain('<label for="email">E-Mail-Adresse</label>');
    expect(form.body).toContain('<button type="submit">Abonnieren</button>');
    const posted = await api.request<string>('POST', `/status/${slug}/subscriptions`, {
      rawBody: 'email=greta%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(202);
    expect(posted.body).toContain('Bitte prüfen Sie Ihr Postfach');
    const invalid = await api.request<string>('POST', `/status/${slug}/subscriptions`, {
      rawBody: 'email=nobody',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain('Geben Sie eine gültige E-Mail-Adresse an');
    await expect
      .poll(() => mail.mails.filter((m) => m.to.includes('greta@example.com')).length, {
        timeout: 10_000,
      })
      .toBe(1);
    // Its confirmation mail names the page (in German once the service passes the page's language).
    expect(subjectOf(mail.mails.find((m) => m.to.includes('greta@example.com'))?.raw ?? '')).toContain(
      'Acme Status',
    );
  });

  /**
   * Needs libs/status-subscriptions/subscription.service.ts (not this change's) to hand the page's
   * language to `confirmationMail` and `welcomeMail`; the mails themselves are German then (see
   * subscription-mails.test.ts).
   */
  it('mails the confirmation in German', async () => {
    await api.request('POST', `/status/${slug}/subscriptions`, { body: { email: 'hans@example.com' } });
    await expect
      .poll(() => mail.mails.filter((m) => m.to.includes('hans@example.com')).length, {
        timeout: 10_000,
      })
      .toBe(1);
    const raw = mail.mails.find((m) => m.to.includes('hans@example.com'))?.raw ?? '';
    expect(subjectOf(raw)).toBe('Bestätigen Sie Ihr Abonnement von Acme Status');
  });

  it('keeps its language behind its gate: a page for address ranges refuses in German', async () => {
    expect((await patch({ access: { mode: 'cidr', cidrs: ['192.0.2.0/24'] } })).status).toBe(200);
    const refused = await api.request<string>('GET', `/status/${slug}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('<html lang="de"');
    expect(refused.body).toContain('Diese Statusseite ist privat');
    expect((await patch({ access: { mode: 'public' } })).status).toBe(200);
  });

  it('names its feed in German', async () => {
    const feed = await new Parser().parseString(
      (await api.request<string>('GET', `/status/${slug}/feed.atom`)).body,
    );
    expect(feed.title).toBe(translator({ language: 'de' }).text('page.feedTitle', { title: 'Acme Status' }));
  });
});
