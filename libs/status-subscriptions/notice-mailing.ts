import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { SecretBox } from '../secrets/index.js';
import { type NoticePage, noticeMail, type PageNotice, wantsNotice } from './notice.js';
import type { NoticeRepository } from './notice.repository.js';
import type { NoticeMarks } from './notice-marks.js';
import { noticeDelivery } from './notice-webhook.js';
import {
  type SubscriberDocument,
  type SubscriberRepository,
  unsubscribeUrlOf,
  webhookSecretContext,
} from './subscriber.repository.js';
import type { ConfirmationMail } from './subscription-mails.js';
import type { WebhookPoster } from './webhook-challenge.js';

/** A webhook subscriber is tried at once, then after these delays. */
const WEBHOOK_RETRY_DELAYS_MS = [0, 1_000, 5_000];

/** Subscribers read at once from MongoDB, and how often the notice's progress is written. */
const BATCH = 500;

/** The notifier is stopping: the mailing goes on in the next notifier, from the subscribers not marked. */
export class MailingDeferred extends Error {
  constructor(noticeId: string) {
    super(`mailing of ${noticeId} handed over: the notifier is stopping`);
    this.name = 'MailingDeferred';
  }
}

export interface NoticeMailingDeps {
  notices: NoticeRepository;
  /** Posts notices to webhook subscribers (through the SSRF guard). */
  http: WebhookPoster;
  subscribers: SubscriberRepository;
  marks: NoticeMarks;
  secrets: Pick<SecretBox, 'open'>;
  /** The page's title, address, language and time zone for the mails (null: the page is gone or unpublished: nobody is told). */
  page(organizationId: number, pageId: number): Promise<NoticePage | null>;
  /** A mailer for the organization's subscriber mails (null: none configured). */
  mailer(
    organizationId: number,
  ): Promise<{ send(mail: ConfirmationMail & { to: string }): Promise<void> } | null>;
  /** Mails in flight at once. */
  concurrency: number;
  logger: Logger;
}

/**
 * Mails one notice to every confirmed subscriber of its page who wants it, each once: a mail taken
 * by the SMTP server is marked at once, a mailing taken over (its notifier stopped or died) skips
 * the marked. Subscribers are read in id order by one cursor (on FerretDB each read of a page's
 * subscribers scans the collection: one per mailing, not one per batch), a batch at a time, so
 * 10,000 never sit in memory, and progress is written as it goes.
 */
export class NoticeMailing {
  constructor(private readonly deps: NoticeMailingDeps) {}

