import { z } from 'zod';
import { isUpEvent } from '../events/index.js';
import { apiBase, formerApiBase, formerApiBaseProblems, optionalApiBase } from './api-base.js';
import { requestConnector } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import { PLAIN } from './markup.js';
import { alertKey, isMaintenance, JSON_TYPE, messageSegments } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';

const PRIORITY: Record<Severity, string> = { critical: 'P1', error: 'P2', warning: 'P3', info: 'P5' };
const PUBLIC_API = 'https://api.opsgenie.com';

/** Opsgenie Alert API: down creates an alert under the incident's alias, up closes it. */
export const opsgenie = requestConnector({
  label: 'Opsgenie',
  shape: {
    apiKey: z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be an Opsgenie API key')
      .describe('Write-only'),
    apiBaseUrl: optionalApiBase(PUBLIC_API, ' (EU accounts: https://api.eu.opsgenie.com)'),
    apiUrl: formerApiBase,
  },
  secrets: ['apiKey'],
  defaults: { apiBaseUrl: null, apiUrl: undefined },
  problems: (config) => formerApiBaseProblems(config, 'apiUrl', PUBLIC_API),
  request(channel, event) {
    if (isMaintenance(event)) return null;
    const summary = summarize(event);
    const base = apiBase(channel.config, PUBLIC_API, 'apiUrl');
    const headers = { ...JSON_TYPE, authorization: `GenieKey ${channel.secrets.apiKey ?? ''}` };
    const alias = alertKey(event);
    if (isUpEvent(event.type) || event.type === 'incident.acknowledged') {
      const action = isUpEvent(event.type) ? 'close' : 'acknowledge';
      return {
        url: `${base}/v2/alerts/${encodeURIComponent(alias)}/${action}?identifierType=alias`,
        headers,
        body: JSON.stringify({
          source: 'webmon',
          note: cut(channel.message || [summary.title, summary.reason].filter(Boolean).join(': '), 25_000),
        }),
      };
    }
    return {
      url: `${base}/v2/alerts`,
      headers,
      body: JSON.stringify({
        message: cut(summary.title, 130),
        alias,
        description: fitSegments(messageSegments(channel, event, summary, PLAIN, { title: false }), 15_000),
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
