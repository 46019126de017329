import type { ClientInfo } from '../contract/index.js';
import type { PersonMail } from './mailer.js';

/** Anything but printable text (controls, bidi overrides) out of what a client sent, before it goes into a mail. */
const printable = (text: string) => text.replace(/[\p{Cc}\p{Cf}]/gu, '?').slice(0, 200);

/**
 * The mail telling a person their account was locked: when, from which address and browser the
 * last failed try came, and how they still get in. Sent once per lock, by the failure that locked it.
 */
export function lockNoticeMail(input: {
  email: string;
  failures: number;
  windowMinutes: number;
  client: ClientInfo;
  at: Date;
  unlockAt: Date;
  resetLink: string;
}): PersonMail {
  const { client } = input;
  return {
    to: input.email,
    subject: '[webmon] Your account was locked after failed sign-ins',
    text: [
      `Your webmon account (${input.email}) had ${input.failures} failed sign-ins within ${input.windowMinutes} minutes, so signing in with the password alone is refused until ${input.unlockAt.toISOString()}.`,
      '',
      `The last failed try: ${input.at.toISOString()} from the address ${printable(client.address)}, browser "${printable(client.userAgent) || 'unknown'}".`,
      '',
      'You can still sign in from a browser you signed in with before, or with your password and a two-factor code.',
      `If these tries were not yours, someone may be guessing your password: choose a new one at ${input.resetLink} and turn two-factor sign-in on.`,
      '',
    ].join('\n'),
  };
}
