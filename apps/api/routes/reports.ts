import { z } from 'zod';
import { emailAddress, idParams } from '../../../libs/contract/index.js';
import type { ReportSchedule } from '../../../libs/customers/index.js';
import { invalidInput, notFound } from '../../../libs/errors/index.js';
import type { MailBudget, OrganizationShare } from '../../../libs/fair-share/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { PdfRenderer, ReportMailingDocument, ReportMailings } from '../../../libs/reports/index.js';
import {
  buildReport,
  clientReportView,
  MAX_REPORT_DAYS,
  PAPER_SIZES,
  PeriodProblem,
  type ReportSources,
  reportCsv,
  reportPeriod,
} from '../../../libs/reports/index.js';

export const REPORT_FORMATS = ['json', 'csv', 'html', 'pdf'] as const;

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-10-31')
  .describe('A day in the organization’s timezone (inclusive)');

const mailingView = z
  .object({
    id: z.string(),
    customerId: z.number().int(),
    period: z.object({ from: z.string(), to: z.string() }),
    recipients: z.array(z.string()),
    format: z.enum(['pdf', 'html', 'both']),
    trigger: z.enum(['schedule', 'resend']),
    status: z.enum(['sending', 'sent', 'retrying', 'failed']),
    attempts: z.array(z.object({ at: z.iso.datetime(), error: z.string().nullable() })),
    nextAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ReportMailing' });

function toMailingView(mailing: ReportMailingDocument): z.input<typeof mailingView> {
  return {
    id: mailing._id,
    customerId: mailing.customerId,
    period: { from: mailing.from, to: mailing.to },
    recipients: mailing.recipients,
    format: mailing.format,
    trigger: mailing.trigger,
    status: mailing.status,
    attempts: mailing.attempts.map((a) => ({ at: a.at.toISOString(), error: a.error })),
    nextAttemptAt: mailing.nextAttemptAt?.toISOString() ?? null,
    createdAt: mailing.createdAt.toISOString(),
    sentAt: mailing.sentAt?.toISOString() ?? null,
  };
}

export function reportRoutes(deps: {
  sources: ReportSources;
  pdf: PdfRenderer;
  mailings: ReportMailings;
  /** REPORTS_PER_ORGANIZATION: reports built at once per organization (a mailing's too). */
  builds: OrganizationShare;
  /** Mail budgets: a mailing counts one mail per recipient. */
  mailBudget: MailBudget;
  /** The customer's schedule and notificationEmail (the mailing's defaults); null: no such customer. */
  customerSchedule(
    organizationId: number,
    customerId: number,
  ): Promise<{ reportSchedule: ReportSchedule | null; notificationEmail: string | null } | null>;
}): Route[] {
  const { sources } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/customers/:id/reports',
      operationId: 'getCustomerReport',
      summary: 'A customer’s monitoring report for a period: uptime, SLA uptime, incidents, response times',
      description: `Days in the organization’s timezone, \`from\` and \`to\` inclusive, at most ${MAX_REPORT_DAYS} days; default the last full calendar month. Per website and for the customer: uptime and SLA uptime (maintenance left out; the formulas are in the report), incidents, total and longest down time, mean time to recovery, checks, p50/p95 response times per month and ISO week, certificate and domain expiry, each incident (marked with the monitor it is of) and the maintenance held, and the same figures of the period before. Under each website, each of its other monitors (heartbeats, DNS, port, ping, UDP, gRPC, WebSocket and mail checks: kind, name and the host it checks) with its uptime, SLA uptime, down time and incidents over the period since it was added, from its own incidents; a browser journey or API flow also with its runs, its success rate and each step’s median time over the runs it passed in (\`runs\`, counted by the workers per day: at most 10 minutes behind). From rollups, incidents and maintenance windows: the same uptime computation as GET /api/websites/{id}/uptime and the status pages. \`format\`: json, csv (one row per website and period, per other monitor for the whole period and per step of a journey, RFC 4180) html (the branded page) or pdf (that page printed by headless Chromium on \`paper\`, A4 or Letter: vector charts, selectable text). A client user reads its own customer’s only.`,
      tags: ['Reports'],
      access: 'read',
      params: idParams,
      query: z.strictObject({
        from: date.optional(),
        to: date.optional(),
        format: z.enum(REPORT_FORMATS).default('json'),
        paper: z.enum(PAPER_SIZES).default('A4').describe('pdf (and html printed): the page size'),
      }),
      success: {
        status: 200,
        description: 'The report (csv and html as downloads named after the customer and period)',
        schema: clientReportView,
        headers: ['Content-Disposition'],
        alternatives: [
          { contentType: 'text/csv; charset=utf-8', schema: z.string().describe('`format=csv`') },
          { contentType: 'text/html; charset=utf-8', schema: z.string().describe('`format=html`') },
          {
            contentType: 'application/pdf',
            schema: z
              .custom<Buffer>((value) => Buffer.isBuffer(value))
              .meta({ type: 'string', format: 'binary', description: '`format=pdf`' }),
          },
        ],
      },
      problems: [404, 429, 503],
      handle: async ({ auth, params, query, ctx }) => {
        const { organizationId } = auth;
        // A PDF the printer would turn away is turned away before its report is built.
        if (query.format === 'pdf') deps.pdf.assertRoom(organizationId);
        const built = await deps.builds
          .run(organizationId, () => buildReport(sources, organizationId, params.id, query, new Date()))
          .catch((error: unknown) => {
            if (error instanceof PeriodProblem)
              throw invalidInput(`Not a report period: ${error.message}`, [
                { path: error.field, message: error.message },
              ]);
            throw error;
          });
        const { report } = built;
        const file = `report-${report.customer.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}-${report.period.from}-${report.period.to}`;
        if (query.format === 'csv') {
          ctx.type = 'text/csv; charset=utf-8';
          ctx.set('Content-Disposition', `attachment; filename="${file}.csv"`);
          return reportCsv(report);
        }
        if (query.format === 'pdf') {
          const pdf = await deps.pdf.render(
            { report, branding: built.branding },
            query.paper,
            organizationId,
          );
          ctx.type = 'application/pdf';
          ctx.set('Content-Disposition', `attachment; filename="${file}.pdf"`);
          return pdf;
        }
        if (query.format === 'html') {
          ctx.type = 'text/html; charset=utf-8';
          ctx.set('Content-Disposition', `inline; filename="${file}.html"`);
          // The page is ours, self-contained: no script, images only inline.
          ctx.set('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'");
          return (await deps.pdf.html({ report, branding: built.branding }, query.paper)).toString('utf8');
        }
        return report;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/customers/:id/report-mailings',
      operationId: 'listReportMailings',
      summary: 'The customer’s reports e-mailed (on schedule or on request): each one’s attempts',
      tags: ['Reports'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'Newest first, at most 50', schema: z.array(mailingView) },
      problems: [404],
      handle: async ({ auth, params }) => {
        if (!(await sources.customer(auth.organizationId, params.id)))
          throw notFound(`No customer ${params.id}`);
        return (await deps.mailings.list(auth.organizationId, params.id)).map(toMailingView);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/customers/:id/report-mailings',
      operationId: 'sendReport',
      summary:
        'E-mail the customer’s report now (or again): a period, to its schedule’s recipients or others',
      description:
        'Defaults: the last full month; the schedule’s recipients, else the customer’s notificationEmail; the schedule’s format, else PDF. Sent through the organization’s e-mail channel (or the operator’s SMTP_URL); a failure is retried like a scheduled one. Answers once the first attempt is made. Each recipient is a mail of the organization’s mail budgets (MAIL_PER_ORGANIZATION_PER_HOUR, MAIL_PER_RECIPIENT_PER_HOUR: past either 429 with Retry-After and `reason` `mail-per-organization` or `mail-per-recipient`, nothing sent), and the build counts in REPORTS_PER_ORGANIZATION.',
      tags: ['Reports'],
      access: 'write',
      params: idParams,
      body: z
        .strictObject({
          from: date.optional(),
          to: date.optional(),
          recipients: z.array(emailAddress()).min(1).max(20).optional(),
          format: z.enum(['pdf', 'html', 'both']).optional(),
        })
        .meta({ id: 'ReportMailingRequest' }),
      success: { status: 201, description: 'The mailing, after its first attempt', schema: mailingView },
      problems: [404, 429],
      handle: async ({ auth, params, body }) => {
        const { organizationId } = auth;
        const customer = await deps.customerSchedule(organizationId, params.id);
        if (!customer) throw notFound(`No customer ${params.id}`);
        const recipients =
          body.recipients ??
          (customer.reportSchedule?.recipients.length
            ? customer.reportSchedule.recipients
            : customer.notificationEmail
              ? [customer.notificationEmail]
              : []);
        if (recipients.length === 0)
          throw invalidInput('Nobody to send the report to', [
            { path: 'recipients', message: 'give recipients, or set the customer’s notificationEmail' },
          ]);
        const timezone = (await sources.organization(organizationId)).timezone;
        const period = (() => {
          try {
            return reportPeriod(body, timezone, new Date());
          } catch (error) {
            if (error instanceof PeriodProblem)
              throw invalidInput(`Not a report period: ${error.message}`, [
                { path: error.field, message: error.message },
              ]);
            throw error;
          }
        })();
        // Asked before the mail budget is used: a mailing the share refuses costs none of it.
        const slot = await deps.builds.enter(organizationId);
        try {
          await deps.mailBudget.take(organizationId, recipients, 'report mailing');
          const mailing = await deps.mailings.resend(
            organizationId,
            params.id,
            { from: period.fromDate, to: period.toDate },
            recipients,
            body.format ?? customer.reportSchedule?.format ?? 'pdf',
            new Date(),
          );
          return toMailingView(mailing);
        } finally {
          slot.release();
        }
      },
    }),
  ];
}
