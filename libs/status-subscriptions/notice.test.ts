import { describe, expect, it } from 'vitest';
import { noticeMail, type PageNotice, wantsNotice } from './notice.js';

const notice: PageNotice = {
  _id: 'post:4:u1',
  organizationId: 1,
  pageId: 2,
  kind: 'incident.updated',
  title: 'Checkout <errors>',
  status: 'Identified',
  text: 'A bad deploy.',
  html: '<p>A bad deploy.</p>',
  components: [7],
  componentNames: ['Shop & Co'],
  path: '/incidents/4',
  at: new Date('2026-11-30T10:15:00Z'),
  window: null,
  state: 'mailing',
  sent: 0,
  finishedAt: null,
  createdAt: new Date('2026-11-30T10:15:01Z'),
};

describe('notices', () => {
  it('go to whole-page subscribers, and to others when about one of their websites', () => {
    expect(wantsNotice(null, [7])).toBe(true);
    expect(wantsNotice([7, 8], [7])).toBe(true);
    expect(wantsNotice([8], [7])).toBe(false);
    // News of the whole page is everyone's.
    expect(wantsNotice([8], [])).toBe(true);
  });

  it('are mailed with the page, the news, where to read more and the one-click unsubscribe headers', () => {
    const mail = noticeMail(
      notice,
      { title: 'Acme', url: 'https://status.acme.test/status/acme' },
      'https://u.test/x?token=t',
    );
    expect(mail.subject).toBe('[Acme] Incident update: Checkout <errors>');
    expect(mail.text).toContain('Status: Identified');
    expect(mail.text).toContain('Affects: Shop & Co');
    expect(mail.text).toContain('When: 30 Nov 2026, 10:15 UTC');
    expect(mail.text).toContain('Read more: https://status.acme.test/status/acme/incidents/4');
    expect(mail.html).toContain('Checkout &#60;errors&#62;');
    expect(mail.html).toContain('Shop &#38; Co');
    expect(mail.html).toContain('<p>A bad deploy.</p>');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://u.test/x?token=t>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('of maintenance say its window', () => {
    const mail = noticeMail(
      {
        ...notice,
        kind: 'maintenance.scheduled',
        status: 'Scheduled',
        path: null,
        window: { startsAt: new Date('2026-12-01T22:00:00Z'), endsAt: new Date('2026-12-01T23:30:00Z') },
      },
      { title: 'Acme', url: 'https://a.test/status/acme' },
      'https://u.test/x',
    );
    expect(mail.subject).toBe('[Acme] Maintenance planned: Checkout <errors>');
    expect(mail.text).toContain('When: 1 Dec 2026, 22:00 UTC – 1 Dec 2026, 23:30 UTC');
    expect(mail.text).toContain('Read more: https://a.test/status/acme\n');
  });

  it('are mailed in the page’s language, their moments in its time zone', () => {
    const mail = noticeMail(
      { ...notice, title: 'Kasse {page} <x>' },
      { title: 'Acme', url: 'https://s.test', language: 'de', timezone: 'Europe/Berlin' },
      'https://u.test/x',
    );
    expect(mail.subject).toBe('[Acme] Update zur Störung: Kasse {page} <x>');
    expect(mail.text).toContain('Status: Ursache gefunden');
    expect(mail.text).toContain('Betrifft: Shop & Co');
    expect(mail.text).toContain('Wann: 30. Nov. 2026, 11:15 MEZ');
    expect(mail.html).toContain(
      '<p><strong>Update zur Störung</strong> auf Acme: Kasse {page} &#60;x&#62;</p>',
    );
    expect(mail.html).toContain('>Abbestellen</a>');
  });
});
