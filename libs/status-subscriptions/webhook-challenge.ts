import { randomBytes } from 'node:crypto';
import { webhookHeaders } from '../connectors/index.js';
import { errorMessage } from '../errors/index.js';

/** How a webhook subscription's challenge is posted (the notifier's and the API's guarded HTTP). */
export interface WebhookPoster {
  send(call: {
    method: 'POST';
    url: string;
    headers: Record<string, string>;
    body: string;
  }): Promise<{ status: number; body: string }>;
}

/** A Standard Webhooks secret: `whsec_` and base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Whether an answer echoes the challenge: `{"challenge": "<it>"}` or the challenge alone as text
 * (Slack's and Microsoft Graph's ways), after a 2xx.
 */
export function challengeAnswered(answer: { status: number; body: string }, challenge: string): boolean {
  if (answer.status < 200 || answer.status > 299) return false;
  const text = answer.body.trim();
  if (text === challenge) return true;
  try {
    const parsed = JSON.parse(text) as unknown;
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      (parsed as { challenge?: unknown }).challenge === challenge
    );
  } catch {
    return false;
  }
}

/**
 * Posts a signed challenge to a webhook about to subscribe: subscribed only when it answers with
 * the challenge (whoever can answer for the URL asked for it). Says why not in words the
 * subscriber can act on.
 */
export async function challengeWebhook(
  http: WebhookPoster,
  input: { url: string; secret: string; pageTitle: string; pageUrl: string },
): Promise<{ answered: true } | { answered: false; reason: string }> {
  const challenge = randomBytes(24).toString('base64url');
  const body = JSON.stringify({
    type: 'subscription.challenge',
    challenge,
    page: { title: input.pageTitle, url: input.pageUrl },
  });
  const id = `challenge_${challenge.slice(0, 16)}`;
  let answer: { status: number; body: string };
  try {
    answer = await http.send({
      method: 'POST',
      url: input.url,
      headers: {
        'content-type': 'application/json',
        ...webhookHeaders([input.secret], id, new Date(), body),
      },
      body,
    });
  } catch (error) {
    return { answered: false, reason: `could not be reached: ${errorMessage(error)}` };
  }
  if (challengeAnswered(answer, challenge)) return { answered: true };
  return {
    answered: false,
    reason:
      answer.status >= 200 && answer.status <= 299
        ? 'answered without the challenge: answer {"challenge": "<the challenge sent>"}'
        : `answered ${answer.status}: it must answer 2xx with {"challenge": "<the challenge sent>"}`,
  };
}
