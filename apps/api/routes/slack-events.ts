import { z } from 'zod';
import type { DeliveryRepository } from '../../../libs/alerts/index.js';
import {
  type GuardedHttp,
  type OpenedChannel,
  parseSlackRequest,
  postSlackMessage,
  saysAck,
  slackSignatureProblem,
  slackUserOf,
  type ThreadReply,
  threadReplies,
  usersInfoCall,
} from '../../../libs/connectors/index.js';
import { decimalId } from '../../../libs/contract/index.js';
import { DomainError, errorMessage, notFound } from '../../../libs/errors/index.js';
import { AppError, defineRoute, type Route } from '../../../libs/http/index.js';
import type { Logger } from '../../../libs/logging/index.js';
import type { MonitorStateRepository } from '../../../libs/monitoring/index.js';
import type { ChannelDocument, ChannelRepository } from '../../../libs/notifications/index.js';
import { normalizeEmail, type UserRepository } from '../../../libs/people/index.js';
import type { Caller, StoredIncident } from './incident-actions.js';

/** Slack's event envelopes are a few KB; a message's text at most 40,000 characters. */
const EVENT_BODY = { maxBytes: 262_144, limitBytes: 262_144 };
/** users.info answers a whole profile, a few KB. */
const USER_ANSWER_BYTES = 65_536;

export interface SlackEventDeps {
  channels: Pick<ChannelRepository, 'findById' | 'list'>;
  /** The channel with its write-only fields opened. */
  open(channel: ChannelDocument): OpenedChannel;
  http: GuardedHttp;
  deliveries: Pick<DeliveryRepository, 'incidentOfExternalRef'>;
  states: Pick<MonitorStateRepository, 'incident'>;
  users: Pick<UserRepository, 'findByEmail'>;
  /** Whether the channel hears the incident's `incident.acknowledged` (its delivery then says it in the thread). */
  announcesAcknowledgement(channel: ChannelDocument, incident: StoredIncident): Promise<boolean>;
  acknowledge(
    organizationId: number,
    incident: StoredIncident,
    caller: Caller,
    note: string | null,
  ): Promise<unknown>;
  /**
   * Whether this is the first time the event is seen (remembered across API processes longer than
   * Slack retries one: 0 s, 1 min and 5 min after).
   */
  firstSight(key: string): Promise<boolean>;
  logger: Logger;
}

type SlackChannel = { document: ChannelDocument; opened: OpenedChannel };

const params = z.strictObject({
  organizationId: decimalId().describe('The organization the channel is of'),
  channelId: decimalId().describe('A Slack channel (bot token) with a signing secret'),
});
const answer = z
  .object({ challenge: z.string().optional().describe('The URL check’s challenge, echoed') })
  .meta({ id: 'SlackEventAnswer' });

/**
 * Slack's Events API for the channels of one Slack app: a person's reply "ack" (or "acknowledge",
 * "on it") in the thread an incident's down message started acknowledges the incident as the
 * webmon person with that Slack user's e-mail. Slack is answered at once; the work follows.
 */
