import { randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { ReportSchedule } from '../customers/index.js';
import { type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { PdfRenderer } from './pdf-renderer.js';
import { buildReport, type ReportSources } from './report-builder.js';
import { reportHtml } from './report-html.js';
import { dueReport } from './report-schedule.js';

/** One report mailed to a customer's recipients: its attempts, as the delivery log shows them. */
export interface ReportMailingDocument {
  /**
   * `<customerId>:<period key>` for a scheduled one (one per period, whichever notifier sends it);
   * `<customerId>:<period key>:<ms>:<random>` for one sent on request (each request its own).
   */
  _id: string;
  organizationId: number;
  customerId: number;
  periodKey: string;
  from: string;
  to: string;
  recipients: string[];
  format: ReportSchedule['format'];
  trigger: 'schedule' | 'resend';
  status: 'sending' | 'sent' | 'retrying' | 'failed';
  attempts: Array<{ at: Date; error: string | null }>;
  nextAttemptAt: Date | null;
  /** A sender holds it until then; past it, a sender that died mid-send is taken over. */
  heldUntil: Date;
  createdAt: Date;
  sentAt: Date | null;
}

export const REPORT_MAILINGS = 'report_mailings';

/** The delivery log by customer, newest first; the owed ones (retrying, or held by a sender that died) by state. */
export const reportMailingIndexes: CollectionIndexes = {
  collection: REPORT_MAILINGS,
  indexes: [
    { key: { organizationId: 1, customerId: 1, createdAt: -1 }, name: 'customer_log' },
    { key: { status: 1, nextAttemptAt: 1 }, name: 'owed' },
  ],
};
/** Waits before each retry (as channel deliveries: soon, then further apart), then it has failed. */
const RETRY_AFTER_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];
const HOLD_MS = 5 * 60_000;

/** A mailing about to be sent for the first time (held by its sender). */
function newMailing(
  id: string,
  now: Date,
  what: Pick<
    ReportMailingDocument,
    'organizationId' | 'customerId' | 'periodKey' | 'from' | 'to' | 'recipients' | 'format' | 'trigger'
  >,
): ReportMailingDocument {
  return {
    _id: id,
    ...what,
    status: 'sending',
    attempts: [],
    nextAttemptAt: null,
    heldUntil: new Date(now.getTime() + HOLD_MS),
    createdAt: now,
    sentAt: null,
  };
}

/** A customer with a schedule, as the mailer reads it. */
export interface ScheduledCustomer {
  id: number;
  organizationId: number;
  name: string;
  notificationEmail: string | null;
  reportSchedule: ReportSchedule;
  /** When the schedule was set: a period due before it is not sent. */
  reportScheduledAt: Date;
}

export interface ReportMailer {
  send(mail: {
    to: string;
    subject: string;
    text: string;
    html?: string;
    attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  }): Promise<void>;
}

/**
 * Client reports by e-mail: each scheduled customer's report sent once per period when it is due in
 * the organization's timezone (several notifiers claim it by its id: one sends), a failure retried
 * on a schedule, every attempt kept for the delivery log, and a report sent again on request.
 */
export class ReportMailings {
  readonly collection: Collection<ReportMailingDocument>;

  constructor(
    db: Db,
    private readonly deps: {
      sources: ReportSources;
      pdf: PdfRenderer;
      /** Customers whose schedule is not off. */
      scheduledCustomers(): Promise<ScheduledCustomer[]>;
      /** The organization's mail route (its e-mail channel, else the operator's SMTP_URL); null: none. */
      mailerFor(organizationId: number): Promise<ReportMailer | null>;
      logger: Logger;
    },
  ) {
    this.collection = db.collection<ReportMailingDocument>(REPORT_MAILINGS);
  }

  /** Sends what is due at `now`: scheduled reports not sent yet, and retries whose time has come. */
  async tick(now: Date): Promise<void> {
    const timezones = new Map<number, string>();
    for (const customer of await this.deps.scheduledCustomers()) {
      let timezone = timezones.get(customer.organizationId);
      if (!timezone) {
        timezone = (await this.deps.sources.organization(customer.organizationId)).timezone;
        timezones.set(customer.organizationId, timezone);
      }
      const due = dueReport(customer.reportSchedule, timezone, now);
      if (!due || due.dueAt < customer.reportScheduledAt) continue;
      const recipients = customer.reportSchedule.recipients.length
        ? customer.reportSchedule.recipients
        : customer.notificationEmail
          ? [customer.notificationEmail]
          : [];
      if (recipients.length === 0) continue;
      const mailing = newMailing(`${customer.id}:${due.key}`, now, {
        organizationId: customer.organizationId,
        customerId: customer.id,
        periodKey: due.key,
        from: due.from,
        to: due.to,
        recipients,
        format: customer.reportSchedule.format,
        trigger: 'schedule',
      });
      try {
        await this.collection.insertOne(mailing);
      } catch (error) {
        if (isDuplicateKey(error)) continue; // Sent (or being sent) by this or another notifier.
        throw error;
      }
      await this.attempt(mailing, now);
    }
    const owed = await this.collection
      .find({
        $or: [
          { status: 'retrying', nextAttemptAt: { $lte: now } },
          { status: 'sending', heldUntil: { $lt: now } },
        ],
      })
      .limit(100)
      .toArray();
    for (const mailing of owed) {
      // Claimed by its state as read: another notifier that read it too finds it changed.
      const claimed = await this.collection.updateOne(
        { _id: mailing._id, status: mailing.status, heldUntil: mailing.heldUntil },
        { $set: { status: 'sending', heldUntil: new Date(now.getTime() + HOLD_MS) } },
      );
      if (claimed.modifiedCount === 1) await this.attempt(mailing, now);
    }
  }

  /** A report sent again now (the delivery log's resend), to the recipients it had or new ones. */
  async resend(
    organizationId: number,
    customerId: number,
    period: { from: string; to: string },
    recipients: string[],
    format: ReportSchedule['format'],
    now: Date,
  ): Promise<ReportMailingDocument> {
    const periodKey = `${period.from}..${period.to}`;
    // The time alone is not unique: two requests in one millisecond are two mailings.
    const id = `${customerId}:${periodKey}:${now.getTime()}:${randomBytes(6).toString('base64url')}`;
    const mailing = newMailing(id, now, {
      organizationId,
      customerId,
      periodKey,
      ...period,
      recipients,
      format,
      trigger: 'resend',
    });
    await this.collection.insertOne(mailing);
    return this.attempt(mailing, now);
  }

  list(organizationId: number, customerId: number, limit = 50): Promise<ReportMailingDocument[]> {
    return this.collection
      .find({ organizationId, customerId })
      .sort({ createdAt: -1 })
      .limit(limit)
      .toArray();
  }

  private async attempt(mailing: ReportMailingDocument, now: Date): Promise<ReportMailingDocument> {
    let error: string | null = null;
    try {
      const mailer = await this.deps.mailerFor(mailing.organizationId);
      if (!mailer)
        throw new Error('no way to send mail: add an e-mail notification channel for the whole organization');
      const { report, branding } = await buildReport(
        this.deps.sources,
        mailing.organizationId,
        mailing.customerId,
        { from: mailing.from, to: mailing.to },
        now,
      );
      const html = reportHtml(report, branding);
      const name = `report-${report.customer.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}-${report.period.from}-${report.period.to}`;
      const attachments = [
        ...(mailing.format !== 'html'
          ? [
              {
                filename: `${name}.pdf`,
                content: await this.deps.pdf.render({ html }, 'A4', mailing.organizationId),
                contentType: 'application/pdf',
              },
            ]
          : []),
        ...(mailing.format !== 'pdf'
          ? [
              {
                filename: `${name}.html`,
                content: Buffer.from(html),
                contentType: 'text/html; charset=utf-8',
              },
            ]
          : []),
      ];
      const uptime =
        report.totals.uptimePercent === null
          ? 'no figures'
          : `${report.totals.uptimePercent.toFixed(3)} % uptime`;
      for (const to of mailing.recipients)
        await mailer.send({
          to,
          subject: `${report.organization.name}: monitoring report for ${report.customer.name}, ${report.period.from} – ${report.period.to}`,
          text: `${branding.intro ? `${branding.intro}\n\n` : ''}${report.customer.name}, ${report.period.from} – ${report.period.to}: ${uptime}, ${report.totals.incidents} incident${report.totals.incidents === 1 ? '' : 's'}.\nThe report is attached.\n`,
          attachments,
        });
    } catch (thrown) {
      error = errorMessage(thrown);
    }
    const attempts = [...mailing.attempts, { at: now, error }];
    const retryIn = RETRY_AFTER_MS[attempts.length - 1];
    const next: ReportMailingDocument = {
      ...mailing,
      attempts,
      status: error === null ? 'sent' : retryIn === undefined ? 'failed' : 'retrying',
      nextAttemptAt: error !== null && retryIn !== undefined ? new Date(now.getTime() + retryIn) : null,
      sentAt: error === null ? now : null,
      heldUntil: now,
    };
    await this.collection.replaceOne({ _id: mailing._id }, next);
    if (error !== null)
      this.deps.logger.warn(
        { customerId: mailing.customerId, period: mailing.periodKey, attempt: attempts.length, err: error },
        next.status === 'failed' ? 'report mail failed for good' : 'report mail failed; retrying',
      );
    return next;
  }
}
