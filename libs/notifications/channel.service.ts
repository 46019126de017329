import { randomBytes } from 'node:crypto';
import { CHANNEL_TYPES, connectorOf, type MailAttachment, sendChannelMail } from '../connectors/index.js';
import { parseInput } from '../contract/index.js';
import { customerLock } from '../customers/index.js';
import { conflict, invalidInput, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { SealedSecret, SecretBox } from '../secrets/index.js';
import { refusedUrl, type TargetGuard } from '../targets/index.js';
import { templateProblem } from '../templates/index.js';
import {
  type ChannelDocument,
  type ChannelRepository,
  channelSecretContext,
  MAX_CHANNELS_PER_ORGANIZATION,
  openChannel,
} from './channel.repository.js';
import {
  type ChannelType,
  type ConfigValue,
  type CreateChannelInput,
  configPatchSchema,
  EVENT_KINDS,
} from './channel.schema.js';
import type { ChannelPatch } from './channel-fields.schema.js';

/** Sends one mail to one person: plain text, with an HTML part and attachments when given. */
export interface PersonMailer {
  send(mail: {
    to: string;
    subject: string;
    text: string;
    html?: string;
    attachments?: MailAttachment[];
    headers?: Record<string, string>;
  }): Promise<void>;
}

/** What channels need of websites: they list channels in `notificationChannelIds`. */
export interface ChannelWebsitesPort {
  /** Removes the channel from every website that lists it. */
  detachChannel(organizationId: number, channelId: number): Promise<void>;
  /** How many websites list the channel without being the customer's. */
  countListingOutsideCustomer(organizationId: number, channelId: number, customerId: number): Promise<number>;
}

export interface ChannelCustomersPort {
  exists(organizationId: number, customerId: number): Promise<boolean>;
}

/**
 * Serializes what must agree between channels and the websites listing them: deleting a channel
 * or narrowing its scope, and a website write that lists channels (which takes it after the
 * website's own lock; nothing takes a website lock while holding it).
 */
export const channelsLock = (organizationId: number) => `channels:${organizationId}`;

/** How long a rotated-out webhook secret keeps signing beside the new one. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** The Standard Webhooks secret format: `whsec_` and base64 of random bytes. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

type Input = Record<string, unknown>;

/** A template as stored: null for none (empty is none); one Liquid cannot parse is a 400 naming `template`. */
function checkedTemplate(template: string | null | undefined): string | null {
  if (!template) return null;
  const problem = templateProblem(template);
  if (problem)
    throw invalidInput(`Invalid template: ${problem.message}`, [
      { path: 'template', message: problem.message },
    ]);
  return template;
}

const signingTypes = () => CHANNEL_TYPES.filter((type) => connectorOf(type).signs);

/** Notification channels: validated, write-only fields sealed, kept consistent with the websites listing them. */
export class ChannelService {
  constructor(
    private readonly deps: {
      channels: ChannelRepository;
      secrets: SecretBox;
      mutex: RedisMutex;
      websites: ChannelWebsitesPort;
      customers: ChannelCustomersPort;
      /** What a destination URL's IP literal may be. */
      guard: TargetGuard;
    },
  ) {}

  list(organizationId: number, filter: { customerId?: number }): Promise<ChannelDocument[]> {
    return this.deps.channels.list(organizationId, filter);
  }

  /**
   * Mail to a person through the organization's first enabled e-mail channel not bound to a
   * customer (its server through the SSRF guard), or null when it has none.
   */
  async organizationMailer(organizationId: number, timeoutMs: number): Promise<PersonMailer | null> {
    const channel = (await this.deps.channels.list(organizationId)).find(
      (found) => found.type === 'email' && found.enabled && found.scope.customerId === null,
    );
    if (!channel) return null;
    const opened = openChannel(channel, this.deps.secrets);
    return {
      send: async (mail) => {
        await sendChannelMail(opened, { ...mail, to: [mail.to] }, this.deps.guard, timeoutMs);
      },
    };
  }

  /** Whether some organization has an enabled e-mail channel (a scan: remember the answer). */
  anyMailChannel(): Promise<boolean> {
    return this.deps.channels.anyEnabledOfType('email');
  }

  async get(organizationId: number, id: number): Promise<ChannelDocument> {
    const channel = await this.deps.channels.findById(organizationId, id);
    if (!channel) throw notFound(`No notification channel ${id}`);
    return channel;
  }

  /** Runs `work` with the customer locked and known to exist (so it cannot be deleted meanwhile). */
  private withCustomer<T>(organizationId: number, customerId: number | undefined, work: () => Promise<T>) {
    if (customerId === undefined) return work();
    return this.deps.mutex.withLock(customerLock(customerId), async () => {
      if (!(await this.deps.customers.exists(organizationId, customerId)))
        throw invalidInput(`Unknown customer ${customerId}`, [
          { path: 'scope.customerId', message: `No customer ${customerId} in your organization` },
        ]);
      return work();
    });
  }

  async create(
    organizationId: number,
    input: CreateChannelInput,
  ): Promise<{ channel: ChannelDocument; secret: string | null }> {
    return this.withCustomer(organizationId, input.scope?.customerId, async () => {
      if ((await this.deps.channels.count(organizationId)) >= MAX_CHANNELS_PER_ORGANIZATION)
        throw conflict(`An organization may have ${MAX_CHANNELS_PER_ORGANIZATION} notification channels`);
      const id = await this.deps.channels.allocateId();
      const secret = connectorOf(input.type).signs ? newSigningSecret() : null;
      const { config, secrets } = this.applyConfig(
        id,
        input.type,
        { config: {}, secrets: {} },
        { ...connectorOf(input.type).defaults, ...(input.config as Input) },
      );
      if (secret) secrets.secret = this.deps.secrets.seal(secret, channelSecretContext(id, 'secret'));
      const now = new Date();
      const channel: ChannelDocument = {
        id,
        organizationId,
        type: input.type,
        name: input.name,
        enabled: input.enabled ?? true,
        events: input.events ?? [...EVENT_KINDS],
        scope: { customerId: input.scope?.customerId ?? null, listedOnly: input.scope?.listedOnly ?? false },
        config,
        secrets,
        template: checkedTemplate(input.template),
        templateProblem: null,
        grouping: input.grouping ?? null,
        createdAt: now,
        updatedAt: now,
      };
      await this.deps.channels.insert(channel);
      return { channel, secret };
    });
  }

  async update(organizationId: number, id: number, patch: ChannelPatch): Promise<ChannelDocument> {
    await this.get(organizationId, id);
    const template = patch.template === undefined ? undefined : checkedTemplate(patch.template);
    return this.withCustomer(organizationId, patch.scope?.customerId, () =>
      this.deps.mutex.withLock(channelsLock(organizationId), async () => {
        const current = await this.get(organizationId, id);
        const changes = patch.config === undefined ? {} : this.parseConfigPatch(current.type, patch.config);
        const { config, secrets } = this.applyConfig(id, current.type, current, changes);
        const scope = patch.scope
          ? { customerId: patch.scope.customerId ?? null, listedOnly: patch.scope.listedOnly ?? false }
          : current.scope;
        if (scope.customerId !== null && scope.customerId !== current.scope.customerId) {
          const outside = await this.deps.websites.countListingOutsideCustomer(
            organizationId,
            id,
            scope.customerId,
          );
          if (outside > 0)
            throw conflict(
              `${outside} website(s) of other customers list this channel; remove it from their notificationChannelIds first`,
            );
        }
        const updated: ChannelDocument = {
          ...current,
          name: patch.name ?? current.name,
          enabled: patch.enabled ?? current.enabled,
          events: patch.events ?? current.events,
          scope,
          config,
          secrets,
          grouping: patch.grouping === undefined ? (current.grouping ?? null) : patch.grouping,
          // Another template starts with no problem of its own.
          ...(template !== undefined && template !== (current.template ?? null)
            ? { template, templateProblem: null }
            : {}),
          updatedAt: new Date(),
        };
        await this.deps.channels.replace(updated);
        return updated;
      }),
    );
  }

  /**
   * A new signing secret for a webhook channel. The old one keeps signing beside it for
   * `ROTATION_GRACE_MS` (Standard Webhooks sends several signatures), so receivers can switch.
   */
  async rotateSecret(
    organizationId: number,
    id: number,
  ): Promise<{ secret: string; previousSecretUntil: Date }> {
    return this.deps.mutex.withLock(channelsLock(organizationId), async () => {
      const current = await this.get(organizationId, id);
      if (!connectorOf(current.type).signs)
        throw conflict(
          `A ${current.type} channel has no signing secret; only ${signingTypes().join(', ')} channels do`,
        );
      const secret = newSigningSecret();
      const seal = (field: string, value: string) =>
        this.deps.secrets.seal(value, channelSecretContext(id, field));
      const old =
        current.secrets.secret &&
        this.deps.secrets.open(current.secrets.secret, channelSecretContext(id, 'secret'));
      const previousSecretUntil = new Date(Date.now() + ROTATION_GRACE_MS);
      await this.deps.channels.replace({
        ...current,
        secrets: {
          ...current.secrets,
          secret: seal('secret', secret),
          ...(old ? { previousSecret: seal('previousSecret', old) } : {}),
        },
        previousSecretUntil,
        updatedAt: new Date(),
      });
      return { secret, previousSecretUntil };
    });
  }

  async delete(organizationId: number, id: number): Promise<void> {
    await this.deps.mutex.withLock(channelsLock(organizationId), async () => {
      await this.get(organizationId, id);
      await this.deps.channels.delete(organizationId, id);
    });
    // Outside the channels lock: website writes take it after their own lock.
    await this.deps.websites.detachChannel(organizationId, id);
  }

  /** The channels among `ids` that exist, with the customer each is tied to (null: none). */
  async customerScopes(organizationId: number, ids: readonly number[]): Promise<Map<number, number | null>> {
    const found = await this.deps.channels.findByIds(organizationId, ids);
    return new Map(found.map((channel) => [channel.id, channel.scope.customerId]));
  }

  withChannelsLocked<T>(organizationId: number, work: () => Promise<T>): Promise<T> {
    return this.deps.mutex.withLock(channelsLock(organizationId), work);
  }

  countScopedTo(organizationId: number, customerId: number): Promise<number> {
    return this.deps.channels.countScopedTo(organizationId, customerId);
  }

  private parseConfigPatch(type: ChannelType, config: Input): Input {
    return parseInput(configPatchSchema(type), config, 'body', ['config']);
  }

  /**
   * `changes` applied to a channel's config: write-only fields are sealed (omitted: kept; null:
   * cleared), the rest stored as sent; then the rules that span fields.
   */
  private applyConfig(
    id: number,
    type: ChannelType,
    current: Pick<ChannelDocument, 'config' | 'secrets'>,
    changes: Input,
  ): Pick<ChannelDocument, 'config' | 'secrets'> {
    const connector = connectorOf(type);
    const secretFields = new Set<string>(connector.secrets);
    const hostFields = new Set<string>(connector.hostFields ?? []);
    const config: Record<string, ConfigValue> = { ...current.config };
    const secrets: Record<string, SealedSecret> = { ...current.secrets };
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (!secretFields.has(field)) config[field] = value as ConfigValue;
      else if (value === null) delete secrets[field];
      else secrets[field] = this.deps.secrets.seal(String(value), channelSecretContext(id, field));
    }
    const withSecrets = {
      ...config,
      ...Object.fromEntries([...secretFields].map((field) => [field, field in secrets ? '(set)' : null])),
    };
    const problems = connector.problems?.(withSecrets) ?? [];
    let destinationMoved = false;
    // Destinations sent now (write-only ones too): an IP literal of a refused range answers 400 here.
    for (const [field, value] of Object.entries(changes)) {
      if (typeof value !== 'string') continue;
      const url = /^https?:\/\//i.test(value) ? value : hostFields.has(field) ? `http://${value}/` : null;
      const refused = url && refusedUrl(this.deps.guard, url);
      if (refused) problems.push({ path: `config.${field}`, message: refused });
      if (url && !secretFields.has(field) && current.config[field] !== value) destinationMoved = true;
    }
    // A credential kept from before never goes to a destination that changed (one who may edit a
    // channel but not read its secrets could point it at their own server): it is sent again with it.
    if (destinationMoved)
      for (const field of secretFields)
        if (field in current.secrets && changes[field] === undefined)
          problems.push({
            path: `config.${field}`,
            message: 'send it again: the destination changed, and a stored credential does not follow it',
          });
    if (problems.length > 0)
      throw invalidInput(`Invalid config: ${problems.map((p) => p.path).join(', ')}`, problems);
    return { config, secrets };
  }
}
