import { conflict, invalidInput, notFound, tooMany } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { RateLimiter } from '../redis/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { PageLanguage } from '../status-pages/index.js';
import {
  type SubscriberDocument,
  type SubscriberRepository,
  type SubscriberState,
  unsubscribeTokenContext,
  unsubscribeTokenOf,
  unsubscribeUrlOf,
  webhookSecretContext,
} from './subscriber.repository.js';
import {
  newLinkToken,
  normalizedAddress,
  pageOfSubscriberId,
  subscriberId,
  tokenDigest,
  tokenMatches,
  webhookSubscriberId,
} from './subscriber-keys.js';
import { type ConfirmationMail, confirmationMail, welcomeMail } from './subscription-mails.js';
import { challengeWebhook, newWebhookSecret, type WebhookPoster } from './webhook-challenge.js';

/** A published page as subscriptions see it: what a visitor may choose and what mails name. */
export interface SubscribablePage {
  id: number;
  organizationId: number;
  slug: string;
  title: string;
  /** The page's websites, in its order: what a subscriber may choose to be told about. */
  components: Array<{ id: number; name: string }>;
  /** The words of its mails (English when absent). */
  language?: PageLanguage;
}

export interface SubscriptionDeps {
  subscribers: SubscriberRepository;
  /** Posts the challenge of a webhook subscribing (through the SSRF guard). */
  http: WebhookPoster;
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  /** A published page by slug (null: none, or not published). */
  page(slug: string): Promise<SubscribablePage | null>;
  /** Sends a mail for the organization (false: no way to send mail is configured). */
  send(organizationId: number, mail: ConfirmationMail & { to: string }): Promise<boolean>;
  /** Subscription requests per client address (the form's flood guard, answered 429). */
  perClient: RateLimiter;
  /** Confirmation mails per page and address: past it nothing is sent, and nothing is said. */
  perAddress: RateLimiter;
  logger: Logger;
  now?: () => Date;
}

/** How long a confirmation link holds. */
export const CONFIRMATION_HOURS = 48;

/** Links of a subscription, under the page's address the visitor used (its slug's, or its own domain). */
export interface SubscriptionLinks {
  /** The page's base URL without a trailing slash: `https://status.client.example` or `https://…/status/acme`. */
  pageUrl: string;
}

export type LinkOutcome = 'done' | 'invalid';

/**
 * Subscriptions of visitors to a page: double opt-in (nothing is sent to a subscriber until they
 * followed the link mailed to the address), leaving by the link every mail carries, and the same
 * answer to every request so no one learns who is subscribed.
 */
export class SubscriptionService {
  private readonly now: () => Date;

