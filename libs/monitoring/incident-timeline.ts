import type { Db } from 'mongodb';
import { z } from 'zod';
import { type ListHints, NumberedLists } from '../db/index.js';
import type { EventKind } from '../events/index.js';
import { ListTopHints, type Redis } from '../redis/index.js';
import type { MonitorStateDocument } from './monitor-state.js';
import type { RegionTrack } from './status-machine.js';

/** What an incident's timeline lists, in the order steps at one instant are shown. */
export const TIMELINE_KINDS = [
  'failure',
  'confirmed',
  'alert',
  'escalation',
  'held',
  'acknowledged',
  'note',
  'maintenance.started',
  'maintenance.ended',
  'recovery',
  'resolved',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** Who took a step: a person, an API token, or the monitor itself. */
export const timelineActorSchema = z.object({
  type: z.enum(['system', 'user', 'token']),
  id: z.number().int().nullable(),
  name: z.string(),
});
export type TimelineActor = z.infer<typeof timelineActorSchema>;
export const SYSTEM: TimelineActor = { type: 'system', id: null, name: 'webmon' };

/** An alert step: the delivery of one of the incident's events that ended. */
export const timelineAlertSchema = z.object({
  channelId: z.number().int(),
  channelName: z.string(),
  channelType: z.string(),
  eventType: z.string(),
  status: z.enum(['succeeded', 'failed']),
});

/** An escalation step: the policy, where in it, and who it notified (each target's outcome in `text`). */
export const timelineEscalationSchema = z.object({
  policyId: z.number().int(),
  policyName: z.string(),
  round: z.number().int(),
  step: z.number().int(),
});

/** One step of an incident as stored (dates as MongoDB gives them). */
export const timelineEntrySchema = z.object({
  /** The same step written twice (a replayed transition) has the same key: readers show it once. */
  key: z.string(),
  at: z.date(),
  kind: z.enum(TIMELINE_KINDS),
  by: timelineActorSchema,
  region: z.string().nullable(),
  /** The cause (confirmed), a note's or an acknowledgement's text, an alert's outcome. */
  text: z.string().nullable(),
  /** A note shown on the status pages (root cause). */
  public: z.boolean().optional(),
  /** The result a failure or recovery was seen in. */
  resultId: z.string().nullable().optional(),
  alert: timelineAlertSchema.optional(),
  escalation: timelineEscalationSchema.optional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** When a down region's run of failures began (tracks from before it was kept: its latest result, else `at`). */
export function runStart(track: RegionTrack, at: Date): Date {
  return new Date(track.downSince ?? track.lastResultAt ?? at.getTime());
}

const step = (
  fields: Pick<TimelineEntry, 'key' | 'at' | 'kind'> & Partial<TimelineEntry>,
): TimelineEntry => ({ by: SYSTEM, region: null, text: null, ...fields });

/**
 * The steps a transition of the monitor state adds to its incident's timeline (pure): when an
 * incident opens, each down region's first failure and the confirmation; while one is open, a
 * region starting to fail or recovering, maintenance starting or ending; and its resolution.
 */
export function transitionSteps(input: {
  base: MonitorStateDocument;
  next: MonitorStateDocument;
  at: Date;
  opened: { id: string; cause: string } | null;
  resolved: string | null;
  events: ReadonlyArray<{ type: EventKind }>;
}): Array<{ incidentId: string; entry: TimelineEntry }> {
  const { base, next, at, opened, resolved } = input;
  const incidentId = opened?.id ?? resolved ?? base.openIncidentId;
  if (!incidentId) return [];
  const steps: TimelineEntry[] = [];
  for (const [region, track] of Object.entries(next.regions)) {
    const before = base.regions[region];
    const wasDown = before?.lastStatus === 'down';
    if (track.lastStatus === 'down' && (opened || !wasDown)) {
      const since = runStart(track, at);
      steps.push(
        step({
          key: `failure:${region}:${since.getTime()}`,
          at: since,
          kind: 'failure',
          region,
          resultId: track.firstDownResultId ?? null,
        }),
      );
    } else if (!opened && wasDown && track.lastStatus !== 'down') {
      const back = new Date(track.lastResultAt ?? at.getTime());
      steps.push(step({ key: `recovery:${region}:${back.getTime()}`, at: back, kind: 'recovery', region }));
    }
  }
  if (opened) steps.push(step({ key: 'confirmed', at, kind: 'confirmed', text: opened.cause }));
  for (const event of input.events)
    if (event.type === 'maintenance.started' || event.type === 'maintenance.ended')
      steps.push(step({ key: `${event.type}:${at.getTime()}`, at, kind: event.type }));
  if (resolved) steps.push(step({ key: 'resolved', at, kind: 'resolved' }));
  return steps.map((entry) => ({ incidentId, entry }));
}

/** Steps in the order they happened; at one instant, in the order of `TIMELINE_KINDS`. */
export function inOrder(entries: readonly TimelineEntry[]): TimelineEntry[] {
  const seen = new Set<string>();
  const unique = entries.filter((entry) => !seen.has(entry.key) && seen.add(entry.key));
  return unique.sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() || TIMELINE_KINDS.indexOf(a.kind) - TIMELINE_KINDS.indexOf(b.kind),
  );
}

export const INCIDENT_TIMELINES = 'incident_timelines';

/** Each timeline's last step number, left in Redis by every writer (the worker, the API, notifiers). */
export function timelineHints(redis: Redis, prefix: string): ListHints {
  return new ListTopHints(redis, `${prefix}:list-top:${INCIDENT_TIMELINES}`);
}
/** A timeline is read whole; past this many steps (a flapping region for weeks) the oldest are left out. */
const TIMELINE_READ_LIMIT = 2000;
/** A group of a busy writer's steps waits at most this for MongoDB (a failure is the notifier's to log). */
const BUSY_WRITE_TIMEOUT_MS = 10_000;

/**
 * Incident timelines: one numbered list per incident (`<incidentId>/<n>`), appended by the
 * monitor's transitions, the notifier and the API, read by primary key.
 */
export class IncidentTimelines {
  private readonly lists: NumberedLists<TimelineEntry>;

  /**
   * `busy`: for the notifier, which appends a step for every alert it settles, many at once: those
   * go to MongoDB together, and the counter is raised every 16th step: an incident's alerts and
   * escalation steps rarely reach it (readers probe past it, 8 at once). `hints`
   * (`timelineHints`): a writer's first step of an incident starts after the last one's number,
   * without reading the counter.
   */
  constructor(db: Db, options: { busy?: boolean; hints?: ListHints } = {}) {
    this.lists = new NumberedLists<TimelineEntry>(db, INCIDENT_TIMELINES, {
      ...(options.busy ? { raiseTopEvery: 16, groupCommit: { timeoutMS: BUSY_WRITE_TIMEOUT_MS } } : {}),
      ...(options.hints ? { hints: options.hints } : {}),
    });
  }

  async append(
    incidentId: string,
    entry: TimelineEntry,
    options: { timeoutMS?: number } = {},
  ): Promise<void> {
    await this.appendAll(incidentId, [entry], options);
  }

  /** Several steps of one incident, in order, in one write when nothing else appended meanwhile. */
  async appendAll(
    incidentId: string,
    entries: readonly TimelineEntry[],
    options: { timeoutMS?: number } = {},
  ): Promise<void> {
    await this.lists.appendMany(
      incidentId,
      entries.map((entry) => timelineEntrySchema.parse(entry)),
      options,
    );
  }

  /** The incident's steps in order, each once. */
  async of(incidentId: string): Promise<TimelineEntry[]> {
    const entries: TimelineEntry[] = [];
    for await (const { n: _n, ...stored } of this.lists.newestFirst(incidentId, 16)) {
      const parsed = timelineEntrySchema.safeParse(stored);
      if (parsed.success) entries.push(parsed.data);
      if (entries.length >= TIMELINE_READ_LIMIT) break;
    }
    return inOrder(entries);
  }
}
