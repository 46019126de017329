import { z } from 'zod';
import { isSiteFinding, isUpEvent } from '../events/index.js';
import { requestConnector } from './connector.js';
import { summarize } from './event-summary.js';
import { alertKey, endpoint, isMaintenance, JSON_TYPE, text } from './message-parts.js';

/**
 * PagerDuty Events API v2: down triggers, up resolves, both under the incident's dedup key. What a
 * crawl or Lighthouse found new is a change event (its timeline, never a page to the on-call
 * person: a broken link is not an outage, and nothing would resolve it).
 */
export const pagerduty = requestConnector({
  label: 'PagerDuty',
  shape: {
    routingKey: z
      .string()
      .regex(/^[A-Za-z0-9]{32}$/, 'must be a 32-character Events API v2 integration key')
      .describe('Write-only'),
    eventsUrl: endpoint.describe('Events API v2 endpoint'),
  },
  secrets: ['routingKey'],
  defaults: { eventsUrl: 'https://events.pagerduty.com/v2/enqueue' },
  request(channel, event) {
    if (isMaintenance(event)) return null;
    const summary = summarize(event);
    const routing_key = channel.secrets.routingKey ?? '';
    if (isSiteFinding(event.type))
      return {
        url: text(channel.config.eventsUrl).replace(/\/v2\/enqueue\/?$/, '/v2/change/enqueue'),
        headers: JSON_TYPE,
        body: JSON.stringify({
          routing_key,
          payload: {
            summary: [summary.title, summary.reason].filter(Boolean).join(': ').slice(0, 1024),
            source: event.data.website?.url ?? 'webmon',
            timestamp: event.createdAt,
            custom_details: { event: event.type, reason: summary.reason },
          },
          links: event.data.website ? [{ href: event.data.website.url, text: event.data.website.name }] : [],
        }),
      };
    const dedup_key = alertKey(event);
    const body =
      isUpEvent(event.type) || event.type === 'incident.acknowledged'
        ? {
            routing_key,
            event_action: isUpEvent(event.type) ? 'resolve' : 'acknowledge',
            dedup_key,
          }
        : {
            routing_key,
            event_action: 'trigger',
            dedup_key,
            payload: {
              summary: [summary.title, summary.reason].filter(Boolean).join(': ').slice(0, 1024),
              source: event.data.website?.url ?? 'webmon',
              severity: summary.severity,
              timestamp: event.createdAt,
              custom_details: {
                event: event.type,
                status: event.data.status,
                reason: summary.reason,
                answer: summary.excerpt,
                ...(summary.screenshot ? { screenshot: summary.screenshot } : {}),
              },
            },
            links: [
              summary.link ? { href: summary.link, text: 'Incident in webmon' } : null,
              summary.screenshot
                ? { href: summary.screenshot, text: 'Screenshot of the failing step' }
                : null,
              event.data.website ? { href: event.data.website.url, text: event.data.website.name } : null,
            ].filter(Boolean),
          };
    return { url: text(channel.config.eventsUrl), headers: JSON_TYPE, body: JSON.stringify(body) };
  },
});
