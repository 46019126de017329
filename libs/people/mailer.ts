import { createTransport } from 'nodemailer';
import { appLink } from '../config/index.js';
import { DomainError } from '../errors/index.js';

/** Mail to a person: plain text, with an HTML part and attachments when given. */
export interface PersonMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  /** Extra headers (a subscriber's mail: List-Unsubscribe). */
  headers?: Record<string, string>;
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
const ANY_CHANNEL_REMEMBERED_MS = 60_000;

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

/**
 * A mailer through `SMTP_URL` keeping up to `connections` connections open between mails (a page's
 * notice to its thousands of subscribers), or null when it is unset; `close` ends them.
 */
export function pooledSmtpMailer(
  settings: MailSettings,
  connections: number,
): (PeopleMailer & { close(): void }) | null {
  if (!settings.SMTP_URL) return null;
  const transport = createTransport({
    url: settings.SMTP_URL,
    pool: true,
    maxConnections: connections,
    maxMessages: Number.POSITIVE_INFINITY,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: settings.SMTP_FROM, ...mail });
    },
    close: () => transport.close(),
  };
}

/**
 * Where people's mail goes for an organization: SMTP_URL when set (the operator's server), else the
 * organization's first enabled e-mail notification channel not bound to a customer, else nowhere.
 */
export interface PeopleMailRoutes {
  /**
   * Whether any route exists (SMTP_URL, or an e-mail channel in some organization): asked before
   * the person is known (a password reset), so it cannot depend on their organization.
   */
  configured(): Promise<boolean>;
  mailerFor(organizationId: number): Promise<PeopleMailer | null>;
}

/** The mail routes: SMTP_URL's mailer for every organization, or without it each organization's e-mail channel. */
export function peopleMailRoutes(deps: {
  smtp: PeopleMailer | null;
  channelMailer?: (organizationId: number) => Promise<PeopleMailer | null>;
  /** Whether some organization has an enabled e-mail channel (remembered for a minute: it is a scan). */
  anyChannel?: () => Promise<boolean>;
}): PeopleMailRoutes {
  const { smtp, channelMailer, anyChannel } = deps;
  let known: { any: boolean; until: number } | undefined;
  return {
    async configured() {
      if (smtp) return true;
      if (!anyChannel) return false;
      if (!known || known.until < Date.now())
        known = { any: await anyChannel(), until: Date.now() + ANY_CHANNEL_REMEMBERED_MS };
      return known.any;
    },
    async mailerFor(organizationId) {
      return smtp ?? (await channelMailer?.(organizationId)) ?? null;
    },
  };
}

/** What to set for people's mail to go out (the 503's detail). */
const MAIL_SETUP =
  'set SMTP_URL (e.g. smtp://user:pass@host:587), SMTP_FROM and PUBLIC_URL on the API, or add an enabled e-mail notification channel not bound to a customer to the organization';

/** The mailer, or the 503 that tells the operator what to set. */
export function requireMailer(mailer: PeopleMailer | null, what: string): PeopleMailer {
  if (mailer) return mailer;
  throw new DomainError(
    'unavailable',
    `${what} go out by e-mail and there is no way to send it: ${MAIL_SETUP}.`,
  );
}

/** A 503 when no mail route exists (no SMTP_URL, no e-mail channel in any organization). */
export async function requireMailRoutes(routes: PeopleMailRoutes, what: string): Promise<void> {
  if (!(await routes.configured()))
    throw new DomainError('unavailable', `${what} go out by e-mail and SMTP_URL is not set: ${MAIL_SETUP}.`);
}

/**
 * A server that did not take the mail: 503, without the server's answer (it may quote accounts or
 * the SMTP_URL's); the log has a fixed reason and nodemailer's error code and SMTP reply code only.
 */
export function mailNotSent(what: string): DomainError {
  return new DomainError(
    'unavailable',
    `The ${what} e-mail could not be sent (the mail server refused it or could not be reached); try again later. The API's log has the error code and the SMTP reply code, not the server's answer.`,
  );
}

/** `<PUBLIC_URL><path>?token=<token>`; without PUBLIC_URL, the API on this machine. */
export function linkWithToken(settings: MailSettings, path: string, token: string): string {
  const url = appLink(settings, path);
  url.searchParams.set('token', token);
  return url.toString();
}

/** A nodemailer error code (`EAUTH`, `ECONNECTION`, `ETIMEDOUT`…): a short constant, never text of the server's. */
const MAIL_ERROR_CODE = /^E[A-Z0-9_]{1,31}$/;

/**
 * What of a mailer's failure may be logged: nodemailer's `code` and the SMTP reply code
 * (`responseCode`, e.g. 535) when present. Never the message: it may quote the server's reply or
 * the account (an SMTP_URL's credentials).
 */
export function mailFailureOf(error: unknown): { code?: string; responseCode?: number } {
  const failure: { code?: string; responseCode?: number } = {};
  if (typeof error !== 'object' || error === null) return failure;
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  if (typeof code === 'string' && MAIL_ERROR_CODE.test(code)) failure.code = code;
  if (
    typeof responseCode === 'number' &&
    Number.isInteger(responseCode) &&
    responseCode >= 100 &&
    responseCode < 600
  )
    failure.responseCode = responseCode;
  return failure;
}
