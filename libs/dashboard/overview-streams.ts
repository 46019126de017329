import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { CheckFeedMessage, FeedMessage } from '../monitoring/index.js';

/** Who a stream is for: an organization, or one customer of it (a client user). */
export interface StreamAudience {
  organizationId: number;
  customerId?: number | undefined;
}

/** A website's change as a stream tells it: its status now and the check that led to it. */
export interface OverviewChange {
  id: number;
  status: CheckFeedMessage['status'];
  check: { at: string; status: CheckFeedMessage['check']; responseMs: number | null };
}

/** Where the changes come from (the feed channel): `deliver` each, `lost` when some may be missed. */
export type ChangeSource = (handlers: {
  deliver(message: FeedMessage): void;
  lost(): void;
}) => Promise<{ close(): Promise<void> }>;

export interface OverviewStreamsOptions {
  source: ChangeSource;
  /** Streams open at once in this process; the next is refused. @defaultValue 1000 */
  maxStreams?: number;
  /** A comment sent this often keeps proxies from closing a quiet stream. @defaultValue 25000 */
  heartbeatMs?: number;
  /** Changes kept to replay to a stream that reconnects with `Last-Event-ID`. @defaultValue 2000 */
  replayable?: number;
  /** A stream whose client reads slower than this many bytes behind is closed (it reconnects and resyncs). @defaultValue 1 MiB */
  maxBufferedBytes?: number;
  /** How often each stream's caller is asked again whether it is still signed in. @defaultValue 5000 */
  recheckMs?: number;
}

/** Whether a stream's caller still holds its token or session (a sign-out elsewhere ends the stream). */
export type StillSignedIn = () => Promise<boolean>;

/** Streams whose callers are asked again at once. */
const RECHECKS_AT_ONCE = 16;

/** What a client is told to wait before reconnecting (the SSE `retry` field). */
const RETRY_MS = 3000;

interface OpenStream extends StreamAudience {
  body: PassThrough;
  stillSignedIn?: StillSignedIn;
}

interface Kept {
  seq: number;
  message: FeedMessage;
  frame: string;
}

/** Whether a change of this website (or customer) may go to this audience. */
export function reaches(audience: StreamAudience, message: FeedMessage): boolean {
  return (
    message.organizationId === audience.organizationId &&
    (audience.customerId === undefined || audience.customerId === message.customerId)
  );
}

/** The change a stream tells of a check (what the overview's row needs, nothing of other tenants). */
export function changeOf(message: CheckFeedMessage): OverviewChange {
  return {
    id: message.websiteId,
    status: message.status,
    check: { at: new Date(message.at).toISOString(), status: message.check, responseMs: message.responseMs },
  };
}

/**
 * The event a message is told as: `change` (a check), `website` (`{"id", "deleted"}`: read its row
 * again) or `customer` (`{"id"}`: read its websites' rows again) — ids only, nothing of other tenants.
 */
export function eventOf(message: FeedMessage): { type: string; data: unknown } {
  if (!('kind' in message)) return { type: 'change', data: changeOf(message) };
  if (message.kind === 'website')
    return { type: 'website', data: { id: message.websiteId, deleted: message.deleted } };
  return { type: 'customer', data: { id: message.customerId } };
}

/**
 * The overview's live streams of one process: one subscription to the change source, fanned out
 * to each open stream its tenant may see, as server-sent events (`change`, `website`, `customer`,
 * `resync`). Each frame is
 * written once per change and shared by every stream that gets it; one heartbeat timer serves them
 * all. A stream reconnecting with the id of a change this process still keeps is replayed what it
 * missed; otherwise (another process, too long away, the source lost) it is told to `resync`.
 */
export class OverviewStreams {
  private readonly streams = new Set<OpenStream>();
  private readonly byOrganization = new Map<number, Set<OpenStream>>();
  private readonly kept: Kept[] = [];
  /** Ids of this process's changes are `<boot>.<seq>`: another process's id is not replayed here. */
  private readonly boot = randomUUID().slice(0, 8);
  private seq = 0;
  private listening: Promise<{ close(): Promise<void> }> | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly recheck: NodeJS.Timeout;
  private rechecking = false;
  private closed = false;

  constructor(private readonly options: OverviewStreamsOptions) {
    this.heartbeat = setInterval(() => this.writeAll(': heartbeat\n\n'), options.heartbeatMs ?? 25_000);
    this.heartbeat.unref();
    this.recheck = setInterval(() => void this.endSignedOut(), options.recheckMs ?? 5_000);
    this.recheck.unref();
  }

  get open(): number {
    return this.streams.size;
  }

  get full(): boolean {
    return this.streams.size >= (this.options.maxStreams ?? 1000);
  }

