import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature of a message: `v1,` and the base64 HMAC-SHA256, keyed with the
 * secret's bytes (base64 after `whsec_`), of `id.timestamp.body`.
 */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The three headers of a Standard Webhooks delivery; `at` is the attempt's time. Several secrets
 * (during a rotation) give several signatures, space separated.
 */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' '),
  };
}
