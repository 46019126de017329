import { createHash } from 'node:crypto';
import { webhookHeaders } from '../connectors/index.js';
import type { PageNotice } from './notice.js';

/**
 * A notice as a webhook subscriber gets it: JSON, signed (Standard Webhooks) with the subscriber's
 * secret; `webhook-id` is the same on every try of one notice to one subscriber, so a receiver
 * drops a repeat.
 */
export function noticeDelivery(
  notice: PageNotice,
  page: { title: string; url: string },
  subscriber: { id: string; secret: string; unsubscribeUrl: string },
  at: Date,
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    type: notice.kind,
    page: { title: page.title, url: page.url },
    notice: {
      id: notice._id,
      title: notice.title,
      status: notice.status,
      message: notice.text,
      html: notice.html,
      components: notice.components.map((id, index) => ({ id, name: notice.componentNames[index] ?? null })),
      url: notice.path ? `${page.url}${notice.path}` : page.url,
      at: notice.at.toISOString(),
      window: notice.window
        ? { startsAt: notice.window.startsAt.toISOString(), endsAt: notice.window.endsAt.toISOString() }
        : null,
    },
    unsubscribeUrl: subscriber.unsubscribeUrl,
  });
  const id = `msg_${createHash('sha256').update(`${notice._id} ${subscriber.id}`).digest('base64url').slice(0, 24)}`;
  return {
    headers: { 'content-type': 'application/json', ...webhookHeaders([subscriber.secret], id, at, body) },
    body,
  };
}
