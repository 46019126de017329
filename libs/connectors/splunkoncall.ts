import { z } from 'zod';
import { type EventKind, isSiteFinding, isUpEvent } from '../events/index.js';
import { jsonOf, toolVerdict } from './answers.js';
import { apiBase, optionalApiBase } from './api-base.js';
import { defineConnector, notFor } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import { PLAIN } from './markup.js';
import { alertKey, isMaintenance, JSON_TYPE, messageSegments, text } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';

const PUBLIC_API = 'https://alert.victorops.com';
/** The REST endpoint documents no lengths: a title's and a timeline entry's worth (ours). */
const NAME_CHARS = 256;
const STATE_CHARS = 10_000;

/** What the alert does: CRITICAL pages, WARNING may, INFO only notes it, the others end or acknowledge it. */
function messageType(severity: Severity, event: EventKind) {
  if (isUpEvent(event)) return 'RECOVERY';
  if (event === 'incident.acknowledged') return 'ACKNOWLEDGEMENT';
  // Findings and tests go to the timeline, paging nobody (as PagerDuty's change events).
  if (isSiteFinding(event) || event === 'test') return 'INFO';
  return severity === 'warning' ? 'WARNING' : severity === 'info' ? 'INFO' : 'CRITICAL';
}

/**
 * Splunk On-Call (VictorOps) through a REST endpoint integration: down opens an incident for the
 * entity (the webmon incident), up recovers it, an acknowledgement acknowledges it; its links are
 * URL annotations.
 */
export const splunkoncall = defineConnector({
  label: 'Splunk On-Call',
  shape: {
    apiKey: z
      .string()
      .regex(/^[A-Za-z0-9-]{20,64}$/, 'must be the REST integration’s API key')
      .describe('Write-only: the REST endpoint integration’s key (in its URL, after /alert/)'),
    routingKey: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a routing key')
      .describe('The routing key that picks the team (the URL’s last part)'),
    apiBaseUrl: optionalApiBase(PUBLIC_API),
  },
  secrets: ['apiKey'],
  defaults: { apiBaseUrl: null },
  async deliver(channel, event, io) {
    if (isMaintenance(event)) return notFor(event, 'Splunk On-Call');
    const summary = summarize(event);
    const key = encodeURIComponent(channel.secrets.apiKey ?? '');
    const answer = await io.send({
      method: 'POST',
      url: `${apiBase(channel.config, PUBLIC_API)}/integrations/generic/20131114/alert/${key}/${encodeURIComponent(text(channel.config.routingKey))}`,
      headers: JSON_TYPE,
      body: JSON.stringify({
        message_type: messageType(summary.severity, event.type),
        entity_id: alertKey(event),
        entity_display_name: cut(summary.title, NAME_CHARS),
        state_message: fitSegments(
          messageSegments(channel, event, summary, PLAIN, { title: false }),
          STATE_CHARS,
        ),
        state_start_time: Math.floor(Date.parse(event.createdAt) / 1000),
        monitoring_tool: 'webmon',
        ...(event.data.acknowledgement ? { ack_author: event.data.acknowledgement.by.name } : {}),
        ...(summary.link ? { 'vo_annotate.u.Incident': summary.link } : {}),
        ...(summary.screenshot ? { 'vo_annotate.u.Screenshot': summary.screenshot } : {}),
        ...(event.data.website ? { 'vo_annotate.u.Website': event.data.website.url } : {}),
      }),
    });
    // It answers {"result":"success"}; an answer without a result is taken as its status says.
    const { result, message } = jsonOf(answer);
    return toolVerdict(answer, 'Splunk On-Call', result === undefined || result === 'success', message);
  },
});
