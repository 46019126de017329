import { z } from 'zod';
import type { EventPayload } from '../events/index.js';
import { jsonOf, openedVerdict } from './answers.js';
import { apiBase, optionalApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, verdictOf } from './connector.js';
import { summarize } from './event-summary.js';
import type { HttpCall } from './guarded-http.js';
import { COMMONMARK } from './markup.js';
import { messageSegments, text } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';
import { ticketDelivery } from './ticket.js';

const PUBLIC_API = 'https://api.github.com';
/** GitHub's limits: a title of 256 characters, a body or comment of 65,536. */
const TITLE_CHARS = 256;
const BODY_CHARS = 65_536;

type Send = ConnectorIo['send'];

/** One REST call with the token, in GitHub's JSON and API version. */
function call(channel: OpenedChannel, method: HttpCall['method'], path: string, body: unknown): HttpCall {
  return {
    method,
    url: `${apiBase(channel.config, PUBLIC_API)}/repos/${text(channel.config.repository)}${path}`,
    headers: {
      'content-type': 'application/json',
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      authorization: `Bearer ${channel.secrets.token ?? ''}`,
    },
    body: JSON.stringify(body),
  };
}

const markdown = (channel: OpenedChannel, event: EventPayload) =>
  fitSegments(messageSegments(channel, event, summarize(event), COMMONMARK), BODY_CHARS);

async function comment(channel: OpenedChannel, event: EventPayload, issue: string, send: Send) {
  const path = `/issues/${encodeURIComponent(issue)}/comments`;
  return verdictOf(await send(call(channel, 'POST', path, { body: markdown(channel, event) })));
}

/**
 * GitHub Issues (github.com or GitHub Enterprise Server): a problem opens an issue in the
 * repository, an acknowledgement comments on it, the end comments on it and closes it as completed.
 */
export const githubissues = defineConnector({
  label: 'GitHub Issues',
  shape: {
    repository: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'must be owner/name')
      .describe('The repository the issues are opened in, as owner/name'),
    token: z
      .string()
      .regex(/^(github_pat_[A-Za-z0-9_]{20,255}|gh[pousr]_[A-Za-z0-9]{30,255})$/, 'must be a GitHub token')
      .describe('Write-only: a fine-grained token with “Issues: read and write” on the repository'),
    labels: z
      .array(z.string().trim().min(1).max(50))
      .max(10)
      .describe('Labels put on each issue (set only when the token may push to the repository)'),
    apiBaseUrl: optionalApiBase(PUBLIC_API, ' (GitHub Enterprise Server: https://HOST/api/v3)'),
  },
  secrets: ['token'],
  defaults: { labels: [], apiBaseUrl: null },
  deliver: ticketDelivery('GitHub', 'issue', {
    async open(channel, event, send) {
      const labels = Array.isArray(channel.config.labels) ? channel.config.labels : [];
      const answer = await send(
        call(channel, 'POST', '/issues', {
          title: cut(summarize(event).title, TITLE_CHARS),
          body: markdown(channel, event),
          ...(labels.length > 0 ? { labels } : {}),
        }),
        64 * 1024,
      );
      return openedVerdict(answer, jsonOf(answer).number, 'GitHub');
    },
    comment,
    async close(channel, event, issue, send) {
      const commented = await comment(channel, event, issue, send);
      if (commented.verdict !== 'done') return commented;
      const path = `/issues/${encodeURIComponent(issue)}`;
      return verdictOf(
        await send(call(channel, 'PATCH', path, { state: 'closed', state_reason: 'completed' })),
      );
    },
  }),
});
