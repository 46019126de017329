import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../contract/index.js';
import { createLogger } from '../logging/index.js';
import type { InvitationRepository } from './invitation.repository.js';
import { type InvitationDeps, Invitations } from './invitations.js';
import { mailFailureOf, type PeopleMailer, peopleMailRoutes } from './mailer.js';
import { PasswordReset, type PasswordResetDeps } from './password-reset.js';

/** What nodemailer throws when the server refuses the account: its message quotes the reply. */
function smtpRefusal(): Error {
  return Object.assign(
    new Error('Invalid login: 535 5.7.8 Authentication failed for webmon:smtp-secret-9f3 at relay.internal'),
    {
      code: 'EAUTH',
      responseCode: 535,
      response: '535 5.7.8 smtp-secret-9f3 refused',
      command: 'AUTH PLAIN',
    },
  );
}

const SECRETS = ['smtp-secret-9f3', 'relay.internal', 'Authentication failed', '5.7.8'];

function capturedLog() {
  let lines = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines += chunk.toString();
      done();
    },
  });
  return { log: createLogger('api', 'trace', sink), lines: () => lines };
}

const failingMailer: PeopleMailer = {
  send: async () => {
    throw smtpRefusal();
  },
};
const MAIL = { SMTP_URL: 'smtp://example.test', SMTP_FROM: 'webmon <m@example.test>', PORT: 8080 };

async function waitForLine(lines: () => string, text: string): Promise<string> {
  for (let i = 0; i < 100 && !lines().includes(text); i++) await new Promise((r) => setTimeout(r, 10));
  return lines();
}

describe('people: a mail that was not sent is logged without the server’s answer', () => {
  it('keeps only the error code and the SMTP reply code', () => {
    expect(mailFailureOf(smtpRefusal())).toEqual({ code: 'EAUTH', responseCode: 535 });
    expect(mailFailureOf(new Error('connect ECONNREFUSED 10.0.0.1:25'))).toEqual({});
    expect(
      mailFailureOf(Object.assign(new Error('x'), { code: 'secret text', responseCode: '535' })),
    ).toEqual({});
    expect(mailFailureOf('a string')).toEqual({});
    expect(mailFailureOf(null)).toEqual({});
  });

  it('an invitation', async () => {
    const { log, lines } = capturedLog();
    const deleted: number[] = [];
    const invitation = {
      id: 7,
      organizationId: 1,
      email: 'invited@example.com',
      role: 'viewer' as const,
      customerId: null,
      tokenHash: 'h'.repeat(64),
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
    };
    const deps = {
      invitations: {
        pendingFor: async () => null,
        create: async () => ({ invitation, token: 't'.repeat(43) }),
        delete: async (found: { id: number }) => deleted.push(found.id) > 0,
      } as unknown as InvitationRepository,
      users: { findByEmail: async () => null },
      sessions: { openSession: async () => ({}) },
      mailRoutes: peopleMailRoutes({ smtp: failingMailer }),
      mail: MAIL,
      customerExists: async () => true,
      log,
      mailBudget: { take: async () => undefined },
    } as unknown as InvitationDeps;
    const actor: AuthContext = { organizationId: 1, scopes: ['admin'], role: 'owner', userId: 1 };
    await expect(
      new Invitations(deps).invite(actor, { email: 'invited@example.com', role: 'viewer' }),
    ).rejects.toMatchObject({ kind: 'unavailable' });
    expect(deleted).toEqual([7]);
    const written = await waitForLine(lines, 'invitation e-mail not sent');
    const line = JSON.parse(written.trim().split('\n').at(-1) as string);
    expect(line).toMatchObject({
      msg: 'invitation e-mail not sent',
      invitationId: 7,
      code: 'EAUTH',
      responseCode: 535,
    });
    expect(line.reason).toEqual(expect.any(String));
    for (const secret of SECRETS) expect(written).not.toContain(secret);
  });

  it('a password reset', async () => {
    const { log, lines } = capturedLog();
    const deps = {
      users: {
        findByEmail: async () => ({ id: 3, organizationId: 1, email: 'person@example.com' }),
      },
      passwords: {},
      redis: { set: async () => 'OK' },
      prefix: 't',
      mailRoutes: peopleMailRoutes({ smtp: failingMailer }),
      mail: MAIL,
      mailsPerUser: { consume: async () => ({ allowed: true }) },
      mailBudget: { take: async () => undefined },
    } as unknown as PasswordResetDeps;
    new PasswordReset(deps).request('person@example.com', log);
    const written = await waitForLine(lines, 'password reset e-mail not sent');
    const line = JSON.parse(written.trim().split('\n').at(-1) as string);
    expect(line).toMatchObject({ msg: 'password reset e-mail not sent', code: 'EAUTH', responseCode: 535 });
    expect(line.reason).toEqual(expect.any(String));
    for (const secret of SECRETS) expect(written).not.toContain(secret);
  });
});
