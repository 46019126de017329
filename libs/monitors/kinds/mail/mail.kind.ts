import { type MAIL_SECURITY, type MailProtocol, probeMail } from '../../../probe/index.js';
import { certificateEvidence, defineProbeKind, type ProbeKind } from '../probe-kind.js';
import { type MailSettings, mailFields, mailSettings } from './mail.schema.js';
import { mailVerdict } from './mail.verdict.js';

/** The usual port of each protocol by how it secures the connection. */
const MAIL_PORTS: Record<MailProtocol, Record<(typeof MAIL_SECURITY)[number], number>> = {
  smtp: { starttls: 587, tls: 465, none: 25 },
  imap: { starttls: 143, tls: 993, none: 143 },
  pop3: { starttls: 110, tls: 995, none: 110 },
};

const portOf = (protocol: MailProtocol, s: MailSettings) => s.port ?? MAIL_PORTS[protocol][s.security];

function mailKind<P extends MailProtocol>(protocol: P, limitNoun: string): ProbeKind<P> {
  const name = protocol.toUpperCase();
  return defineProbeKind({
    kind: protocol,
    noun: `${name} check`,
    feature: 'mailServerChecks',
    limit: 'maxMailServerChecksPerWebsite',
    lane: 'fast',
    description: `A ${limitNoun} as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as \`security\` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature \`mailServerChecks\`, limit \`maxMailServerChecksPerWebsite\` (SMTP, IMAP and POP3 together).`,
    fields: mailFields,
    settings: mailSettings,
    hostOf: (s) => s.host ?? null,
    defaultName: (s) =>
      `${name} ${s.host ?? ''}:${portOf(protocol, s)}`.replace(`${name} :`, `${name} port `),
    probe: (s, context) =>
      probeMail(
        {
          protocol,
          host: s.host ?? '',
          port: portOf(protocol, s),
          security: s.security,
          timeoutMs: context.timeoutMs,
        },
        context.probe,
      ),
    verdict: (s, seen, context, now) => mailVerdict(s, seen, context.alerting, now),
    evidence: (seen) => ({
      greeting: seen.greeting,
      certificate: certificateEvidence(seen.tls, seen.startedAt),
      ...(seen.error ? { error: seen.error } : {}),
    }),
    timings: (seen) => seen.timings,
    tls: (seen) => seen.tls,
  });
}

export const smtpKind = mailKind('smtp', 'SMTP server (sending mail)');
export const imapKind = mailKind('imap', 'IMAP server (reading mail)');
export const pop3Kind = mailKind('pop3', 'POP3 server (collecting mail)');