  /**
   * A new stream for `audience`, once the source is listened to (its failure is thrown: the route
   * answers 503). `lastEventId`: what the client saw last, from a previous stream. Null when full.
   */
  async start(
    audience: StreamAudience,
    lastEventId?: string,
    stillSignedIn?: StillSignedIn,
  ): Promise<Readable | null> {
    if (this.closed || this.full) return null;
    await this.listen();
    if (this.closed || this.full) return null;
    const stream: OpenStream = { ...audience, body: new PassThrough(), stillSignedIn };
    this.streams.add(stream);
    const ofOrganization = this.byOrganization.get(audience.organizationId) ?? new Set();
    ofOrganization.add(stream);
    this.byOrganization.set(audience.organizationId, ofOrganization);
    stream.body.once('close', () => this.forget(stream));
    let first = `retry: ${RETRY_MS}\n\n`;
    if (lastEventId !== undefined) {
      const missed = this.missedSince(lastEventId);
      first += missed
        ? missed
            .filter((kept) => reaches(audience, kept.message))
            .map((kept) => kept.frame)
            .join('')
        : resyncFrame();
    }
    this.write(stream, first);
    return stream.body;
  }

  /** A change from the source: one frame, written to every stream whose tenant it is. */
  deliver(message: FeedMessage): void {
    const audience = this.byOrganization.get(message.organizationId);
    const seq = ++this.seq;
    const event = eventOf(message);
    const frame = `id: ${this.boot}.${seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
    this.kept.push({ seq, message, frame });
    if (this.kept.length > (this.options.replayable ?? 2000)) this.kept.shift();
    for (const stream of audience ?? []) if (reaches(stream, message)) this.write(stream, frame);
  }

  /** The source may have missed changes (Redis was away): every stream reads its overview again. */
  lost(): void {
    this.kept.length = 0;
    this.writeAll(resyncFrame());
  }

  /**
   * Ends the streams whose callers signed out, were signed out or lost their token meanwhile: a
   * stream is authenticated when it opens, and a revoked session must not go on seeing changes. An
   * event `signed-out` tells the app at once; a question that fails (Redis or MongoDB away) keeps
   * the stream until the next round.
   */
  private async endSignedOut(): Promise<void> {
    if (this.rechecking) return;
    this.rechecking = true;
    try {
      const asked = [...this.streams].filter((stream) => stream.stillSignedIn);
      for (let i = 0; i < asked.length; i += RECHECKS_AT_ONCE) {
        await Promise.all(
          asked.slice(i, i + RECHECKS_AT_ONCE).map(async (stream) => {
            const holds = await stream.stillSignedIn?.().catch(() => true);
            if (holds === false && this.streams.has(stream)) {
              stream.body.write('event: signed-out\ndata: {}\n\n');
              stream.body.end();
            }
          }),
        );
      }
    } finally {
      this.rechecking = false;
    }
  }

  /** Ends every stream (the process shuts down) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearInterval(this.recheck);
    for (const stream of [...this.streams]) stream.body.end();
    const listening = this.listening;
    this.listening = null;
    await listening?.then(
      (source) => source.close(),
      () => undefined,
    );
  }

  /** The kept frames after `lastEventId`, or null when they cannot be told (unknown id, too old). */
  private missedSince(lastEventId: string): Kept[] | null {
    const [boot, seqText] = lastEventId.split('.');
    const seen = Number(seqText);
    if (boot !== this.boot || !Number.isInteger(seen) || seen > this.seq) return null;
    const oldest = this.kept[0]?.seq ?? this.seq + 1;
    if (seen < oldest - 1) return null;
    return this.kept.filter((kept) => kept.seq > seen);
  }

  private listen(): Promise<unknown> {
    if (!this.listening) {
      this.listening = this.options.source({
        deliver: (message) => this.deliver(message),
        lost: () => this.lost(),
      });
      // Refused now (Redis away): the next stream asks again.
      this.listening.catch(() => {
        this.listening = null;
      });
    }
    return this.listening;
  }

  private writeAll(frame: string): void {
    for (const stream of this.streams) this.write(stream, frame);
  }

  private write(stream: OpenStream, frame: string): void {
    // A client that does not read is let go rather than buffered without end.
    if (stream.body.writableLength > (this.options.maxBufferedBytes ?? 1024 * 1024)) {
      stream.body.destroy();
      return;
    }
    stream.body.write(frame);
  }

  private forget(stream: OpenStream): void {
    this.streams.delete(stream);
    const ofOrganization = this.byOrganization.get(stream.organizationId);
    ofOrganization?.delete(stream);
    if (ofOrganization?.size === 0) this.byOrganization.delete(stream.organizationId);
  }
}

function resyncFrame(): string {
  return 'event: resync\ndata: {}\n\n';
}
