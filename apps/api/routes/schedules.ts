import { z } from 'zod';
import { idParams } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import { type AppContext, defineRoute, type Route } from '../../../libs/http/index.js';
import {
  createOverrideBody,
  createScheduleBody,
  type FeedTokens,
  feedsView,
  icalendar,
  type OnCallService,
  onCallQuery,
  onCallView,
  overrideParams,
  overrideView,
  patchScheduleBody,
  personParams,
  personView,
  scheduleView,
  shiftsQuery,
  shiftsView,
  toOverrideView,
  toScheduleView,
} from '../../../libs/oncall/index.js';
import { personOf } from './sessions.js';

const TAGS = ['On-call schedules'];
const DAY_MS = 86_400_000;
/** What a person's calendar feed holds: their shifts this far back and ahead. */
const FEED_PAST_DAYS = 30;
const FEED_AHEAD_DAYS = 90;

export interface ScheduleRouteDependencies {
  onCall: OnCallService;
  feeds: FeedTokens;
}

/** Where people reach the service: PUBLIC_URL's origin, else the one this request came to. */
const originOf = (ctx: AppContext) => ctx.state.publicOrigin ?? `${ctx.protocol}://${ctx.host}`;

/** A person's feed of a schedule; its token is the person's (one for all their schedules). */
const feedPath = (scheduleId: number, userId: number, token: string) =>
  `/api/schedules/${scheduleId}/people/${userId}.ics?token=${encodeURIComponent(token)}`;

