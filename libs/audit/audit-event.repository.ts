import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import {
  AUDIT_RETENTION_DAYS,
  type AuditEventDocument,
  auditEventDocument,
  type NewAuditEvent,
} from './audit-event.schema.js';

export const AUDIT_EVENTS = 'audit_events';
/** Per organization: the last number handed out (`seq/<org>`) and the lowest kept (`floor/<org>`). */
export const AUDIT_HEADS = 'audit_heads';
const DAY_MS = 86_400_000;

/** Nothing beyond `_id`: every read and delete goes by primary key (FerretDB 1.24 scans on anything else). */
export const auditEventIndexes: CollectionIndexes = { collection: AUDIT_EVENTS, indexes: [] };

interface HeadDocument {
  _id: string;
  value: number;
}

/** How far one listing request walks (events read) before it answers a short page and a cursor. */
export const MAX_EXAMINED = 1_000;
/** Events read at once while walking. */
const READ_BATCH = 16;
/** How recent this process's last number must be for the next to be tried without the head. */
const GUESS_WITHIN_MS = 60_000;
/** API processes' clocks and concurrent writes: events may be this much out of time order. */
const CLOCK_SKEW_MS = 60_000;

export const eventKey = (organizationId: number, seq: number) =>
  `${organizationId}/${String(seq).padStart(12, '0')}`;

export interface AuditQuery {
  from?: Date;
  to?: Date;
  /** The user's or token's events (both, with this id, without a type). */
  actor?: { id: number; type?: 'user' | 'token' };
  resource?: string;
  /** Only events numbered below this (the previous page's cursor). */
  before?: number;
  limit: number;
}

/**
 * The audit log. Each organization's events are numbered 1, 2, 3…, and stored under
 * `_id: "<org>/<number>"`: FerretDB 1.24 answers only an exact `_id` from an index (ranges and every
 * other filter scan the collection; test/audit-log.test.ts explains each read), so a listing walks
 * back from the newest number one primary-key read at a time (16 at once), and `to` is found by
 * bisecting the numbers (events are numbered in time order, within the clocks' skew). A number is
 * claimed by inserting its document under its unique `_id` (a `$inc` only proposes it: FerretDB's is
 * not atomic), so two API processes never share one.
 */
export class AuditEventRepository {
  readonly collection: Collection<AuditEventDocument>;
  private readonly heads: Collection<HeadDocument>;
  private readonly pending = new Map<number, Promise<unknown>>();
  /** The number this process stored last, per organization, and when. */
  private readonly lastStored = new Map<number, { seq: number; at: number }>();

  constructor(db: Db) {
    this.collection = db.collection<AuditEventDocument>(AUDIT_EVENTS);
    this.heads = db.collection<HeadDocument>(AUDIT_HEADS);
  }

  /** Stores an event under the organization's next number (this process's writes queue per organization). */
  append(event: NewAuditEvent): Promise<AuditEventDocument> {
    const previous = this.pending.get(event.organizationId) ?? Promise.resolve();
    const stored = previous.then(() => this.insert(event));
    const appended = stored.then(({ document }) => document);
    // The next event of the organization waits for this one's head raise too (FerretDB's update is
    // a read and a write: two raises at once could leave the lower number), the caller does not.
    const settled = stored.then(({ headRaised }) => headRaised).catch(() => undefined);
    this.pending.set(event.organizationId, settled);
    void settled.then(() => {
      if (this.pending.get(event.organizationId) === settled) this.pending.delete(event.organizationId);
    });
    return appended;
  }

  private async insert(
    event: NewAuditEvent,
  ): Promise<{ document: AuditEventDocument; headRaised?: Promise<unknown> }> {
    const { organizationId } = event;
    // The number after the one this process stored last is tried first: one write instead of two
    // (the head's `$inc`, then the insert) on a write's path. Taken (another process wrote one):
    // the head hands out the next as before.
    const last = this.lastStored.get(organizationId);
    // Only a recent one: a number long unused here could lie below events removed by retention.
    const recent = last !== undefined && Date.now() - last.at < GUESS_WITHIN_MS;
    const guessed = recent ? await this.claim(event, last.seq + 1) : null;
    if (guessed) {
      this.lastStored.set(organizationId, { seq: guessed.seq, at: Date.now() });
      // Listings start from the head and walk past numbers stored beyond it, so it may follow late.
      const headRaised = this.heads
        .updateOne({ _id: `seq/${organizationId}` }, { $max: { value: guessed.seq } }, { upsert: true })
        .catch(() => {});
      return { document: guessed, headRaised };
    }
    for (let attempt = 0; attempt < 1_000; attempt++) {
      const claimed = await this.claim(event, await this.increment(`seq/${organizationId}`));
      if (claimed) {
        this.lastStored.set(organizationId, { seq: claimed.seq, at: Date.now() });
        return { document: claimed };
      }
    }
    throw new Error(`no audit event number for organization ${organizationId}`);
  }

