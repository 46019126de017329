import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';

interface Mailing {
  id: string;
  status: string;
  period: { from: string; to: string };
  attempts: Array<{ error: string | null }>;
}

/** 06:00 on the 1st of a month (1–12) in Berlin: 05:00 UTC in winter, 04:00 in summer. */
function berlin0600(year: number, month: number): Date {
  const hourInBerlin = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: 'numeric',
    hourCycle: 'h23',
  });
  for (const offset of [1, 2]) {
    const guess = new Date(Date.UTC(year, month - 1, 1, 6 - offset));
    if (Number(hourInBerlin.format(guess)) === 6) return guess;
  }
  throw new Error(`no 06:00 in Berlin on ${year}-${month}-01`);
}
const monthAfter = ({ year, month }: { year: number; month: number }) =>
  month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
const monthBefore = ({ year, month }: { year: number; month: number }) =>
  month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
/** A month's first and last day, as a report's period says them. */
const periodOf = ({ year, month }: { year: number; month: number }) => {
  const mm = String(month).padStart(2, '0');
  return { from: `${year}-${mm}-01`, to: `${year}-${mm}-${new Date(Date.UTC(year, month, 0)).getUTCDate()}` };
};
// The schedule's times come after the schedule is set: a report is due only from then (fixed
// dates in 2026 stopped working once they had passed). The first 1st whose previous 1st at 06:00
// is already past, and the 1st after it.
let FIRST = monthAfter({ year: new Date().getUTCFullYear(), month: new Date().getUTCMonth() + 1 });
while (berlin0600(monthBefore(FIRST).year, monthBefore(FIRST).month) >= new Date()) FIRST = monthAfter(FIRST);
const SECOND = monthAfter(FIRST);
const FIRST_0600 = berlin0600(FIRST.year, FIRST.month);
const FIRST_0559 = new Date(FIRST_0600.getTime() - 60_000);
const SECOND_0600 = berlin0600(SECOND.year, SECOND.month);

