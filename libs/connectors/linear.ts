import { z } from 'zod';
import type { EventPayload } from '../events/index.js';
import { jsonOf, toolVerdict } from './answers.js';
import { apiBase, optionalApiBase } from './api-base.js';
import { type ConnectorIo, defineConnector, type OpenedChannel, type Verdict } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import { COMMONMARK } from './markup.js';
import { JSON_TYPE, messageSegments, text } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';
import { ticketDelivery } from './ticket.js';

const PUBLIC_API = 'https://api.linear.app';
/** Ours: a title's and a description's worth (Linear documents no lengths). */
const TITLE_CHARS = 255;
const BODY_CHARS = 30_000;
/** Linear's priorities: 1 urgent, 2 high, 3 medium, 4 low. */
const PRIORITY: Record<Severity, number> = { critical: 1, error: 2, warning: 3, info: 4 };

type Send = ConnectorIo['send'];

/** One GraphQL operation, with a personal API key (sent as it is, without "Bearer"). */
async function graphql(
  channel: OpenedChannel,
  query: string,
  variables: Record<string, unknown>,
  send: Send,
): Promise<{ verdict: Verdict; data: Record<string, unknown> }> {
  const answer = await send(
    {
      method: 'POST',
      url: `${apiBase(channel.config, PUBLIC_API)}/graphql`,
      headers: { ...JSON_TYPE, authorization: channel.secrets.apiKey ?? '' },
      body: JSON.stringify({ query, variables }),
    },
    256 * 1024,
  );
  const { data, errors } = jsonOf(answer) as {
    data?: Record<string, unknown>;
    errors?: Array<{ message?: unknown }>;
  };
  const said = Array.isArray(errors) ? errors.map((error) => String(error.message)).join('; ') : undefined;
  return { verdict: toolVerdict(answer, 'Linear', !errors && data !== undefined, said), data: data ?? {} };
}

const markdown = (channel: OpenedChannel, event: EventPayload) =>
  fitSegments(messageSegments(channel, event, summarize(event), COMMONMARK), BODY_CHARS);

/** A mutation answered `{success: true}` under its name, or the verdict saying it was not. */
function succeededIn(result: { verdict: Verdict; data: Record<string, unknown> }, name: string): Verdict {
  if (result.verdict.verdict !== 'done') return result.verdict;
  const payload = result.data[name] as { success?: unknown } | undefined;
  return payload?.success === true
    ? result.verdict
    : {
        verdict: 'retry',
        httpStatus: result.verdict.httpStatus,
        excerpt: result.verdict.excerpt,
        problem: `Linear’s ${name} did not succeed`,
      };
}

async function comment(channel: OpenedChannel, event: EventPayload, issueId: string, send: Send) {
  const result = await graphql(
    channel,
    'mutation Comment($input: CommentCreateInput!) { commentCreate(input: $input) { success } }',
    { input: { issueId, body: markdown(channel, event) } },
    send,
  );
  return succeededIn(result, 'commentCreate');
}

/**
 * Linear through its GraphQL API: a problem creates an issue in the team, an acknowledgement
 * comments on it, the end comments on it and moves it to the team's done state.
 */
export const linear = defineConnector({
  label: 'Linear',
  shape: {
    apiKey: z
      .string()
      .regex(/^lin_api_[A-Za-z0-9]{16,128}$/, 'must be a Linear personal API key (lin_api_…)')
      .describe('Write-only: a personal API key (Settings → Security & access)'),
    teamId: z
      .uuid()
      .describe('The team the issues are created in: its id (⌘K → “Copy model UUID” on the team)'),
    doneState: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe(
        'The workflow state the issue moves to when the website is up (else the team’s first completed one)',
      ),
    apiBaseUrl: optionalApiBase(PUBLIC_API),
  },
  secrets: ['apiKey'],
  defaults: { doneState: 'Done', apiBaseUrl: null },
  deliver: ticketDelivery('Linear', 'issue', {
    async open(channel, event, send) {
      const summary = summarize(event);
      const result = await graphql(
        channel,
        'mutation Open($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier url } } }',
        {
          input: {
            teamId: text(channel.config.teamId),
            title: cut(summary.title, TITLE_CHARS),
            description: markdown(channel, event),
            priority: PRIORITY[summary.severity],
          },
        },
        send,
      );
      const verdict = succeededIn(result, 'issueCreate');
      const id = (result.data.issueCreate as { issue?: { id?: unknown } } | undefined)?.issue?.id;
      if (verdict.verdict !== 'done') return verdict;
      return typeof id === 'string'
        ? { ...verdict, externalRef: id }
        : { ...verdict, verdict: 'retry', problem: 'Linear created an issue but returned no id' };
    },
    comment,
    async close(channel, event, issueId, send) {
      const commented = await comment(channel, event, issueId, send);
      if (commented.verdict !== 'done') return commented;
      const listed = await graphql(
        channel,
        'query States($teamId: String!) { team(id: $teamId) { states { nodes { id name type } } } }',
        { teamId: text(channel.config.teamId) },
        send,
      );
      if (listed.verdict.verdict !== 'done') return listed.verdict;
      const states =
        (
          listed.data.team as
            | { states?: { nodes?: Array<{ id: string; name: string; type: string }> } }
            | undefined
        )?.states?.nodes ?? [];
      const wanted = text(channel.config.doneState).toLowerCase();
      const state =
        states.find((s) => s.name.toLowerCase() === wanted) ?? states.find((s) => s.type === 'completed');
      if (!state)
        return { ...listed.verdict, verdict: 'retry', problem: 'the team has no completed workflow state' };
      const moved = await graphql(
        channel,
        'mutation Close($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success } }',
        { id: issueId, input: { stateId: state.id } },
        send,
      );
      return succeededIn(moved, 'issueUpdate');
    },
  }),
});
