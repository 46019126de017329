import { z } from 'zod';
import { emailAddress } from '../contract/index.js';
import type { EventPayload } from '../events/index.js';
import { jsonOf, openedVerdict, succeeded } from './answers.js';
import {
  type ConnectorIo,
  defineConnector,
  type OpenedChannel,
  type Verdict,
  verdictOf,
} from './connector.js';
import { summarize } from './event-summary.js';
import type { HttpCall } from './guarded-http.js';
import { endpoint, screenshotLine, text } from './message-parts.js';
import { cut, fitSegments, type Segment } from './text-fit.js';
import { ticketDelivery } from './ticket.js';

/** Atlassian Document Format: one paragraph a line. */
function document(lines: readonly string[]) {
  return {
    type: 'doc',
    version: 1,
    content: lines.map((line) => ({ type: 'paragraph', content: [{ type: 'text', text: line }] })),
  };
}

/** Jira's limit on a description or comment (32,767 characters), with room for the document's markup. */
const DOCUMENT_CHARS = 30_000;

/** What the issue says, a paragraph a line: the channel's rendered template, else the facts. */
function factsOf(channel: OpenedChannel, payload: EventPayload): string[] {
  if (channel.message) return cut(channel.message, DOCUMENT_CHARS).split('\n');
  const summary = summarize(payload);
  const { website, incident } = payload.data;
  const segments: Array<Segment | null> = [
    website ? { plain: `Website: ${website.name} (${website.url})` } : null,
    summary.reason ? { plain: `Reason: ${summary.reason}` } : null,
    summary.excerpt ? `Answer: ${summary.excerpt}` : null,
    screenshotLine(summary),
    incident ? `Incident: ${summary.link ?? incident}` : null,
    `Time: ${payload.createdAt}`,
  ];
  return fitSegments(
    segments.filter((segment): segment is Segment => segment !== null),
    DOCUMENT_CHARS,
  ).split('\n');
}

function call(channel: OpenedChannel, method: HttpCall['method'], path: string, body?: unknown): HttpCall {
  const credentials = Buffer.from(`${text(channel.config.email)}:${channel.secrets.apiToken ?? ''}`).toString(
    'base64',
  );
  return {
    method,
    url: `${text(channel.config.baseUrl).replace(/\/+$/, '')}${path}`,
    headers: {
      authorization: `Basic ${credentials}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

/** Jira Cloud REST v3: the issue a website going down opens. */
export function createIssueCall(channel: OpenedChannel, payload: EventPayload): HttpCall {
  return call(channel, 'POST', '/rest/api/3/issue', {
    fields: {
      project: { key: text(channel.config.projectKey) },
      issuetype: { name: text(channel.config.issueType) },
      summary: cut(summarize(payload).title, 255),
      description: document(factsOf(channel, payload)),
      labels: ['webmon'],
    },
  });
}

type Send = ConnectorIo['send'];

/** Opens the issue for a website that went down; its key is the delivery's external reference. */
export async function openIssue(channel: OpenedChannel, payload: EventPayload, send: Send): Promise<Verdict> {
  const answer = await send(createIssueCall(channel, payload), 64 * 1024);
  return openedVerdict(answer, jsonOf(answer).key, 'Jira');
}

const issuePath = (issueKey: string) => `/rest/api/3/issue/${encodeURIComponent(issueKey)}`;

/** Comments on the incident's issue with the event (an acknowledgement, a recovery). */
export async function commentOnIssue(
  channel: OpenedChannel,
  payload: EventPayload,
  issueKey: string,
  send: Send,
): Promise<Verdict> {
  return verdictOf(
    await send(
      call(channel, 'POST', `${issuePath(issueKey)}/comment`, {
        body: document([summarize(payload).title, ...factsOf(channel, payload)]),
      }),
    ),
  );
}

/** Comments on the issue of a website that is up again, then moves it with the configured transition. */
export async function closeIssue(
  channel: OpenedChannel,
  payload: EventPayload,
  issueKey: string,
  send: Send,
): Promise<Verdict> {
  const issue = issuePath(issueKey);
  const comment = await commentOnIssue(channel, payload, issueKey, send);
  if (comment.verdict !== 'done') return comment;
  const listed = await send(call(channel, 'GET', `${issue}/transitions`), 256 * 1024);
  if (!succeeded(listed)) return verdictOf(listed);
  const wanted = text(channel.config.doneTransition).toLowerCase();
  const transitions =
    (jsonOf(listed) as { transitions?: Array<{ id: string; name: string }> }).transitions ?? [];
  const transition = transitions.find((t) => t.name.toLowerCase() === wanted);
  if (!transition)
    return verdictOf(listed, {
      problem: `${issueKey} has no transition named "${text(channel.config.doneTransition)}" (it has: ${transitions.map((t) => t.name).join(', ') || 'none'})`,
    });
  return verdictOf(
    await send(call(channel, 'POST', `${issue}/transitions`, { transition: { id: transition.id } })),
  );
}

/**
 * Jira Cloud: a website going down opens an issue, its coming back up comments on it and closes
 * it; new site findings (broken links, mixed content, Lighthouse scores under their thresholds)
 * open an issue each, closed by people once fixed.
 */
export const jira = defineConnector({
  label: 'Jira',
  shape: {
    baseUrl: endpoint.describe('The Jira Cloud site, e.g. https://agency.atlassian.net'),
    email: emailAddress().describe('The Atlassian account the API token belongs to'),
    apiToken: z.string().trim().min(1).max(1024).describe('Write-only'),
    projectKey: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{1,9}$/, 'must be a Jira project key such as OPS')
      .describe('The project issues are opened in, by its key (OPS)'),
    issueType: z.string().trim().min(1).max(100).describe('The type of the issues opened (Bug, Incident…)'),
    doneTransition: z.string().trim().min(1).max(100).describe('Transition applied when the website is up'),
  },
  secrets: ['apiToken'],
  defaults: { issueType: 'Bug', doneTransition: 'Done' },
  deliver: ticketDelivery('Jira', 'issue', {
    open: openIssue,
    comment: commentOnIssue,
    close: closeIssue,
  }),
});