describe('client reports e-mailed on schedule, by the notifiers, through the organization’s SMTP', {
  timeout: 180_000,
}, () => {
  let api: TestApi;
  let receiver: MailReceiver;
  let token: string;
  let organizationId: number;
  let customerId: number;

  beforeAll(async () => {
    // Twenty mailings at once below: the share of report builds is lifted to let them all in.
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', REPORTS_PER_ORGANIZATION: '20' });
    receiver = await startMailReceiver({ username: 'agency', password: 'smtp-secret' });
    ({ token, organizationId } = await api.createOrganization(['admin']));
    expect(
      (await api.request('PATCH', '/api/organization', { token, body: { timezone: 'Europe/Berlin' } }))
        .status,
    ).toBe(200);
    const channel = await api.request('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'email',
        name: 'Agency SMTP',
        config: {
          host: '127.0.0.1',
          port: receiver.port,
          secure: false,
          username: 'agency',
          password: 'smtp-secret',
          from: 'reports@agency.example',
          to: ['ops@agency.example'],
        },
      },
    });
    expect(channel.status).toBe(201);
    const pkg = await createPackage(api, token);
    customerId = await createCustomer(api, token, pkg.id, 'Acme Bakery');
    await api.request('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Shop', url: 'https://shop.acme.example/' },
    });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });

  it('refuses a schedule its package does not include, or one with nobody to send to', async () => {
    const plain = await createPackage(api, token, { features: { reports: false } });
    const other = await createCustomer(api, token, plain.id, 'Globex');
    const refused = await api.request<{ errors: Array<{ path: string }> }>(
      'PATCH',
      `/api/customers/${other}`,
      {
        token,
        body: { reportSchedule: { frequency: 'monthly', recipients: ['ceo@globex.example'] } },
      },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]?.path).toBe('reportSchedule');
    const nobody = await api.request<{ errors: Array<{ path: string }> }>(
      'PATCH',
      `/api/customers/${customerId}`,
      {
        token,
        body: { notificationEmail: null, reportSchedule: { frequency: 'monthly' } },
      },
    );
    expect(nobody.status).toBe(400);
    expect(nobody.body.errors[0]?.path).toBe('reportSchedule.recipients');
  });

  it('monthly at 06:00 Berlin: nothing at 05:59 on the 1st, one mail with the PDF at 06:00 from two notifiers', async () => {
    const scheduled = await api.request<{ reportSchedule: { hour: number } }>(
      'PATCH',
      `/api/customers/${customerId}`,
      {
        token,
        body: {
          notificationEmail: 'owner@acme.example',
          reportSchedule: { frequency: 'monthly', dayOfMonth: 1, hour: 6, format: 'pdf' },
        },
      },
    );
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.reportSchedule.hour).toBe(6);
    await withServices(api, (first) =>
      withServices(api, async (second) => {
        await Promise.all([first.reportMailings.tick(FIRST_0559), second.reportMailings.tick(FIRST_0559)]);
        expect(receiver.mails).toHaveLength(0);
        await Promise.all([first.reportMailings.tick(FIRST_0600), second.reportMailings.tick(FIRST_0600)]);
        // And again a minute later: sent is sent.
        await first.reportMailings.tick(new Date(FIRST_0600.getTime() + 60_000));
      }),
    );
    expect(receiver.mails).toHaveLength(1);
    const [mail] = receiver.mails;
    expect(mail?.to).toEqual(['owner@acme.example']);
    expect(mail?.raw).toContain('Content-Type: application/pdf');
    const reported = periodOf(monthBefore(FIRST));
    expect(mail?.raw).toMatch(
      new RegExp(`filename="?report-Acme-Bakery-${reported.from}-${reported.to}\\.pdf`),
    );
    // The subject is MIME-encoded (it has an en dash): its words are in it all the same.
    expect(mail?.raw).toMatch(/Subject: .*Acme/);
  });

  it('retries an SMTP 4xx, keeps every attempt in the log, and sends again on request', async () => {
    receiver.reject = { code: 451, message: 'Try again later' };
    await withServices(api, (services) => services.reportMailings.tick(SECOND_0600));
    let log = await api.request<Mailing[]>('GET', `/api/customers/${customerId}/report-mailings`, { token });
    expect(log.body[0]).toMatchObject({
      status: 'retrying',
      period: periodOf(FIRST),
    });
    expect(log.body[0]?.attempts[0]?.error).toContain('451');
    receiver.reject = null;
    await withServices(api, (services) =>
      services.reportMailings.tick(new Date(SECOND_0600.getTime() + 60_000)),
    );
    log = await api.request<Mailing[]>('GET', `/api/customers/${customerId}/report-mailings`, { token });
    expect(log.body[0]).toMatchObject({ status: 'sent' });
    expect(log.body[0]?.attempts.map((a) => a.error === null)).toEqual([false, true]);
    expect(receiver.mails).toHaveLength(2);

    const again = await api.request<Mailing>('POST', `/api/customers/${customerId}/report-mailings`, {
      token,
      body: { from: '2026-11-01', to: '2026-11-30', recipients: ['cfo@acme.example'], format: 'both' },
    });
    expect(again.status).toBe(201);
    expect(again.body.status).toBe('sent');
    expect(receiver.mails.at(-1)?.to).toEqual(['cfo@acme.example']);
    expect(receiver.mails.at(-1)?.raw).toContain('Content-Type: text/html');
  });

  it('twenty mailings of one customer and period sent at once: each accepted, each its own, each logged', async () => {
    const before = receiver.mails.length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.request<Mailing>('POST', `/api/customers/${customerId}/report-mailings`, {
          token,
          body: { from: '2026-10-01', to: '2026-10-31', recipients: [`r${i}@acme.example`], format: 'html' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(20);
    const log = await api.request<Mailing[]>('GET', `/api/customers/${customerId}/report-mailings`, {
      token,
    });
    const logged = log.body.filter((m) => m.period.from === '2026-10-01');
    expect(new Set(logged.map((m) => m.id))).toEqual(ids);
    expect(receiver.mails.length - before).toBe(20);
  });

  it('two mailings asked in the same millisecond are two mailings', async () => {
    const sameMoment = new Date();
    const period = { from: '2026-09-01', to: '2026-09-30' };
    const [first, second] = await withServices(api, (services) =>
      Promise.all(
        ['a', 'b'].map((who) =>
          services.reportMailings.resend(
            organizationId,
            customerId,
            period,
            [`${who}@acme.example`],
            'html',
            sameMoment,
          ),
        ),
      ),
    );
    expect(first?._id).not.toBe(second?._id);
    expect([first?.status, second?.status]).toEqual(['sent', 'sent']);
  });
});
