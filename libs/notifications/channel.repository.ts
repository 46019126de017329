import type { Db } from 'mongodb';
import type { OpenedChannel } from '../connectors/index.js';
import { type CollectionIndexes, isDuplicateKey, KEY_LOOKUPS, TenantResources } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import { EVENT_KINDS } from '../events/index.js';
import type { Logger } from '../logging/index.js';
import { KeptRecords, type Redis, Revisions } from '../redis/index.js';
import { type ResealReport, resealCollection, type SealedSecret, type SecretBox } from '../secrets/index.js';
import type { TemplateProblem } from '../templates/index.js';
import type { ChannelType, ConfigValue, EventKind } from './channel.schema.js';
import type { ChannelGrouping } from './channel-fields.schema.js';

export interface ChannelDocument {
  id: number;
  organizationId: number;
  type: ChannelType;
  name: string;
  enabled: boolean;
  events: EventKind[];
  /** customerId null: not tied to a customer. */
  scope: { customerId: number | null; listedOnly: boolean };
  /** The type's config without its write-only fields. */
  config: Record<string, ConfigValue>;
  /** Write-only fields, sealed; a webhook's signing secret is `secret`, the one it replaced `previousSecret`. */
  secrets: Record<string, SealedSecret>;
  /** Until when a rotated-out webhook secret still signs (beside the new one). */
  previousSecretUntil?: Date | null;
  /** The message template (Liquid); null or absent (channels made before templates): the default message. */
  template?: string | null;
  /** Why the template was not used for the last delivery that rendered it; null once one renders. */
  templateProblem?: ChannelTemplateProblem | null;
  /** What the receiver's last failed attempt met; null once a delivery gets through. */
  deliveryProblem?: ChannelDeliveryProblem | null;
  /** Down alerts grouped within a window (null or absent: each alone). */
  grouping?: ChannelGrouping | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Attempts that did not get through: since when (the first failure after a success), the last one
 * noted (when, what it met, the event it carried).
 */
export interface ChannelDeliveryProblem {
  since: Date;
  at: Date;
  message: string;
  eventType: EventKind;
}

export interface ChannelTemplateProblem extends TemplateProblem {
  at: Date;
  eventType: EventKind;
}

export const NOTIFICATION_CHANNELS = 'notification_channels';
/** Channels one organization may have. */
export const MAX_CHANNELS_PER_ORGANIZATION = 500;

/**
 * Event kinds added after channels existed, oldest first, each with its marker: a channel that took
 * every event there was before them (the default) takes them too; one with a chosen list is left as
 * it was. Each once.
 */
const ADDED_EVENT_KINDS = [
  {
    kinds: /^(icmp|udp|grpc|websocket|smtp|imap|pop3)\./,
    marker: '~backfilled/notification_channels.events.probe-kinds',
  },
  { kinds: /^api-flow\./, marker: '~backfilled/notification_channels.events.api-flow' },
  { kinds: /^browser\./, marker: '~backfilled/notification_channels.events.browser' },
  {
    kinds: /^(crawl|lighthouse|site)\./,
    marker: '~backfilled/notification_channels.events.site-health',
  },
];

async function subscribeToAddedKinds(db: Db): Promise<void> {
  const markers = db.collection<{ _id: string }>(KEY_LOOKUPS);
  const channels = db.collection<ChannelDocument>(NOTIFICATION_CHANNELS);
  for (const [index, { kinds, marker }] of ADDED_EVENT_KINDS.entries()) {
    if (await markers.findOne({ _id: marker })) continue;
    // What there was before this generation: neither it nor any later one.
    const later = ADDED_EVENT_KINDS.slice(index);
    const before = EVENT_KINDS.filter((kind) => !later.some((added) => added.kinds.test(kind)));
    const added = EVENT_KINDS.filter((kind) => kinds.test(kind));
    for (const channel of await channels.find({}, { projection: { _id: 1, events: 1 } }).toArray())
      if (before.every((kind) => channel.events.includes(kind)))
        await channels.updateOne({ _id: channel._id }, { $addToSet: { events: { $each: added } } });
    await markers.insertOne({ _id: marker }).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  }
}

export const channelIndexes: CollectionIndexes = {
  collection: NOTIFICATION_CHANNELS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
  ],
  backfill: subscribeToAddedKinds,
};

/** Bound into each sealed field, so it opens only as that field of its channel. */
export const channelSecretContext = (channelId: number, field: string) =>
  `notification-channels/${channelId}/${field}`;

