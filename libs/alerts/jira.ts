import type { OpenedChannel } from './connectors.js';
import { type EventPayload, summarize } from './event-payload.js';
import type { HttpAnswer, HttpCall } from './guarded-http.js';

const asString = (value: unknown) => (typeof value === 'string' ? value : '');

/** Atlassian Document Format: one paragraph a line. */
function document(lines: readonly string[]) {
  return {
    type: 'doc',
    version: 1,
    content: lines.map((line) => ({ type: 'paragraph', content: [{ type: 'text', text: line }] })),
  };
}

function factsOf(payload: EventPayload): string[] {
  const summary = summarize(payload);
  const { website, incident } = payload.data;
  return [
    website ? `Website: ${website.name} (${website.url})` : null,
    summary.reason ? `Reason: ${summary.reason}` : null,
    incident ? `Incident: ${incident}` : null,
    `Time: ${payload.createdAt}`,
  ].filter((line): line is string => line !== null);
}

function call(channel: OpenedChannel, method: HttpCall['method'], path: string, body?: unknown): HttpCall {
  const credentials = Buffer.from(
    `${asString(channel.config.email)}:${channel.secrets.apiToken ?? ''}`,
  ).toString('base64');
  return {
    method,
    url: `${asString(channel.config.baseUrl).replace(/\/+$/, '')}${path}`,
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
      project: { key: asString(channel.config.projectKey) },
      issuetype: { name: asString(channel.config.issueType) },
      summary: summarize(payload).title.slice(0, 255),
      description: document(factsOf(payload)),
      labels: ['webmon'],
    },
  });
}

export interface JiraOutcome {
  answer: HttpAnswer;
  ok: boolean;
  /** The issue opened (on down), so the up event can close it. */
  issueKey?: string;
  /** Why it did not work, when Jira answered but not as hoped. */
  problem?: string;
}

type Send = (call: HttpCall, maxBytes?: number) => Promise<HttpAnswer>;
const ok = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300;

/** Opens the issue for a website that went down. */
export async function openIssue(
  channel: OpenedChannel,
  payload: EventPayload,
  send: Send,
): Promise<JiraOutcome> {
  const answer = await send(createIssueCall(channel, payload), 64 * 1024);
  if (!ok(answer)) return { answer, ok: false, problem: `Jira answered HTTP ${answer.status}` };
  const key = (JSON.parse(answer.body) as { key?: unknown }).key;
  return typeof key === 'string'
    ? { answer, ok: true, issueKey: key }
    : { answer, ok: false, problem: 'Jira created an issue but returned no key' };
}

/** Comments on the issue of a website that is up again, then moves it with the configured transition. */
export async function closeIssue(
  channel: OpenedChannel,
  payload: EventPayload,
  issueKey: string,
  send: Send,
): Promise<JiraOutcome> {
  const issue = `/rest/api/3/issue/${encodeURIComponent(issueKey)}`;
  const comment = await send(
    call(channel, 'POST', `${issue}/comment`, {
      body: document([summarize(payload).title, ...factsOf(payload)]),
    }),
  );
  if (!ok(comment)) return { answer: comment, ok: false, problem: `Jira answered HTTP ${comment.status}` };
  const listed = await send(call(channel, 'GET', `${issue}/transitions`), 256 * 1024);
  if (!ok(listed)) return { answer: listed, ok: false, problem: `Jira answered HTTP ${listed.status}` };
  const wanted = asString(channel.config.doneTransition).toLowerCase();
  const transitions =
    (JSON.parse(listed.body) as { transitions?: Array<{ id: string; name: string }> }).transitions ?? [];
  const transition = transitions.find((t) => t.name.toLowerCase() === wanted);
  if (!transition)
    return {
      answer: listed,
      ok: false,
      problem: `${issueKey} has no transition named "${asString(channel.config.doneTransition)}" (it has: ${transitions.map((t) => t.name).join(', ') || 'none'})`,
    };
  const moved = await send(
    call(channel, 'POST', `${issue}/transitions`, { transition: { id: transition.id } }),
  );
  return ok(moved)
    ? { answer: moved, ok: true }
    : { answer: moved, ok: false, problem: `Jira answered HTTP ${moved.status}` };
}