/** Schedules, their overrides, who is on call, and each person's feed link (read: viewers; write: editors). */
export function scheduleRoutes({ onCall, feeds }: ScheduleRouteDependencies): Route[] {
  const view = async (organizationId: number, id: number) =>
    toScheduleView(await onCall.get(organizationId, id), await onCall.people(organizationId));
  return [
    defineRoute({
      method: 'get',
      path: '/api/schedules',
      operationId: 'listSchedules',
      summary: 'List the on-call schedules',
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'Schedules, by id', schema: z.array(scheduleView) },
      handle: async ({ auth }) => {
        const [schedules, people] = await Promise.all([
          onCall.list(auth.organizationId),
          onCall.people(auth.organizationId),
        ]);
        return schedules.map((schedule) => toScheduleView(schedule, people));
      },
    }),
    // Before `/api/schedules/:id`, which would take `people` for an id.
    defineRoute({
      method: 'get',
      path: '/api/schedules/people',
      operationId: 'listOnCallPeople',
      summary: 'The people who can be on call: the organization’s users but client users',
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'People, by id', schema: z.array(personView) },
      handle: async ({ auth }) => onCall.people(auth.organizationId),
    }),
    defineRoute({
      method: 'post',
      path: '/api/schedules',
      operationId: 'createSchedule',
      summary: 'Create an on-call schedule',
      description:
        'Layers in order of precedence (a later layer wins where it has someone on call); each rotates its participants at `handoff` on the schedule’s wall clock. Participants must be users of the organization other than client users (400 naming `layers.<i>.participants.<j>`).',
      tags: TAGS,
      access: 'write',
      body: createScheduleBody,
      problems: [409],
      success: { status: 201, description: 'Created', schema: scheduleView },
      handle: async ({ auth, body, ctx }) => {
        const created = await onCall.create(auth.organizationId, body);
        ctx.set('Location', `/api/schedules/${created.id}`);
        return toScheduleView(created, await onCall.people(auth.organizationId));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/schedules/:id',
      operationId: 'getSchedule',
      summary: 'Get an on-call schedule',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The schedule', schema: scheduleView },
      handle: ({ auth, params }) => view(auth.organizationId, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/schedules/:id',
      operationId: 'updateSchedule',
      summary: 'Change an on-call schedule; layers sent replace the layers',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: patchScheduleBody,
      success: { status: 200, description: 'The updated schedule', schema: scheduleView },
      handle: async ({ auth, params, body }) => {
        const updated = await onCall.update(auth.organizationId, params.id, body);
        return toScheduleView(updated, await onCall.people(auth.organizationId));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/schedules/:id',
      operationId: 'deleteSchedule',
      summary: 'Delete an on-call schedule and its overrides',
      tags: TAGS,
      access: 'write',
      params: idParams,
      success: { status: 204, description: 'Deleted' },
      handle: ({ auth, params }) => onCall.delete(auth.organizationId, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/api/schedules/:id/overrides',
      operationId: 'listScheduleOverrides',
      summary: 'The schedule’s overrides, by start (ended ones are kept 90 days)',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'Overrides', schema: z.array(overrideView) },
      handle: async ({ auth, params }) => {
        const schedule = await onCall.get(auth.organizationId, params.id);
        const people = new Map((await onCall.people(auth.organizationId)).map((p) => [p.id, p]));
        return [...schedule.overrides]
          .sort((a, b) => a.from.getTime() - b.from.getTime() || a.id - b.id)
          .map((o) => toOverrideView(schedule.id, o, people.get(o.userId) ?? null));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/schedules/:id/overrides',
      operationId: 'createScheduleOverride',
      summary: 'Someone covers a span: an override wins over every layer',
      description:
        '`to` after `from`, at most 31 days later; `userId` a user of the organization other than a client user. Of overlapping overrides, the one made last wins.',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: createOverrideBody,
      problems: [404, 409],
      success: { status: 201, description: 'Created', schema: overrideView },
      handle: async ({ auth, params, body }) => {
        const created = await onCall.addOverride(auth.organizationId, params.id, body);
        return toOverrideView(params.id, created, await onCall.personOf(auth.organizationId, created.userId));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/schedules/:id/overrides/:overrideId',
      operationId: 'deleteScheduleOverride',
      summary: 'Remove an override',
      tags: TAGS,
      access: 'write',
      params: overrideParams,
      success: { status: 204, description: 'Removed' },
      handle: ({ auth, params }) => onCall.deleteOverride(auth.organizationId, params.id, params.overrideId),
    }),
    defineRoute({
      method: 'get',
      path: '/api/schedules/:id/on-call',
      operationId: 'getOnCall',
      summary: 'Who is on call at an instant (default now), until when, and who is next',
      tags: TAGS,
      access: 'read',
      params: idParams,
      query: onCallQuery,
      success: { status: 200, description: 'Now and next', schema: onCallView },
      handle: async ({ auth, params, query }) => {
        const at = query.at ?? new Date();
        const { now, until, next } = await onCall.onCall(auth.organizationId, params.id, at);
        return {
          at: at.toISOString(),
          now,
          until: until?.toISOString() ?? null,
          next: next && { user: next.user, at: next.at.toISOString() },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/schedules/:id/shifts',
      operationId: 'listScheduleShifts',
      summary: 'Who is on call through a span (a calendar), at most 92 days',
      description:
        'Shifts in order, cut where the person or where it comes from (a layer, an override) changes; a gap where no one is on call.',
      tags: TAGS,
      access: 'read',
      params: idParams,
      query: shiftsQuery,
      success: { status: 200, description: 'The shifts', schema: shiftsView },
      handle: async ({ auth, params, query }) => {
        const schedule = await onCall.get(auth.organizationId, params.id);
        const shifts = await onCall.shifts(auth.organizationId, schedule, query.from, query.to);
        return {
          timezone: schedule.timezone,
          from: query.from.toISOString(),
          to: query.to.toISOString(),
          shifts: shifts.map(({ user, from, to, source }) => ({
            user,
            from: from.toISOString(),
            to: to.toISOString(),
            source: source.kind,
            layer: source.kind === 'layer' ? source.layer : null,
            overrideId: source.kind === 'override' ? source.overrideId : null,
          })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/me/on-call-feeds',
      operationId: 'listMyOnCallFeeds',
      summary: 'Your calendar feed links, one per schedule (for people)',
      description:
        'Links a calendar app subscribes to (it sends no cookie: the link’s token lets it in). One token for all your schedules, made on first use; `DELETE /api/me/on-call-feed-token` revokes it.',
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'Feed links', schema: feedsView },
      handle: async ({ auth, ctx }) => {
        const { userId } = personOf(auth);
        const [schedules, token] = await Promise.all([
          onCall.list(auth.organizationId),
          feeds.tokenOf(auth.organizationId, userId),
        ]);
        return {
          feeds: schedules.map((schedule) => ({
            scheduleId: schedule.id,
            scheduleName: schedule.name,
            url: `${originOf(ctx)}${feedPath(schedule.id, userId, token)}`,
          })),
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/me/on-call-feed-token',
      operationId: 'revokeMyOnCallFeedToken',
      summary: 'Revoke your calendar feed links (the next ones listed have a new token)',
      tags: TAGS,
      access: 'read',
      success: { status: 204, description: 'Revoked' },
      handle: async ({ auth }) => feeds.revoke(auth.organizationId, personOf(auth).userId),
    }),
  ];
}

/**
 * A person's shifts of a schedule as iCalendar, for calendar apps: public (they send no cookie),
 * let in by the person's feed token; an unknown or revoked token, a person no longer on call in
 * the organization and another organization's schedule all answer the same 404.
 */
export function scheduleFeedRoutes({ onCall, feeds }: ScheduleRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/schedules/:id/people/:userId.ics',
      operationId: 'getOnCallFeed',
      summary: 'A person’s on-call shifts as an iCalendar feed (RFC 5545)',
      description: `Their shifts from ${FEED_PAST_DAYS} days ago to ${FEED_AHEAD_DAYS} days ahead, one event each, in UTC. The link comes from \`GET /api/me/on-call-feeds\`.`,
      tags: TAGS,
      access: 'public',
      params: personParams,
      query: z.strictObject({ token: z.string().min(1).max(100).describe('The person’s feed token') }),
      problems: [404],
      success: {
        status: 200,
        description: 'The calendar',
        contentType: 'text/calendar; charset=utf-8',
        schema: z.string(),
        headers: ['Cache-Control'],
      },
      handle: async ({ params, query, ctx }) => {
        const none = notFound('No such feed');
        const organizationId = await feeds.organizationOf(params.userId, query.token);
        if (organizationId === null) throw none;
        const [schedule, person] = await Promise.all([
          onCall.find(organizationId, params.id),
          onCall.personOf(organizationId, params.userId),
        ]);
        if (!schedule || !person) throw none;
        const now = Date.now();
        const shifts = await onCall.shiftsOf(
          schedule,
          person.id,
          new Date(now - FEED_PAST_DAYS * DAY_MS),
          new Date(now + FEED_AHEAD_DAYS * DAY_MS),
        );
        const summary = `On call: ${schedule.name}`;
        ctx.set('Cache-Control', 'private, max-age=300');
        return icalendar({
          name: summary,
          stamp: new Date(now),
          events: shifts.map((shift) => ({
            uid: `oncall-${schedule.id}-${person.id}-${shift.from.getTime()}@webmon`,
            from: shift.from,
            to: shift.to,
            summary,
            description: `${person.name} is on call for ${schedule.name} (handoffs in ${schedule.timezone}).`,
          })),
        });
      },
    }),
  ];
}