/**
 * The channel with its write-only fields opened, only to send with; a rotated-out secret only
 * while its grace lasts.
 */
export function openChannel(channel: ChannelDocument, box: SecretBox, now = Date.now()): OpenedChannel {
  const graceOver = !channel.previousSecretUntil || channel.previousSecretUntil.getTime() <= now;
  const secrets = Object.fromEntries(
    Object.entries(channel.secrets)
      .filter(([field]) => !(field === 'previousSecret' && graceOver))
      .map(([field, sealed]) => [field, box.open(sealed, channelSecretContext(channel.id, field))]),
  );
  return { config: channel.config, secrets };
}

/** Each organization's channel list's revision (`Revisions`), moved after every write to one of its channels. */
export function channelListRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:channel-list-rev`);
}

/**
 * A list kept whose revision still holds is read again after this long: a write that did not move
 * the revision (Redis did not answer, a write straight to the database) shows within it.
 */
const KEPT_LIST_MAX_AGE_MS = 60_000;
/** Organizations whose lists a process keeps at most; the least recently read go first. */
const KEPT_LISTS = 5_000;

interface ChannelList {
  /** The organization's id. */
  id: number;
  channels: ChannelDocument[];
}

/** Logs a revision not moved: the write is stored, lists kept elsewhere show it within a minute. */
export const channelRevisionWarning = (logger: Logger) => (error: unknown, organizationId: number) =>
  logger.warn(
    { err: errorMessage(error), organizationId },
    'could not move the channel list’s revision: notifiers may use the channels as before for a minute',
  );

export interface ChannelRevisionOptions {
  /** The lists' revisions (`channelListRevisions`): every write moves its organization's. */
  revisions: Revisions;
  /**
   * Keep each organization's list in memory while its revision holds (the notifier: every event
   * reads its organization's channels, every attempt its channel), so a read costs a Redis GET.
   */
  keepLists?: boolean;
  /** Told when a revision could not be moved (the write is stored; kept lists show it within a minute). */
  onRevisionError?: (error: unknown, organizationId: number) => void;
}

export class ChannelRepository {
  private readonly channels: TenantResources<ChannelDocument>;
  private readonly keptLists: KeptRecords<ChannelList> | null;

  constructor(
    db: Db,
    private readonly revised?: ChannelRevisionOptions,
  ) {
    this.channels = new TenantResources(db, NOTIFICATION_CHANNELS);
    this.keptLists = revised?.keepLists
      ? new KeptRecords(revised.revisions, { capacity: KEPT_LISTS, maxAgeMs: KEPT_LIST_MAX_AGE_MS })
      : null;
  }

  /** After a write to one of the organization's channels: lists kept anywhere read it again. */
  private async written(organizationId: number): Promise<void> {
    if (!this.revised) return;
    try {
      await this.revised.revisions.bump(organizationId);
    } catch (error) {
      this.revised.onRevisionError?.(error, organizationId);
    }
  }

  /**
   * The organization's channels, from memory while its list's revision holds (when lists are kept;
   * dispatches missing it at once share one read: a scan on FerretDB).
   */
  private async allOf(organizationId: number): Promise<ChannelDocument[]> {
    if (!this.keptLists) return this.channels.findMany(organizationId, {});
    const kept = await this.keptLists.get(
      organizationId,
      (list) => list.id === organizationId,
      async () => ({ id: organizationId, channels: await this.channels.findMany(organizationId, {}) }),
    );
    return kept?.channels ?? [];
  }

  /** A channel's id before it is stored: its secrets are sealed for it. */
  allocateId(): Promise<number> {
    return this.channels.allocateId();
  }

  /** Stores a new channel, its id from `allocateId`. */
  async insert(document: ChannelDocument): Promise<void> {
    await this.channels.scoped.insertOne({ ...document });
    await this.written(document.organizationId);
  }

  list(organizationId: number, filter: { customerId?: number } = {}): Promise<ChannelDocument[]> {
    if (filter.customerId === undefined) return this.allOf(organizationId);
    return this.channels.findMany(organizationId, { 'scope.customerId': filter.customerId });
  }

  /**
   * Whether any organization has an enabled channel of the type: one document at most, but a scan
   * on FerretDB (no index on type), so callers on a request path remember the answer.
   */
  async anyEnabledOfType(type: ChannelType): Promise<boolean> {
    const found = await this.channels.scoped.collection.findOne(
      { type, enabled: true },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  count(organizationId: number): Promise<number> {
    return this.channels.scoped.countDocuments(organizationId, {});
  }

  countScopedTo(organizationId: number, customerId: number): Promise<number> {
    return this.channels.scoped.countDocuments(organizationId, { 'scope.customerId': customerId });
  }

  async findById(organizationId: number, id: number): Promise<ChannelDocument | null> {
    if (!this.keptLists) return this.channels.findById(organizationId, id);
    return (await this.allOf(organizationId)).find((channel) => channel.id === id) ?? null;
  }

  findByIds(organizationId: number, ids: readonly number[]): Promise<ChannelDocument[]> {
    return this.channels.findByIds(organizationId, ids);
  }

  /** Writes every field but the identity ones, with `updatedAt` now; the caller holds the channel's lock. */
  async replace(document: ChannelDocument): Promise<ChannelDocument> {
    const replaced = await this.channels.replace(document);
    await this.written(document.organizationId);
    return replaced;
  }

  /**
   * Disables the channel and nothing else: one conditional update of `enabled`, so a PATCH or a
   * secret rotation made while a delivery was in flight (outside the channel lock) is kept.
   */
  async disable(organizationId: number, id: number, at: Date): Promise<void> {
    await this.channels.scoped.updateOne(
      organizationId,
      { id, enabled: true },
      { $set: { enabled: false, updatedAt: at } },
    );
    await this.written(organizationId);
  }

  /**
   * Records why the template did not render, if it is still the channel's template (a change made
   * meanwhile starts afresh); only this field, as `disable` does.
   */
  async recordTemplateProblem(
    channel: Pick<ChannelDocument, 'organizationId' | 'id' | 'template'>,
    problem: ChannelTemplateProblem,
  ): Promise<void> {
    await this.channels.updateFieldsIf(
      channel.organizationId,
      channel.id,
      { template: channel.template ?? null },
      { $set: { templateProblem: problem } },
    );
    await this.written(channel.organizationId);
  }

  /** Forgets the template's last problem once it renders again. */
  async clearTemplateProblem(
    channel: Pick<ChannelDocument, 'organizationId' | 'id' | 'template'>,
  ): Promise<void> {
    await this.channels.updateFieldsIf(
      channel.organizationId,
      channel.id,
      { template: channel.template ?? null },
      { $set: { templateProblem: null } },
    );
    await this.written(channel.organizationId);
  }

  /**
   * Notes what a failed attempt met (only this field, as `disable` does): a first failure starts
   * the problem; a later one replaces the last noted only once that is `staleMs` old, as each write
   * makes every notifier read the organization's channels again. Written only when it changes
   * something, whatever copy of the channel the caller holds.
   */
  async noteDeliveryProblem(
    channel: Pick<ChannelDocument, 'organizationId' | 'id'>,
    attempt: Omit<ChannelDeliveryProblem, 'since'>,
    staleMs: number,
  ): Promise<void> {
    const first = await this.channels.scoped.updateOne(
      channel.organizationId,
      { id: channel.id, deliveryProblem: null },
      { $set: { deliveryProblem: { since: attempt.at, ...attempt } } },
    );
    const noted =
      first ||
      (await this.channels.scoped.updateOne(
        channel.organizationId,
        { id: channel.id, 'deliveryProblem.at': { $lt: new Date(attempt.at.getTime() - staleMs) } },
        {
          $set: {
            'deliveryProblem.at': attempt.at,
            'deliveryProblem.message': attempt.message,
            'deliveryProblem.eventType': attempt.eventType,
          },
        },
      ));
    if (noted) await this.written(channel.organizationId);
  }

  /** Forgets the problem once a delivery gets through (written only when there is one). */
  async clearDeliveryProblem(channel: Pick<ChannelDocument, 'organizationId' | 'id'>): Promise<void> {
    const cleared = await this.channels.scoped.updateOne(
      channel.organizationId,
      { id: channel.id, deliveryProblem: { $ne: null } },
      { $set: { deliveryProblem: null } },
    );
    if (cleared) await this.written(channel.organizationId);
  }

  /** Seals write-only fields sealed under an older SECRETS_KEY again under the current one. */
  resealSecrets(box: SecretBox, onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealCollection({
      collection: this.channels.scoped.collection,
      box,
      filter: {},
      sealedFieldsOf: (channel) =>
        Object.entries(channel.secrets).map(([field, sealed]) => ({
          path: `secrets.${field}`,
          sealed,
          context: channelSecretContext(channel.id, field),
        })),
      onProgress,
    });
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.channels.delete(organizationId, id);
    await this.written(organizationId);
    return deleted;
  }
}
