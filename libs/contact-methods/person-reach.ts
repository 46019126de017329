import {
  CHANNEL_TYPES,
  connectorOf,
  type GuardedHttp,
  type PersonalMedium,
  type PersonalMessage,
} from '../connectors/index.js';
import { errorMessage } from '../errors/index.js';
import { type ChannelDocument, type ChannelRepository, openChannel } from '../notifications/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { ContactMethodType } from './contact-method.schema.js';

/** The channel types that carry each kind of contact method, and the medium it is sent as. */
const CARRIERS: Record<
  Exclude<ContactMethodType, 'email'>,
  { types: readonly string[]; medium: PersonalMedium }
> = {
  sms: { types: ['twilio', 'vonage', 'messagebird'], medium: 'sms' },
  voice: { types: ['twilio'], medium: 'voice' },
  signal: { types: ['signal'], medium: 'sms' },
  ntfy: { types: ['ntfy'], medium: 'push' },
  pushover: { types: ['pushover'], medium: 'push' },
  telegram: { types: ['telegram'], medium: 'push' },
};

/** What the organization needs for a type of contact method, in words (errors tell people what to add). */
export const CARRIER_NEEDED: Record<ContactMethodType, string> = {
  email: 'an organization-wide e-mail channel (or the server must be given SMTP_URL)',
  sms: 'an organization-wide Twilio, Vonage or MessageBird channel',
  voice: 'an organization-wide Twilio channel',
  signal: 'an organization-wide Signal channel',
  ntfy: 'an organization-wide ntfy channel',
  pushover: 'an organization-wide Pushover channel',
  telegram: 'an organization-wide Telegram channel',
};

/** Sends one plain-text mail to one person. */
export interface PersonMailer {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}

export type ReachOutcome = { sent: true; via: string } | { sent: false; problem: string };

/**
 * Reaches one person at one of their addresses through the organization's own tools: e-mail through
 * its mailer, texts and calls through its SMS provider's channel, pushes through its ntfy, Pushover,
 * Telegram or Signal channel (the channel's credentials, the person's address).
 */
export class PersonReach {
  constructor(
    private readonly deps: {
      channels: Pick<ChannelRepository, 'list'>;
      secrets: SecretBox;
      http: GuardedHttp;
      /** The organization's mailer: its own e-mail channel, else SMTP_URL (null: neither). */
      mailer(organizationId: number): Promise<PersonMailer | null>;
    },
  ) {}

  /** The channel that carries `type` for the organization (enabled, organization-wide, the oldest), or null. */
  async carrierOf(
    organizationId: number,
    type: Exclude<ContactMethodType, 'email'>,
  ): Promise<ChannelDocument | null> {
    const { types, medium } = CARRIERS[type];
    const usable = types.filter(
      (name) =>
        (CHANNEL_TYPES as readonly string[]).includes(name) &&
        connectorOf(name as ChannelDocument['type']).reaches?.includes(medium),
    );
    const channels = await this.deps.channels.list(organizationId);
    return (
      channels
        .filter((c) => c.enabled && c.scope.customerId === null && usable.includes(c.type))
        .sort((a, b) => a.id - b.id)[0] ?? null
    );
  }

  /** Whether the organization can reach a method of this type at all. */
  async canReach(organizationId: number, type: ContactMethodType): Promise<boolean> {
    if (type === 'email') return (await this.deps.mailer(organizationId)) !== null;
    return (await this.carrierOf(organizationId, type)) !== null;
  }

  async reach(
    organizationId: number,
    method: { type: ContactMethodType; address: string },
    message: Omit<PersonalMessage, 'medium'>,
  ): Promise<ReachOutcome> {
    try {
      if (method.type === 'email') return await this.mail(organizationId, method.address, message);
      const carrier = await this.carrierOf(organizationId, method.type);
      if (!carrier) return { sent: false, problem: `the organization has no ${CARRIER_NEEDED[method.type]}` };
      const connector = connectorOf(carrier.type);
      if (!connector.reach) return { sent: false, problem: `${connector.label} cannot reach a person` };
      const { http } = this.deps;
      const verdict = await connector.reach(
        openChannel(carrier, this.deps.secrets),
        method.address,
        { ...message, medium: CARRIERS[method.type].medium },
        {
          send: (call, maxBytes) => http.send(call, maxBytes),
          guard: http.guard,
          timeoutMs: http.timeoutMs,
          externalRefOf: async () => null,
          at: new Date(),
        },
      );
      const via = `${connector.label} (channel ${carrier.id})`;
      if (verdict.verdict === 'done') return { sent: true, via };
      if (verdict.verdict === 'skipped') return { sent: false, problem: verdict.reason };
      return { sent: false, problem: `${via}: ${verdict.problem}` };
    } catch (error) {
      return { sent: false, problem: errorMessage(error) };
    }
  }

  private async mail(
    organizationId: number,
    to: string,
    message: Omit<PersonalMessage, 'medium'>,
  ): Promise<ReachOutcome> {
    const mailer = await this.deps.mailer(organizationId);
    if (!mailer) return { sent: false, problem: `the organization has no ${CARRIER_NEEDED.email}` };
    const text = message.ackUrl ? `${message.text}\n\nAcknowledge: ${message.ackUrl}\n` : `${message.text}\n`;
    await mailer.send({ to, subject: message.title, text });
    return { sent: true, via: 'e-mail' };
  }
}
