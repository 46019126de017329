import { z } from 'zod';
import { type EventPayload, isSiteFinding, isUpEvent } from '../events/index.js';
import { apiBase, formerApiBase, formerApiBaseProblems, optionalApiBase } from './api-base.js';
import { type OpenedChannel, requestConnector } from './connector.js';
import { type EventSummary, summarize } from './event-summary.js';
import { alertKey, isMaintenance, JSON_TYPE, text } from './message-parts.js';
import { cut } from './text-fit.js';

const PUBLIC_API = 'https://events.pagerduty.com';
const FORMER_DEFAULT = `${PUBLIC_API}/v2/enqueue`;

/** The Events API v2 endpoint: under `apiBaseUrl`, else the former `eventsUrl` (a whole enqueue URL). */
function eventsEndpoint(channel: OpenedChannel, change: boolean): string {
  const path = change ? '/v2/change/enqueue' : '/v2/enqueue';
  const former = text(channel.config.eventsUrl);
  if (channel.config.apiBaseUrl || !former) return `${apiBase(channel.config, PUBLIC_API)}${path}`;
  return change ? former.replace(/\/v2\/enqueue\/?$/, path) : former;
}

/** PagerDuty's summary (1,024 characters): the channel's message, else the title and why. */
const summaryOf = (channel: OpenedChannel, summary: EventSummary) =>
  cut(channel.message || [summary.title, summary.reason].filter(Boolean).join(': '), 1024);

/** What a change event says: a crawl's or Lighthouse's new findings, for the service's timeline. */
function changeEvent(channel: OpenedChannel, event: EventPayload, summary: EventSummary) {
  return {
    routing_key: channel.secrets.routingKey ?? '',
    payload: {
      summary: summaryOf(channel, summary),
      source: event.data.website?.url ?? 'webmon',
      timestamp: event.createdAt,
      custom_details: { event: event.type, reason: summary.reason && cut(summary.reason, 10_000) },
    },
    links: event.data.website ? [{ href: event.data.website.url, text: event.data.website.name }] : [],
  };
}

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
    apiBaseUrl: optionalApiBase(PUBLIC_API, ' (events go to /v2/enqueue, findings to /v2/change/enqueue)'),
    eventsUrl: formerApiBase.describe(
      'Former field: the whole Events API v2 URL, still read when apiBaseUrl is not set',
    ),
  },
  secrets: ['routingKey'],
  defaults: { apiBaseUrl: null, eventsUrl: undefined },
  problems: (config) => formerApiBaseProblems(config, 'eventsUrl', FORMER_DEFAULT),
  request(channel, event) {
    if (isMaintenance(event)) return null;
    const summary = summarize(event);
    if (isSiteFinding(event.type))
      return {
        url: eventsEndpoint(channel, true),
        headers: JSON_TYPE,
        body: JSON.stringify(changeEvent(channel, event, summary)),
      };
    const routing_key = channel.secrets.routingKey ?? '';
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
              summary: summaryOf(channel, summary),
              source: event.data.website?.url ?? 'webmon',
              severity: summary.severity,
              timestamp: event.createdAt,
              custom_details: {
                event: event.type,
                status: event.data.status,
                reason: summary.reason && cut(summary.reason, 10_000),
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
    return { url: eventsEndpoint(channel, false), headers: JSON_TYPE, body: JSON.stringify(body) };
  },
});
