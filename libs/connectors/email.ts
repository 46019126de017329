import { createTransport } from 'nodemailer';
import { z } from 'zod';
import { emailAddress } from '../contract/index.js';
import type { EventPayload } from '../events/index.js';
import type { TargetGuard } from '../targets/index.js';
import { defineConnector, type OpenedChannel } from './connector.js';
import { summarize } from './event-summary.js';
import { allowedAddresses } from './guarded-http.js';
import { screenshotLine, text } from './message-parts.js';

/** The mail an event makes: plain text, the facts one per line, or the channel's rendered template. */
export function emailMessage(payload: EventPayload, template?: string): { subject: string; text: string } {
  const summary = summarize(payload);
  if (template) return { subject: `[webmon] ${summary.title}`, text: `${template}\n` };
  const { website, status, previousStatus, incident } = payload.data;
  const facts = [
    website ? `Website: ${website.name}` : null,
    website ? `URL: ${website.url}` : null,
    status ? `Status: ${previousStatus ? `${previousStatus} → ` : ''}${status}` : null,
    summary.reason ? `Reason: ${summary.reason}` : null,
    summary.excerpt ? `Answer: ${summary.excerpt}` : null,
    screenshotLine(summary),
    incident ? `Incident: ${summary.link ?? incident}` : null,
    `Time: ${payload.createdAt}`,
    `Event: ${payload.type} (${payload.id})`,
  ].filter((line): line is string => line !== null);
  return { subject: `[webmon] ${summary.title}`, text: `${summary.title}\n\n${facts.join('\n')}\n` };
}

/** One mail sent through an e-mail channel's server (from the channel's `from`). */
export interface ChannelMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  headers?: Record<string, string>;
}

/** A file sent with a mail (a report's PDF or HTML). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * Sends a mail through the channel's SMTP server. The server's name is resolved and checked by the
 * SSRF guard, and the connection goes to the checked address (TLS still verifies the name).
 * Returns the server's final answer.
 */
export async function sendChannelMail(
  channel: OpenedChannel,
  mail: ChannelMail,
  guard: TargetGuard,
  timeoutMs: number,
): Promise<string> {
  const { config, secrets } = channel;
  const host = text(config.host);
  const [address] = await allowedAddresses(host, guard, Number(config.port));
  const username = text(config.username);
  const transport = createTransport({
    host: address?.address,
    port: Number(config.port),
    secure: config.secure === true,
    auth: username ? { user: username, pass: secrets.password ?? '' } : undefined,
    tls: { servername: host },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    const info = await transport.sendMail({ from: text(config.from), ...mail });
    return String(info.response ?? '');
  } finally {
    transport.close();
  }
}

/** E-mail through the channel's own SMTP server: plain text, every event. */
export const email = defineConnector({
  label: 'e-mail',
  shape: {
    host: z
      .string()
      .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/, 'must be a host name or IPv4 address')
      .describe('SMTP server'),
    port: z.number().int().min(1).max(65_535).describe('587 (STARTTLS) or 465 (TLS)'),
    secure: z.boolean().describe('true: TLS from the first byte (port 465); false: STARTTLS when offered'),
    username: z.string().min(1).max(256).nullable().describe('The SMTP account; null: no login'),
    password: z.string().min(1).max(1024).nullable().describe('Write-only; null clears it'),
    from: emailAddress().describe('The sender address the server accepts'),
    to: z
      .array(emailAddress())
      .min(1)
      .max(50)
      .refine((to) => new Set(to.map((a) => a.toLowerCase())).size === to.length, 'addresses must not repeat')
      .describe('The addresses alerts go to, 1–50'),
  },
  secrets: ['password'],
  defaults: { port: 587, secure: false, username: null, password: null },
  hostFields: ['host'],
  problems: (config) =>
    config.password !== null && config.username === null
      ? [{ path: 'config.username', message: 'is required when a password is set' }]
      : [],
  async deliver(channel, event, io) {
    const message = emailMessage(event, channel.message);
    const response = await sendChannelMail(
      channel,
      {
        to: Array.isArray(channel.config.to) ? channel.config.to : [],
        ...message,
        headers: { 'X-Webmon-Event': event.type, 'X-Webmon-Event-Id': event.id },
      },
      io.guard,
      io.timeoutMs,
    );
    return { verdict: 'done', httpStatus: null, excerpt: response };
  },
});
