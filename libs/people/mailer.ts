import { createTransport } from 'nodemailer';
import { AppError } from '../http/index.js';

/** Mail to a person: plain text. */
export interface PersonMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends the mails of libs/people (invitations, password resets); null-able by configuration. */
export interface PeopleMailer {
  send(mail: PersonMail): Promise<void>;
}

/** What the mailer is made from (env `SMTP_URL`, `SMTP_FROM`, `PUBLIC_URL`, `PORT`). */
export interface MailSettings {
  SMTP_URL?: string | undefined;
  SMTP_FROM: string;
  PUBLIC_URL?: string | undefined;
  PORT: number;
}

const SMTP_TIMEOUT_MS = 15_000;

/**
 * A mailer through `SMTP_URL`, or null when it is unset. The server is the operator's own (like
 * MONGODB_URL), so it is not put through the SSRF guard as an organization's e-mail channel is.
 */
export function smtpMailer(settings: MailSettings): PeopleMailer | null {
  if (!settings.SMTP_URL) return null;
  const url = settings.SMTP_URL;
  return {
    async send(mail) {
      const transport = createTransport({
        url,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      });
      try {
        await transport.sendMail({ from: settings.SMTP_FROM, ...mail });
      } finally {
        transport.close();
      }
    },
  };
}

/** The mailer, or the 503 that tells the operator what to set. */
export function requireMailer(mailer: PeopleMailer | null, what: string): PeopleMailer {
  if (mailer) return mailer;
  throw new AppError('service-unavailable', {
    detail: `${what} go out by e-mail and SMTP_URL is not set: set SMTP_URL (e.g. smtp://user:pass@host:587), SMTP_FROM and PUBLIC_URL on the API.`,
  });
}

/** An SMTP server that did not take the mail: 503, without the server's answer (it may name accounts). */
export function mailNotSent(what: string): AppError {
  return new AppError('service-unavailable', {
    detail: `The ${what} e-mail could not be sent through SMTP_URL; try again later (the server's answer is in the API's log).`,
  });
}

/** `<PUBLIC_URL><path>?token=<token>`; without PUBLIC_URL, the API on this machine. */
export function linkWithToken(settings: MailSettings, path: string, token: string): string {
  const origin = settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`;
  // Relative to the origin's path, so a service under https://example.com/webmon/ keeps it.
  const url = new URL(path.replace(/^\//, ''), origin.endsWith('/') ? origin : `${origin}/`);
  url.searchParams.set('token', token);
  return url.toString();
}
