import { createTransport } from 'nodemailer';
import type { TargetGuard } from '../targets/index.js';
import type { OpenedChannel } from './connectors.js';
import { type EventPayload, summarize } from './event-payload.js';
import { allowedAddresses } from './guarded-http.js';

/** The mail an event makes: plain text, the facts one per line. */
export function emailMessage(payload: EventPayload): { subject: string; text: string } {
  const summary = summarize(payload);
  const { website, status, previousStatus, incident } = payload.data;
  const facts = [
    website ? `Website: ${website.name}` : null,
    website ? `URL: ${website.url}` : null,
    status ? `Status: ${previousStatus ? `${previousStatus} → ` : ''}${status}` : null,
    summary.reason ? `Reason: ${summary.reason}` : null,
    incident ? `Incident: ${incident}` : null,
    `Time: ${payload.createdAt}`,
    `Event: ${payload.type} (${payload.id})`,
  ].filter((line): line is string => line !== null);
  return { subject: `[webmon] ${summary.title}`, text: `${summary.title}\n\n${facts.join('\n')}\n` };
}

const asString = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Sends the event's mail through the channel's SMTP server. The server's name is resolved and
 * checked by the SSRF guard, and the connection goes to the checked address (TLS still verifies
 * the name). Returns the server's final answer.
 */
export async function sendEmail(
  channel: OpenedChannel,
  payload: EventPayload,
  guard: TargetGuard,
  timeoutMs: number,
): Promise<string> {
  const { config, secrets } = channel;
  const host = asString(config.host);
  const [address] = await allowedAddresses(host, guard);
  const username = asString(config.username);
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
    const message = emailMessage(payload);
    const info = await transport.sendMail({
      from: asString(config.from),
      to: Array.isArray(config.to) ? config.to : [],
      subject: message.subject,
      text: message.text,
      headers: { 'X-Webmon-Event': payload.type, 'X-Webmon-Event-Id': payload.id },
    });
    return String(info.response ?? '');
  } finally {
    transport.close();
  }
}
