import { z } from 'zod';
import { emailAddress } from '../contract/index.js';
import type { EventPayload } from '../events/index.js';
import { jsonOf, openedVerdict } from './answers.js';
import { apiBase, serverApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, verdictOf } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import type { HttpCall } from './guarded-http.js';
import { PLAIN } from './markup.js';
import { alertKey, JSON_TYPE, messageSegments, text } from './message-parts.js';
import { cut, fitSegments, utf8Bytes } from './text-fit.js';
import { ticketDelivery } from './ticket.js';

/** A comment's body (Zendesk takes up to 64 KB) and a subject (ours: a line's worth). */
const COMMENT_BYTES = 60_000;
const SUBJECT_CHARS = 255;
const PRIORITY: Record<Severity, string> = {
  critical: 'urgent',
  error: 'high',
  warning: 'normal',
  info: 'low',
};

type Send = ConnectorIo['send'];

/** One Support API call: Basic auth as `{email}/token` with the API token. */
function call(channel: OpenedChannel, method: HttpCall['method'], path: string, body: unknown): HttpCall {
  const credentials = Buffer.from(
    `${text(channel.config.email)}/token:${channel.secrets.apiToken ?? ''}`,
  ).toString('base64');
  return {
    method,
    url: `${apiBase(channel.config, '')}/api/v2${path}`,
    headers: { ...JSON_TYPE, accept: 'application/json', authorization: `Basic ${credentials}` },
    body: JSON.stringify(body),
  };
}

/** The title, then the facts (or the channel's template): a comment's plain text. */
const commentBody = (channel: OpenedChannel, event: EventPayload) =>
  fitSegments(messageSegments(channel, event, summarize(event), PLAIN), COMMENT_BYTES, '\n', utf8Bytes);

/** An internal note on the ticket, with changes to it (its status). */
async function update(
  channel: OpenedChannel,
  event: EventPayload,
  id: string,
  changes: Record<string, unknown>,
  send: Send,
) {
  const body = { ticket: { ...changes, comment: { body: commentBody(channel, event), public: false } } };
  return verdictOf(await send(call(channel, 'PUT', `/tickets/${encodeURIComponent(id)}.json`, body)));
}

/**
 * Zendesk Support tickets: a problem opens an incident ticket (assigned, so that it can be solved),
 * an acknowledgement adds an internal note, the end adds one and solves the ticket.
 */
export const zendesk = defineConnector({
  label: 'Zendesk',
  shape: {
    apiBaseUrl: serverApiBase('https://agency.zendesk.com').describe(
      'Your Zendesk, e.g. https://agency.zendesk.com',
    ),
    email: emailAddress().describe('The agent the API token acts as'),
    apiToken: z
      .string()
      .trim()
      .min(1)
      .max(1024)
      .describe('Write-only: an API token (Admin Center → Apps and integrations → Zendesk API)'),
    assigneeEmail: emailAddress()
      .nullable()
      .describe(
        'The agent tickets are assigned to; null: the API token’s agent (Zendesk solves assigned tickets only)',
      ),
  },
  secrets: ['apiToken'],
  defaults: { assigneeEmail: null },
  deliver: ticketDelivery('Zendesk', 'ticket', {
    async open(channel, event, send) {
      const summary = summarize(event);
      const answer = await send(
        call(channel, 'POST', '/tickets.json', {
          ticket: {
            subject: cut(summary.title, SUBJECT_CHARS),
            comment: { body: commentBody(channel, event) },
            type: 'incident',
            priority: PRIORITY[summary.severity],
            tags: ['webmon'],
            external_id: alertKey(event),
            assignee_email: text(channel.config.assigneeEmail) || text(channel.config.email),
          },
        }),
        64 * 1024,
      );
      const { ticket } = jsonOf(answer) as { ticket?: { id?: unknown } };
      return openedVerdict(answer, ticket?.id, 'Zendesk');
    },
    comment: (channel, event, id, send) => update(channel, event, id, {}, send),
    close: (channel, event, id, send) => update(channel, event, id, { status: 'solved' }, send),
  }),
});