export function slackEventRoutes(deps: SlackEventDeps): Route[] {
  /** The organization's Slack channels of the same app (one signing secret, one events URL for all). */
  const channelsOfApp = async (organizationId: number, secret: string): Promise<SlackChannel[]> =>
    (await deps.channels.list(organizationId))
      .filter(
        (channel) => channel.type === 'slack' && channel.secrets.signingSecret && channel.secrets.botToken,
      )
      .map((document) => ({ document, opened: deps.open(document) }))
      .filter((channel) => channel.opened.secrets.signingSecret === secret);

  const acknowledgeFrom = async (organizationId: number, secret: string, reply: ThreadReply) => {
    const channels = await channelsOfApp(organizationId, secret);
    const thread = await deps.deliveries.incidentOfExternalRef(
      organizationId,
      channels.map((channel) => channel.document.id),
      reply.threadTs,
    );
    const owner = channels.find((channel) => channel.document.id === thread?.channelId);
    const incident = thread && (await deps.states.incident(organizationId, thread.incident));
    // A thread of something else (people talk in threads too): not ours to answer.
    if (!owner || !incident) return;
    const log = deps.logger.child({ channelId: owner.document.id, incident: incident.id });
    const say = async (text: string) => {
      const sent = await postSlackMessage(
        owner.opened,
        { channel: reply.channel, thread_ts: reply.threadTs, text },
        (call, maxBytes) => deps.http.send(call, maxBytes),
      );
      if (sent.verdict !== 'done')
        log.warn({ problem: 'problem' in sent ? sent.problem : sent.reason }, 'Slack thread reply not sent');
    };

    const slackUser = slackUserOf(
      await deps.http.send(usersInfoCall(owner.opened, reply.user), USER_ANSWER_BYTES),
    );
    if ('problem' in slackUser) {
      log.warn({ problem: slackUser.problem }, 'Slack user not read: nothing acknowledged');
      return say(threadReplies.refused(reply.user, `${slackUser.problem}. Acknowledge in webmon.`));
    }
    if (!slackUser.email) return say(threadReplies.noEmail(reply.user));
    const user = await deps.users.findByEmail(normalizeEmail(slackUser.email));
    if (!user || user.organizationId !== organizationId)
      return say(threadReplies.noAccount(reply.user, slackUser.email));
    if (user.role === 'client') return say(threadReplies.clientUser(reply.user));

    const wasAcknowledged = incident.acknowledgement !== null && incident.acknowledgement !== undefined;
    try {
      await deps.acknowledge(
        organizationId,
        incident,
        { type: 'user', id: user.id, name: user.name },
        'Replied in Slack’s thread',
      );
    } catch (error) {
      // Someone else was first, it is over, or the monitor was busy: the thread hears why.
      if ((error instanceof DomainError && error.kind === 'conflict') || error instanceof AppError)
        return say(threadReplies.refused(reply.user, error.detail));
      throw error;
    }
    log.info({ userId: user.id }, 'incident acknowledged from a Slack thread');
    // Said once: by the acknowledgement's own delivery when the channel takes it, else here.
    if (!wasAcknowledged && !(await deps.announcesAcknowledgement(owner.document, incident)))
      await say(threadReplies.acknowledged(user.name));
  };

  return [
    defineRoute({
      method: 'post',
      path: '/api/integrations/slack/:organizationId/:channelId/events',
      operationId: 'receiveSlackEvent',
      summary: 'Slack’s Events API: a reply “ack” in an incident’s thread acknowledges it',
      description:
        'The Request URL of a Slack app’s Event Subscriptions (docs/channels.md). Signed by Slack with the app’s signing secret (the channel’s `signingSecret`): 401 for a wrong signature or a timestamp more than 5 minutes away. Answers the URL check’s challenge; a person’s reply “ack”, “acknowledge(d)” or “on it” in the thread of an incident’s down message (of any Slack channel of the organization with the same signing secret) acknowledges the incident as the webmon person whose e-mail the Slack user has, or replies in the thread why not. Answered at once; an event Slack sends again (same event id) is done once.',
      tags: ['Notification channels'],
      access: 'public',
      params,
      rawBody: EVENT_BODY,
      unaudited: true,
      success: { status: 200, description: 'Received', schema: answer },
      problems: [401, 404],
      handle: async ({ params, ctx }) => {
        const channel = await deps.channels.findById(params.organizationId, params.channelId);
        const secret =
          channel?.type === 'slack' && channel.secrets.signingSecret
            ? deps.open(channel).secrets.signingSecret
            : undefined;
        if (!secret) throw notFound('No Slack channel with a signing secret has this URL');
        const raw = ctx.state.rawBody ?? { bytes: Buffer.alloc(0), truncated: false };
        const problem = raw.truncated
          ? 'The body is larger than Slack’s events are'
          : slackSignatureProblem({
              secret,
              timestamp: ctx.get('x-slack-request-timestamp') || undefined,
              signature: ctx.get('x-slack-signature') || undefined,
              body: raw.bytes,
              now: new Date(),
            });
        if (problem) throw new AppError('unauthorized', { detail: problem });
        ctx.set('Cache-Control', 'no-store');
        const request = parseSlackRequest(raw.bytes);
        if (request.kind === 'challenge') return { challenge: request.challenge };
        if (request.kind !== 'reply' || !saysAck(request.reply.text)) return {};
        const key = `${params.organizationId}:${request.reply.eventId}`;
        if (!(await deps.firstSight(key))) return {};
        // Slack waits 3 s for the answer: users.info and the acknowledgement come after it.
        acknowledgeFrom(params.organizationId, secret, request.reply).catch((error: unknown) =>
          deps.logger.error(
            { err: errorMessage(error), channelId: params.channelId, eventId: request.reply.eventId },
            'acknowledging from a Slack thread failed',
          ),
        );
        return {};
      },
    }),
  ];
}