  /** Stores the event under `seq`, or null when that number is taken. */
  private async claim(event: NewAuditEvent, seq: number): Promise<AuditEventDocument | null> {
    const document = auditEventDocument.parse({
      ...event,
      _id: eventKey(event.organizationId, seq),
      seq,
      expiresAt: new Date(event.at.getTime() + AUDIT_RETENTION_DAYS * DAY_MS),
    });
    try {
      await this.collection.insertOne(document);
      return document;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return null;
    }
  }

  private async increment(key: string): Promise<number> {
    for (;;) {
      try {
        const head = await this.heads.findOneAndUpdate(
          { _id: key },
          { $inc: { value: 1 } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!head) throw new Error(`audit head ${key} was not returned`);
        return head.value;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
  }

  private async headValue(key: string): Promise<number> {
    return (await this.heads.findOne({ _id: key }))?.value ?? 0;
  }

  private find(organizationId: number, seq: number): Promise<AuditEventDocument | null> {
    return this.collection.findOne({ _id: eventKey(organizationId, seq) });
  }

  /** The highest number whose event is at or before `to` (a missing one counts as before). */
  private async numberAt(organizationId: number, to: Date, low: number, high: number): Promise<number> {
    let lo = low;
    let hi = high;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const event = await this.find(organizationId, mid);
      if (!event || event.at.getTime() <= to.getTime() + CLOCK_SKEW_MS) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * A page of the organization's events, newest first. `nextCursor` is the number to continue
   * below; a page is short when the walk reached `MAX_EXAMINED` events without filling it.
   */
  async page(
    organizationId: number,
    query: AuditQuery,
  ): Promise<{ items: AuditEventDocument[]; nextCursor: number | null }> {
    const floor = Math.max(await this.headValue(`floor/${organizationId}`), 0);
    let start = await this.headValue(`seq/${organizationId}`);
    // FerretDB's `$inc` is not atomic: two racing ones can leave the counter below the newest event.
    while (await this.find(organizationId, start + 1)) start++;
    if (query.before !== undefined) start = Math.min(start, query.before - 1);
    if (query.to && start > floor) start = await this.numberAt(organizationId, query.to, floor, start);
    const items: AuditEventDocument[] = [];
    let next = start;
    let examined = 0;
    while (next > floor && items.length < query.limit) {
      if (examined >= MAX_EXAMINED) return { items, nextCursor: next + 1 };
      const top = next;
      const numbers = Array.from({ length: Math.min(READ_BATCH, top - floor) }, (_, i) => top - i);
      const events = await Promise.all(numbers.map((seq) => this.find(organizationId, seq)));
      for (const [index, seq] of numbers.entries()) {
        const event = events[index];
        examined++;
        next = seq - 1;
        if (!event) continue;
        if (query.from && event.at.getTime() < query.from.getTime() - CLOCK_SKEW_MS)
          return { items, nextCursor: null };
        if (matches(event, query)) {
          items.push(event);
          if (items.length === query.limit) return { items, nextCursor: next > floor ? event.seq : null };
        }
      }
    }
    return { items, nextCursor: null };
  }

  /**
   * Retention: deletes each organization's events past `expiresAt`, oldest first, by primary key,
   * and raises its floor (where listings stop). Returns how many were deleted.
   */
  async deleteExpired(now: Date): Promise<number> {
    let deleted = 0;
    const organizations = await this.heads
      .find({}, { projection: { _id: 1 } })
      .map((head) => head._id)
      .toArray();
    for (const key of organizations) {
      if (!key.startsWith('seq/')) continue;
      const organizationId = Number(key.slice(4));
      const top = await this.headValue(key);
      let floor = await this.headValue(`floor/${organizationId}`);
      while (floor < top) {
        const event = await this.find(organizationId, floor + 1);
        // The newest number may be handed out and not yet written: never step over it.
        if (!event && floor + 1 >= top) break;
        if (event && event.expiresAt.getTime() > now.getTime()) break;
        if (event) {
          await this.collection.deleteOne({ _id: event._id });
          deleted++;
        }
        floor++;
      }
      await this.heads.updateOne(
        { _id: `floor/${organizationId}` },
        { $set: { value: floor } },
        { upsert: true },
      );
    }
    return deleted;
  }
}

function matches(event: AuditEventDocument, query: AuditQuery): boolean {
  if (query.from && event.at < query.from) return false;
  if (query.to && event.at > query.to) return false;
  if (query.actor && event.actor.id !== query.actor.id) return false;
  if (query.actor?.type && event.actor.type !== query.actor.type) return false;
  if (query.resource !== undefined && event.resource !== query.resource) return false;
  return true;
}
