import { z } from 'zod';
import { MAIL_SECURITY } from '../../../probe/index.js';
import { hostField } from '../../monitor-common.js';

/** A mail server check's own fields, each once (create fills the defaults, PATCH takes any). */
export const mailFields = {
  host: hostField.describe("The mail server (default: the website's host)"),
  port: z
    .number()
    .int()
    .min(1)
    .max(65_535)
    .describe(
      'Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995)',
    ),
  security: z
    .enum(MAIL_SECURITY)
    .describe('starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only'),
};

/** As a check takes them (the host left out: the website's; the port: the protocol's for the security). */
export const mailSettings = z.strictObject({
  host: mailFields.host.optional(),
  port: mailFields.port.optional(),
  security: mailFields.security.default('starttls'),
});
export type MailSettings = z.output<typeof mailSettings>;
