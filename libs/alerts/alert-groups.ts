import { Queue as BullQueue, type Queue, type Worker } from 'bullmq';
import type { Collection, Db } from 'mongodb';
import { z } from 'zod';
import { summarize } from '../connectors/index.js';
import { BatchInserter, type CollectionIndexes, chunkedBulkWrite, isDuplicateKey } from '../db/index.js';
import { type EventPayload, isDownEvent } from '../events/index.js';
import { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import type { ChannelDocument, ChannelRepository } from '../notifications/index.js';
import { queueName, quietQueueErrors, type Redis, redisScript, startJobWorker } from '../redis/index.js';

/** Failures one grouped message lists at most (a window rarely holds more; the rest go alone). */
export const MAX_GROUPED = 200;

/**
 * A channel's open window (`_id`: `<channelId>:<c<customer>|o>`); its events are documents of
 * their own (one insert each: FerretDB's updates are a read and a write, so pushes into one array
 * from concurrent dispatches would lose some).
 */
interface AlertWindowDocument {
  _id: string;
  organizationId: number;
  channelId: number;
  opensAt: Date;
  closesAt: Date;
  /** The event that opened it: in its Redis member set unless Redis lost the set meanwhile. */
  firstEventId?: string;
}

/** An event in a window (`_id`: `<window>@<opensAt>/<eventId>`: in it once). */
interface AlertWindowMember {
  _id: string;
  window: string;
  opensAt: Date;
  at: Date;
  payload: EventPayload;
}

export const ALERT_GROUPS = 'alert_groups';
export const ALERT_GROUP_MEMBERS = 'alert_group_members';
export const alertGroupIndexes: CollectionIndexes[] = [
  { collection: ALERT_GROUPS, indexes: [{ key: { closesAt: 1 }, name: 'closes' }] },
  { collection: ALERT_GROUP_MEMBERS, indexes: [{ key: { window: 1, opensAt: 1 }, name: 'window' }] },
];
/** A window this close to its end takes no more events (they go alone): its close may be reading it. */
const CLOSING_MS = 2000;
const FLUSH_QUEUE = 'alert-groups';
/** A window's members in Redis (and an event's mark of being grouped) outlive the longest window (15 min) and its close's retries. */
const SIZE_KEPT_MS = 3_600_000;

/**
 * A join in Redis: refused (-1) once the window is closing, refused (0) when it already holds
 * MAX_GROUPED others, else the member is in (1; again: 1). KEYS: members hash, closing mark.
 */
const JOIN_SCRIPT = redisScript(`
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`);

/** Closes a window to joins and answers its members (HGETALL). KEYS: members hash, closing mark. */
const CLOSE_SCRIPT = redisScript(`
redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
return redis.call('HGETALL', KEYS[1])
`);

/** A close under load may take seconds (its message's delivery is queued in MongoDB): held and waited for that long. */
const CLOSE_LOCK = { ttlMs: 60_000, waitMs: 30_000 };
/** A bound on each batch of members' inserts. */
const MEMBER_WRITE_TIMEOUT_MS = 10_000;

/**
 * An open window as Redis keeps it until it closes (times in ms): every failure of its customer
 * looks it up, and a window is only replaced after it closed, so a copy before its close is current.
 */
const openWindowSchema = z.object({
  _id: z.string(),
  organizationId: z.number().int(),
  channelId: z.number().int(),
  opensAt: z.number().int(),
  closesAt: z.number().int(),
  firstEventId: z.string().optional(),
});

/** A member's primary key: the window, when it opened, the event. */
const memberId = (window: Pick<AlertWindowDocument, '_id' | 'opensAt'>, eventId: string) =>
  `${window._id}@${window.opensAt.getTime()}/${eventId}`;

/** Whether a channel groups this event: an opening failure of a website (not a reminder, not a test). */
export const groupable = (channel: ChannelDocument, payload: EventPayload): boolean =>
  Boolean(channel.grouping) &&
  isDownEvent(payload.type) &&
  payload.data.reminder !== true &&
  payload.data.incident !== null &&
  payload.data.website !== null;

/** The message a closed window sends: its one event, or the first carrying every website of the window. */
export function groupedPayload(
  windowId: string,
  opensAt: Date,
  payloads: readonly EventPayload[],
): EventPayload | null {
  const [first] = payloads;
  if (!first) return null;
  if (payloads.length === 1) return first;
  return {
    ...first,
    id: `group-${windowId}-${opensAt.getTime()}`,
    data: {
      ...first.data,
      group: payloads.map((payload) => ({
        name: payload.data.website?.name ?? 'A website',
        url: payload.data.website?.url ?? '',
        status: payload.data.status,
        reason: summarize(payload).reason,
      })),
    },
  };
}

/**
 * Grouping of a channel's down alerts: the first failure of a customer (or the organization) opens
 * a window in MongoDB (kept in Redis too until it closes, where the failures after it look) and a
 * delayed job closes it; failures within it join (until 2 s before its end); the close sends one
 * message listing them (or the one alone). Later events (recoveries) go one by one as usual.
 */
export class AlertGroups {
  private readonly windows: Collection<AlertWindowDocument>;
  private readonly members: Collection<AlertWindowMember>;
  private readonly queue: Queue<{ windowId: string }>;
  /** Members' MongoDB copies, many to an insert (a group commit). */
  private readonly memberCopies: BatchInserter<AlertWindowMember>;
  /** Held while a window closes (see `flush`). */
  private readonly closing: RedisMutex;

  constructor(
    private readonly deps: {
      db: Db;
      redis: Redis;
      prefix: string;
      channels: Pick<ChannelRepository, 'findById'>;
      /** Queues a delivery (idempotent by the payload's id). */
      enqueue(channel: ChannelDocument, payload: EventPayload): Promise<unknown>;
      logger: Logger;
    },
  ) {
    this.windows = deps.db.collection<AlertWindowDocument>(ALERT_GROUPS);
    this.members = deps.db.collection<AlertWindowMember>(ALERT_GROUP_MEMBERS);
    this.closing = new RedisMutex(deps.redis, deps.prefix, CLOSE_LOCK);
    this.memberCopies = new BatchInserter(this.members, {
      flushEveryMs: 0,
      timeoutMS: MEMBER_WRITE_TIMEOUT_MS,
    });
    this.queue = quietQueueErrors(
      new BullQueue<{ windowId: string }>(queueName(deps.redis, FLUSH_QUEUE), {
        connection: deps.redis,
        prefix: deps.prefix,
      }),
    );
  }

  /**
   * Takes the event into the channel's window when the channel groups it: whether it did. An event
   * grouped before is not grouped again: dispatched twice (the sweep announces an event whose
   * dispatch mark was not written yet), it would join the next window and be listed twice.
   */
  async buffer(channel: ChannelDocument, payload: EventPayload): Promise<boolean> {
    const grouping = channel.grouping;
    if (!grouping || !groupable(channel, payload)) return false;
    const groupedKey = `${this.deps.prefix}:alert-grouped:${channel.id}:${payload.id}`;
    if ((await this.deps.redis.exists(groupedKey)) === 1) return true;
    const taken = await this.place(channel, grouping, payload);
    // Marked after: a crash in between may list it twice, never not at all.
    if (taken) await this.deps.redis.set(groupedKey, '1', 'PX', SIZE_KEPT_MS);
    return taken;
  }

  private async place(
    channel: ChannelDocument,
    grouping: NonNullable<ChannelDocument['grouping']>,
    payload: EventPayload,
  ): Promise<boolean> {
    const key = grouping.by === 'customer' ? `c${payload.data.website?.customerId ?? 0}` : 'o';
    const windowId = `${channel.id}:${key}`;
    for (let tries = 0; tries < 3; tries++) {
      const now = new Date();
      const kept = await this.openWindow(windowId);
      const open = kept ?? (await this.windows.findOne({ _id: windowId }));
      if (open && open.closesAt.getTime() - now.getTime() > CLOSING_MS) {
        if (!kept) await this.rememberOpen(open);
        return this.join(open, payload, now);
      }
      if (open && open.closesAt > now) return false;
      // A window closed but not yet sent (its job is late): sent now, then a new one opens.
      if (open) await this.flush(windowId);
      // Its time from now: the close of the one before may have taken a while.
      const opensAt = new Date();
      const closesAt = new Date(opensAt.getTime() + grouping.windowSeconds * 1000);
      const window = {
        _id: windowId,
        organizationId: channel.organizationId,
        channelId: channel.id,
        opensAt,
        closesAt,
        firstEventId: payload.id,
      };
      try {
        await this.windows.insertOne(window);
      } catch (error) {
        if (isDuplicateKey(error)) continue;
        throw error;
      }
      await this.rememberOpen(window);
      // Its close is queued first: were the opener's join to fail, the window still closes.
      await this.queue.add(
        'flush',
        { windowId },
        {
          jobId: `group-${windowId.replace(':', '-')}-${opensAt.getTime()}`,
          delay: closesAt.getTime() - Date.now(),
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: { count: 1000 },
        },
      );
      // Closed before its opener joined (its insert took the whole window under load): it goes alone.
      return this.join(window, payload, opensAt);
    }
    return false;
  }

  private windowKey(windowId: string): string {
    return `${this.deps.prefix}:alert-window:${windowId}`;
  }

  /** The channel's open window as Redis keeps it (null: none kept, or not readable). */
  private async openWindow(windowId: string): Promise<AlertWindowDocument | null> {
    const kept = await this.deps.redis.get(this.windowKey(windowId));
    if (kept === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(kept);
    } catch {
      return null;
    }
    const parsed = openWindowSchema.safeParse(json);
    if (!parsed.success || parsed.data._id !== windowId) return null;
    const { opensAt, closesAt, ...rest } = parsed.data;
    return { ...rest, opensAt: new Date(opensAt), closesAt: new Date(closesAt) };
  }

  /** Keeps the open window in Redis until it closes; the failures after it find it there. */
  private async rememberOpen(window: AlertWindowDocument): Promise<void> {
    const leftMs = window.closesAt.getTime() - Date.now();
    if (leftMs <= 0) return;
    const kept = { ...window, opensAt: window.opensAt.getTime(), closesAt: window.closesAt.getTime() };
    await this.deps.redis.set(this.windowKey(window._id), JSON.stringify(kept), 'PX', leftMs);
  }

  /**
   * The event joins the window (once): false when the window is full or already closing (its close
   * took its members: the event goes alone). Its payload joins in Redis, where the close reads it,
   * and in MongoDB, which the close reads only when Redis lost the window's members.
   */
  private async join(window: AlertWindowDocument, payload: EventPayload, now: Date): Promise<boolean> {
    const keys = this.keysOf(window);
    const member: AlertWindowMember = {
      _id: memberId(window, payload.id),
      window: window._id,
      opensAt: window.opensAt,
      at: now,
      payload,
    };
    const joined = await JOIN_SCRIPT.run(
      this.deps.redis,
      [keys.members, keys.closed],
      [payload.id, JSON.stringify({ at: now.getTime(), payload }), MAX_GROUPED, SIZE_KEPT_MS],
    );
    // Closing: a copy of it kept in Redis (a close racing its keeping) must not turn more away.
    if (Number(joined) === -1) await this.deps.redis.del(this.windowKey(window._id));
    if (Number(joined) !== 1) return false;
    try {
      await this.memberCopies.insert(member);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    return true;
  }

  /** The window's members (event id → when it joined and its payload) and its closing mark, in Redis (one hash slot). */
  private keysOf(window: Pick<AlertWindowDocument, '_id' | 'opensAt'>): { members: string; closed: string } {
    const tag = `${this.deps.prefix}:alert-group:{${window._id}@${window.opensAt.getTime()}}`;
    return { members: `${tag}:members`, closed: `${tag}:closed` };
  }

  /**
   * Closes the window to joins and takes its members in the order they joined: from Redis, where
   * every join that was not refused as closing is (a join's MongoDB insert may still be on its way).
   * Members without the first one were lost with Redis meanwhile, or the opener has not joined yet
   * (a close that came first is then sent without it, and it goes alone): then MongoDB's too, by a
   * query over every member (a scan on FerretDB), with those only Redis has.
   */
  private async closeWindow(
    window: AlertWindowDocument,
  ): Promise<Array<Pick<AlertWindowMember, 'at' | 'payload'>>> {
    const keys = this.keysOf(window);
    const taken = ((await CLOSE_SCRIPT.run(this.deps.redis, [keys.members, keys.closed], [SIZE_KEPT_MS])) ??
      []) as string[];
    const members = new Map<string, Pick<AlertWindowMember, 'at' | 'payload'>>();
    for (let i = 0; i + 1 < taken.length; i += 2) {
      const { at, payload } = JSON.parse(taken[i + 1] as string) as { at: number; payload: EventPayload };
      members.set(taken[i] as string, { at: new Date(at), payload });
    }
    if (!window.firstEventId || !members.has(window.firstEventId))
      for (const stored of await this.members.find({ window: window._id, opensAt: window.opensAt }).toArray())
        if (!members.has(stored.payload.id)) members.set(stored.payload.id, stored);
    return [...members.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  /**
   * Sends a closed window's message and forgets the window (one not yet closed is left to its time),
   * one close of a channel's window at a time, in every notifier: FerretDB deletes in two steps (it
   * finds the documents matching, then deletes those ids), so a second close of the same window
   * could delete the one opened after it, with its members' message never sent.
   */
  flush(windowId: string): Promise<void> {
    return this.closing.withLock(`alert-window:${windowId}`, () => this.closeAndSend(windowId));
  }

  private async closeAndSend(windowId: string): Promise<void> {
    const window = await this.windows.findOne({ _id: windowId });
    if (!window || window.closesAt > new Date()) return;
    const members = await this.closeWindow(window);
    // Before the window goes: from then on a new one may open and keep its own copy.
    await this.deps.redis.del(this.windowKey(windowId));
    const channel = await this.deps.channels.findById(window.organizationId, window.channelId);
    const payload = groupedPayload(
      windowId,
      window.opensAt,
      members.slice(0, MAX_GROUPED).map((m) => m.payload),
    );
    // Queued before the window goes: a crash in between sends them again, and each delivery is made once.
    if (channel?.enabled && payload) {
      await this.deps.enqueue(channel, payload);
      for (const past of members.slice(MAX_GROUPED)) await this.deps.enqueue(channel, past.payload);
    }
    await this.windows.deleteOne({ _id: windowId, opensAt: window.opensAt });
    await chunkedBulkWrite(
      this.members,
      members.map(({ payload: { id } }) => ({ deleteOne: { filter: { _id: memberId(window, id) } } })),
    );
    if (members.length > 1)
      this.deps.logger.info({ channelId: window.channelId, websites: members.length }, 'grouped alert sent');
  }

  /** Windows whose close was lost (Redis flushed): sent now. */
  async sweep(): Promise<number> {
    const late = await this.windows
      .find({ closesAt: { $lt: new Date(Date.now() - 5000) } }, { projection: { _id: 1 } })
      .limit(500)
      .toArray();
    for (const { _id } of late) await this.flush(_id);
    return late.length;
  }

  startWorker(connection: Redis): Worker {
    return startJobWorker<{ windowId: string }>({
      queue: FLUSH_QUEUE,
      connection,
      prefix: this.deps.prefix,
      logger: this.deps.logger,
      what: 'alert group',
      concurrency: 4,
      process: (job) => this.flush(job.data.windowId),
    });
  }

  async close(): Promise<void> {
    await this.memberCopies.flush();
    await this.queue.close();
  }
}
