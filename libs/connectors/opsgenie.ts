import { z } from 'zod';
import { isUpEvent } from '../events/index.js';
import { requestConnector } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import { alertKey, endpoint, isMaintenance, JSON_TYPE, lines, text } from './message-parts.js';

const PRIORITY: Record<Severity, string> = { critical: 'P1', error: 'P2', warning: 'P3', info: 'P5' };

/** Opsgenie Alert API: down creates an alert under the incident's alias, up closes it. */
export const opsgenie = requestConnector({
  label: 'Opsgenie',
  shape: {
    apiKey: z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be an Opsgenie API key')
      .describe('Write-only'),
    apiUrl: endpoint.describe('https://api.opsgenie.com, or https://api.eu.opsgenie.com'),
  },
  secrets: ['apiKey'],
  defaults: { apiUrl: 'https://api.opsgenie.com' },
  request(channel, event) {
    if (isMaintenance(event)) return null;
    const summary = summarize(event);
    const base = text(channel.config.apiUrl).replace(/\/+$/, '');
    const headers = { ...JSON_TYPE, authorization: `GenieKey ${channel.secrets.apiKey ?? ''}` };
    const alias = alertKey(event);
    if (isUpEvent(event.type) || event.type === 'incident.acknowledged') {
      const action = isUpEvent(event.type) ? 'close' : 'acknowledge';
      return {
        url: `${base}/v2/alerts/${encodeURIComponent(alias)}/${action}?identifierType=alias`,
        headers,
        body: JSON.stringify({
          source: 'webmon',
          note: [summary.title, summary.reason].filter(Boolean).join(': ').slice(0, 25_000),
        }),
      };
    }
    return {
      url: `${base}/v2/alerts`,
      headers,
      body: JSON.stringify({
        message: summary.title.slice(0, 130),
        alias,
        description: lines(event, summary).join('\n').slice(0, 15_000),
        priority: PRIORITY[summary.severity],
        source: 'webmon',
        details: {
          event: event.type,
          url: event.data.website?.url ?? '',
          ...(summary.screenshot ? { screenshot: summary.screenshot } : {}),
        },
      }),
    };
  },
});