  /** Mails the notice to those not mailed yet; `stopping` hands it over between mails (`MailingDeferred`). */
  async mail(noticeId: string, stopping: () => boolean): Promise<{ sent: number; skipped: number }> {
    const { deps } = this;
    const notice = await deps.notices.find(noticeId);
    if (!notice || notice.state === 'done') return { sent: notice?.sent ?? 0, skipped: 0 };
    const page = await deps.page(notice.organizationId, notice.pageId);
    const mailer = page ? await deps.mailer(notice.organizationId) : null;
    if (!page || !mailer) {
      if (page) deps.logger.warn({ pageId: notice.pageId }, 'no mail route: subscribers of a page not told');
      await deps.notices.finish(noticeId, notice.sent, new Date());
      return { sent: notice.sent, skipped: 0 };
    }
    const marked = await deps.marks.mailed(noticeId);
    let sent = marked.size;
    let skipped = 0;
    const take = async (batch: SubscriberDocument[]) => {
      const due = batch.filter((s) => !marked.has(s._id) && wantsNotice(s.components, notice.components));
      skipped += batch.length - due.length;
      sent += await this.mailBatch(notice, page, mailer, due, stopping);
      await deps.notices.progress(noticeId, sent, batch.at(-1)?._id ?? notice.through ?? null);
    };
    // One read of the page's subscribers from where a mailing taken over stopped (a batch fully
    // told: `through`; the marks cover the batch it was in), streamed a batch at a time.
    let batch: SubscriberDocument[] = [];
    for await (const subscriber of deps.subscribers.confirmedOf(notice.organizationId, notice.pageId, {
      after: notice.through ?? null,
      batchSize: BATCH,
    })) {
      batch.push(subscriber);
      if (batch.length === BATCH) {
        await take(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await take(batch);
    await deps.notices.finish(noticeId, sent, new Date());
    return { sent, skipped };
  }

  /**
   * Posts a notice to a webhook subscriber, tried a few times a few seconds apart; a 410 (Gone)
   * unsubscribes it. True when it took it (2xx); its trouble is its own, never the mailing's.
   */
  private async post(
    notice: PageNotice,
    page: NoticePage,
    subscriber: SubscriberDocument,
    unsubscribeUrl: string,
  ): Promise<boolean> {
    if (!subscriber.webhookUrl || !subscriber.webhookSecret) return false;
    const secret = this.deps.secrets.open(subscriber.webhookSecret, webhookSecretContext(subscriber._id));
    let last = '';
    for (const [attempt, delayMs] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const delivery = noticeDelivery(
        notice,
        page,
        { id: subscriber._id, secret, unsubscribeUrl },
        new Date(),
      );
      try {
        const answer = await this.deps.http.send({ method: 'POST', url: subscriber.webhookUrl, ...delivery });
        if (answer.status >= 200 && answer.status < 300) return true;
        if (answer.status === 410) {
          await this.deps.subscribers.removeById(subscriber._id);
          return false;
        }
        last = `answered ${answer.status}`;
      } catch (error) {
        last = errorMessage(error);
      }
      if (attempt === WEBHOOK_RETRY_DELAYS_MS.length - 1)
        this.deps.logger.warn(
          { noticeId: notice._id, subscriber: subscriber._id, outcome: last },
          'a webhook subscriber not told',
        );
    }
    return false;
  }

  /** Mails a batch, `concurrency` at a time; answers how many were mailed (and marked). */
  private async mailBatch(
    notice: PageNotice,
    page: NoticePage,
    mailer: { send(mail: ConfirmationMail & { to: string }): Promise<void> },
    subscribers: readonly SubscriberDocument[],
    stopping: () => boolean,
  ): Promise<number> {
    let next = 0;
    let mailed = 0;
    const lane = async () => {
      while (next < subscribers.length) {
        if (stopping()) throw new MailingDeferred(notice._id);
        const subscriber = subscribers[next++] as SubscriberDocument;
        const unsubscribeUrl = unsubscribeUrlOf(this.deps.secrets, subscriber, page.url);
        if (subscriber.channel === 'webhook') {
          if (await this.post(notice, page, subscriber, unsubscribeUrl)) mailed++;
          await this.deps.marks.mark(notice._id, subscriber._id);
          continue;
        }
        try {
          await mailer.send({ to: subscriber.email, ...noticeMail(notice, page, unsubscribeUrl) });
          mailed++;
        } catch (error) {
          // The server refused this address for good (5xx): it is not tried again; anything else is the
          // mailing's trouble, and it is tried again (from the subscribers not marked).
          if (!refusedForGood(error)) throw error;
          this.deps.logger.warn(
            { noticeId: notice._id, code: smtpCode(error) },
            'a subscriber’s address refused',
          );
        }
        await this.deps.marks.mark(notice._id, subscriber._id);
      }
    };
    const lanes = Array.from({ length: Math.min(this.deps.concurrency, subscribers.length) }, lane);
    const outcomes = await Promise.allSettled(lanes);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    return mailed;
  }
}

const smtpCode = (error: unknown): number | null => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : null;
};

/** An SMTP answer refusing the mail for good (5xx), as opposed to a connection's or a server's trouble. */
const refusedForGood = (error: unknown) => {
  const code = smtpCode(error);
  return code !== null && code >= 500 && code < 600;
};
