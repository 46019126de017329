import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi, type TestResponse } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';

/**
 * Mail through the operator's SMTP has budgets: per organization and per recipient address an
 * hour, invitations, report mailings and e-mail test sends together; one pending invitation per
 * address, sent again (a new link) after a cool-down. The SMTP receiver counts what went out.
 */
const SMTP_ACCOUNT = { username: 'webmon', password: 'smtp-secret-47' };
const RESEND_SECONDS = 1;

type Problem = { status: number; reason: string; detail: string };

function expectRefused(answer: TestResponse, reason: string, atLeastSeconds = 1): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ status: 429, reason });
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(atLeastSeconds);
  // The detail says when the budget refills, as Retry-After does.
  if (reason.startsWith('mail-')) expect((answer.body as Problem).detail).toContain(`${retryAfter} s`);
}

describe('mail budgets', { timeout: 90_000 }, () => {
  let receiver: MailReceiver;
  let api: TestApi;

  beforeAll(async () => {
    receiver = await startMailReceiver(SMTP_ACCOUNT);
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${receiver.port}?ignoreTLS=true`,
      ALLOW_PRIVATE_TARGETS: 'true',
      MAIL_PER_ORGANIZATION_PER_HOUR: '8',
      MAIL_PER_RECIPIENT_PER_HOUR: '3',
      INVITATION_RESEND_SECONDS: String(RESEND_SECONDS),
    });
  });

  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
  });

  const mailsTo = (address: string) => receiver.mails.filter((mail) => mail.to.includes(address)).length;
  const invite = (token: string, email: string) =>
    api.request<{ id: number }>('POST', '/api/invitations', { token, body: { email, role: 'viewer' } });
  const afterCoolDown = () => new Promise((resolve) => setTimeout(resolve, RESEND_SECONDS * 1000 + 100));

  it('one pending invitation per address: again within the cool-down 429, after it the same one re-sent with a new link', async () => {
    const { token } = await api.createOrganization(['admin']);
    const first = await invite(token, 'ann@example.com');
    expect(first.status).toBe(201);
    const soon = await invite(token, 'ann@example.com');
    expectRefused(soon, 'invitation-resend');
    expect(mailsTo('ann@example.com')).toBe(1);
    const oldLink = /accept-invitation\?token=([A-Za-z0-9_-]{43})/.exec(
      receiver.mails.findLast((mail) => mail.to.includes('ann@example.com'))?.raw.replace(/=\r?\n/g, '') ??
        '',
    )?.[1];
    await afterCoolDown();
    const again = await invite(token, 'ann@example.com');
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(mailsTo('ann@example.com')).toBe(2);
    const listed = await api.request<Array<{ email: string }>>('GET', '/api/invitations', { token });
    expect(listed.body.filter((i) => i.email === 'ann@example.com')).toHaveLength(1);
    // The first mail's link no longer works: only the latest mail's does.
    expect(oldLink).toBeDefined();
    const accepted = await api.request('POST', '/api/auth/accept-invitation', {
      body: { token: oldLink, name: 'Ann', password: 'copper-lantern-82-meadow' },
    });
    expect(accepted.status).toBe(400);
  });

  it('per recipient and per organization: past either 429 naming it, nothing sent; another organization still mails', async () => {
    const { token } = await api.createOrganization(['admin']);
    for (let sent = 1; sent <= 3; sent++) {
      expect((await invite(token, 'bob@example.com')).status).toBe(201);
      if (sent < 3) await afterCoolDown();
    }
    await afterCoolDown();
    expectRefused(await invite(token, 'bob@example.com'), 'mail-per-recipient', 3000);
    expect(mailsTo('bob@example.com')).toBe(3);
    // 3 of 8 used: five more addresses, then the organization's budget is spent.
    for (let i = 0; i < 5; i++) expect((await invite(token, `team${i}@example.com`)).status).toBe(201);
    const before = receiver.mails.length;
    expectRefused(await invite(token, 'late@example.com'), 'mail-per-organization', 3000);
    expect(receiver.mails.length).toBe(before);
    const listed = await api.request<Array<{ email: string }>>('GET', '/api/invitations', { token });
    expect(listed.body.map((i) => i.email)).not.toContain('late@example.com');
    // The positive control: another organization's budget is its own, the same address included.
    const other = await api.createOrganization(['admin']);
    expect((await invite(other.token, 'bob@example.com')).status).toBe(201);
    expect(mailsTo('bob@example.com')).toBe(4);
  });

  it('a report mailing counts each recipient; e-mail test sends count their addresses', async () => {
    const { token } = await api.createOrganization(['admin']);
    const pkg = await createPackage(api, token);
    const customerId = await createCustomer(api, token, pkg.id, 'Acme');
    const mailing = (recipients: string[]) =>
      api.request('POST', `/api/customers/${customerId}/report-mailings`, {
        token,
        body: { from: '2026-10-01', to: '2026-10-31', recipients, format: 'html' },
      });
    const four = Array.from({ length: 4 }, (_, i) => `cfo${i}@acme.example`);
    const toAcme = () => receiver.mails.filter((mail) => mail.to.some((to) => to.endsWith('@acme.example')));
    expect((await mailing(four)).status).toBe(201);
    expect(toAcme()).toHaveLength(4);
    // 4 of 8 used: five more would pass the organization's budget, so none is sent.
    const five = Array.from({ length: 5 }, (_, i) => `board${i}@acme.example`);
    expectRefused(await mailing(five), 'mail-per-organization');
    expect(toAcme()).toHaveLength(4);

    const channel = await api.request<{ id: number }>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'email',
        name: 'Ops mail',
        config: {
          host: '127.0.0.1',
          port: receiver.port,
          from: 'webmon@example.com',
          to: ['ops@example.com'],
        },
      },
    });
    expect(channel.status).toBe(201);
    const test = () => api.request('POST', `/api/notification-channels/${channel.body.id}/test`, { token });
    // 7 of 8 after three: the fourth is the address's fourth within the hour.
    for (let i = 0; i < 3; i++) expect((await test()).status).toBe(202);
    expectRefused(await test(), 'mail-per-recipient');
  });
});