  constructor(private readonly deps: SubscriptionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Asks for a subscription: mails a confirmation link (unless the address had its share of them
   * lately), whether or not the address is subscribed already — the answer is the same, and the
   * mail is sent after it, so neither its words nor its time say anything.
   */
  async subscribe(
    slug: string,
    input: { email: string; components?: number[] | undefined },
    client: { address: string; links: SubscriptionLinks },
  ): Promise<void> {
    const page = await this.deps.page(slug);
    if (!page) throw notFound('No public status page by that name');
    const components = chosenComponents(page, input.components);
    await this.spendClientBudget(client.address);
    const email = normalizedAddress(input.email);
    const id = subscriberId(page.id, email);
    const mailing = this.startConfirmation(page, id, email, components, client.links);
    // Sent after the answer: how long SMTP takes says nothing to the visitor either.
    void mailing.catch((error: unknown) =>
      this.deps.logger.warn({ err: error, pageId: page.id }, 'subscription confirmation not sent'),
    );
  }

  /**
   * Subscribes a webhook: a signed challenge is posted to it at once, and it is subscribed when it
   * answers with the challenge (400 naming `webhookUrl` with what it answered, else). Answers its
   * signing secret, shown this once. A URL subscribed already is a 409: a second request must not
   * change the secret its owner verifies with.
   */
  async subscribeWebhook(
    slug: string,
    input: { webhookUrl: string; components?: number[] | undefined },
    client: { address: string; links: SubscriptionLinks },
  ): Promise<{ id: string; secret: string; unsubscribeUrl: string }> {
    const page = await this.deps.page(slug);
    if (!page) throw notFound('No public status page by that name');
    const components = chosenComponents(page, input.components);
    await this.spendClientBudget(client.address);
    const id = webhookSubscriberId(page.id, input.webhookUrl);
    if (await this.deps.subscribers.find(id))
      throw conflict('This URL is subscribed to the page already; to change it, unsubscribe it first', [
        { path: 'webhookUrl', message: 'is subscribed already' },
      ]);
    const secret = newWebhookSecret();
    const challenge = await challengeWebhook(this.deps.http, {
      url: input.webhookUrl,
      secret,
      pageTitle: page.title,
      pageUrl: client.links.pageUrl,
    });
    if (!challenge.answered)
      throw invalidInput(`The webhook ${challenge.reason}`, [
        { path: 'webhookUrl', message: challenge.reason },
      ]);
    const now = this.now();
    const subscriber: SubscriberDocument = {
      _id: id,
      organizationId: page.organizationId,
      pageId: page.id,
      email: '',
      channel: 'webhook',
      webhookUrl: input.webhookUrl,
      webhookSecret: this.deps.secrets.seal(secret, webhookSecretContext(id)),
      components,
      chosenComponents: components,
      state: 'confirmed',
      confirmDigest: null,
      confirmExpiresAt: null,
      confirmationsSent: 0,
      unsubscribeToken: this.deps.secrets.seal(newLinkToken().token, unsubscribeTokenContext(id)),
      createdAt: now,
      confirmedAt: now,
    };
    await this.deps.subscribers.save(subscriber);
    return {
      id,
      secret,
      unsubscribeUrl: unsubscribeUrlOf(this.deps.secrets, subscriber, client.links.pageUrl),
    };
  }

  private async spendClientBudget(address: string): Promise<void> {
    const budget = await this.deps.perClient.consume(`status-subscribe:${address}`);
    if (!budget.allowed)
      throw tooMany(
        'Too many subscription requests from your address; try again later',
        'status-subscriptions-per-client',
        budget.resetSeconds,
      );
  }

  private async startConfirmation(
    page: SubscribablePage,
    id: string,
    email: string,
    components: number[] | null,
    links: SubscriptionLinks,
  ): Promise<void> {
    const share = await this.deps.perAddress.consume(`status-confirm:${id}`);
    if (!share.allowed) return;
    const now = this.now();
    const { token, digest } = newLinkToken();
    const expiresAt = new Date(now.getTime() + CONFIRMATION_HOURS * 3_600_000);
    const existing = await this.deps.subscribers.find(id);
    // Pending or subscribed already: a new link, for the websites chosen now (taken when it is followed).
    if (existing)
      await this.deps.subscribers.renewConfirmation(id, {
        confirmDigest: digest,
        confirmExpiresAt: expiresAt,
        chosenComponents: components,
      });
    else
      await this.deps.subscribers.save({
        _id: id,
        organizationId: page.organizationId,
        pageId: page.id,
        email,
        components,
        chosenComponents: components,
        state: 'pending',
        confirmDigest: digest,
        confirmExpiresAt: expiresAt,
        confirmationsSent: 1,
        unsubscribeToken: this.deps.secrets.seal(newLinkToken().token, unsubscribeTokenContext(id)),
        createdAt: now,
        confirmedAt: null,
      });
    const confirmUrl = `${links.pageUrl}/subscriptions/${id}/confirm?token=${token}`;
    const sent = await this.deps.send(page.organizationId, {
      to: email,
      ...confirmationMail({
        pageTitle: page.title,
        confirmUrl,
        hours: CONFIRMATION_HOURS,
        ...(page.language ? { language: page.language } : {}),
      }),
    });
    if (!sent)
      this.deps.logger.warn({ pageId: page.id }, 'no mail route: subscription confirmation not sent');
  }

  /**
   * Follows a confirmation link: the subscription is confirmed with the websites chosen when it
   * was asked for (a subscriber asking again takes their new choice this way), and a welcome mail
   * carries the link to leave.
   */
  async confirm(
    id: string,
    token: string,
    page: Pick<SubscribablePage, 'organizationId' | 'title' | 'language'>,
    links: SubscriptionLinks,
  ): Promise<LinkOutcome> {
    if (pageOfSubscriberId(id) === null) return 'invalid';
    const subscriber = await this.deps.subscribers.find(id);
    if (!subscriber || !tokenMatches(token, subscriber.confirmDigest)) return 'invalid';
    if (!(await this.deps.subscribers.confirm(id, tokenDigest(token), this.now()))) return 'invalid';
    const welcome = welcomeMail({
      ...(page.language ? { language: page.language } : {}),
      pageTitle: page.title,
      pageUrl: links.pageUrl,
      unsubscribeUrl: unsubscribeUrlOf(this.deps.secrets, subscriber, links.pageUrl),
    });
    void this.deps
      .send(page.organizationId, { to: subscriber.email, ...welcome })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'subscription welcome mail not sent'));
    return 'done';
  }

  /** Follows an unsubscribe link (or a mail client's one-click POST): the subscriber is removed. */
  async unsubscribe(id: string, token: string): Promise<LinkOutcome> {
    if (pageOfSubscriberId(id) === null) return 'invalid';
    const subscriber = await this.deps.subscribers.find(id);
    if (!subscriber || !this.unsubscribeTokenMatches(subscriber, token)) return 'invalid';
    await this.deps.subscribers.removeById(id);
    return 'done';
  }

  private unsubscribeTokenMatches(subscriber: SubscriberDocument, token: string): boolean {
    try {
      return tokenMatches(token, tokenDigest(unsubscribeTokenOf(this.deps.secrets, subscriber)));
    } catch {
      return false;
    }
  }

  /** A page's subscribers for its staff, in pages of `limit` after `after`. */
  list(
    organizationId: number,
    pageId: number,
    options: { state?: SubscriberState; after?: string; limit: number },
  ): Promise<SubscriberDocument[]> {
    return this.deps.subscribers.page(organizationId, pageId, {
      limit: options.limit,
      ...(options.state ? { state: options.state } : {}),
      ...(options.after ? { afterId: options.after } : {}),
    });
  }

  counts(organizationId: number, pageId: number): Promise<Record<SubscriberState, number>> {
    return this.deps.subscribers.count(organizationId, pageId);
  }

  /** Removes a subscriber of the page (by its id, or its address); false when there was none. */
  async remove(
    organizationId: number,
    pageId: number,
    which: { id?: string; email?: string },
  ): Promise<boolean> {
    const id = which.id ?? (which.email ? subscriberId(pageId, which.email) : null);
    if (!id || pageOfSubscriberId(id) !== pageId) return false;
    return this.deps.subscribers.remove(organizationId, id);
  }
}

/** The websites chosen, each on the page (400 naming the one that is not); none chosen: all. */
function chosenComponents(page: SubscribablePage, chosen: number[] | undefined): number[] | null {
  if (!chosen || chosen.length === 0) return null;
  const onPage = new Set(page.components.map((component) => component.id));
  const errors = chosen.flatMap((id, index) =>
    onPage.has(id) ? [] : [{ path: `components.${index}`, message: 'is not a website on this page' }],
  );
  if (errors.length > 0) throw invalidInput(`Invalid body: ${errors.map((e) => e.path).join(', ')}`, errors);
  return [...chosen].sort((a, b) => a - b);
}
