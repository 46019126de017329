import { z } from 'zod';
import { idParams } from '../contract/index.js';
import { invalidInput } from '../errors/index.js';
import { defineRoute, type Route } from '../http/index.js';
import { buildReport, type ReportSources } from './report-builder.js';
import { reportCsv } from './report-csv.js';
import { PAPER_SIZES, reportHtml } from './report-html.js';
import { MAX_REPORT_DAYS, PeriodProblem } from './report-period.js';
import { clientReportView } from './report-view.js';

export const REPORT_FORMATS = ['json', 'csv', 'html'] as const;

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-10-31')
  .describe('A day in the organization’s timezone (inclusive)');

export function reportRoutes(sources: ReportSources): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/customers/:id/reports',
      operationId: 'getCustomerReport',
      summary: 'A customer’s monitoring report for a period: uptime, SLA uptime, incidents, response times',
      description: `Days in the organization’s timezone, \`from\` and \`to\` inclusive, at most ${MAX_REPORT_DAYS} days; default the last full calendar month. Per website and for the customer: uptime and SLA uptime (maintenance left out; the formulas are in the report), incidents, total and longest down time, mean time to recovery, checks, p50/p95 response times per month and ISO week, certificate and domain expiry, each incident and the maintenance held, and the same figures of the period before. From rollups, incidents and maintenance windows: the same uptime computation as GET /api/websites/{id}/uptime and the status pages. \`format\`: json, csv (one row per website and period, RFC 4180) or html (the branded page; \`paper\` sets its print size). A client user reads its own customer’s only.`,
      tags: ['Reports'],
      access: 'read',
      params: idParams,
      query: z.strictObject({
        from: date.optional(),
        to: date.optional(),
        format: z.enum(REPORT_FORMATS).default('json'),
        paper: z.enum(PAPER_SIZES).default('A4').describe('html: the page size it prints on'),
      }),
      success: {
        status: 200,
        description: 'The report (csv and html as downloads named after the customer and period)',
        schema: clientReportView,
        headers: ['Content-Disposition'],
        alternatives: [
          { contentType: 'text/csv; charset=utf-8', schema: z.string().describe('`format=csv`') },
          { contentType: 'text/html; charset=utf-8', schema: z.string().describe('`format=html`') },
        ],
      },
      problems: [404],
      handle: async ({ auth, params, query, ctx }) => {
        const built = await buildReport(sources, auth.organizationId, params.id, query, new Date()).catch(
          (error: unknown) => {
            if (error instanceof PeriodProblem)
              throw invalidInput(`Not a report period: ${error.message}`, [
                { path: error.field, message: error.message },
              ]);
            throw error;
          },
        );
        const { report } = built;
        const file = `report-${report.customer.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}-${report.period.from}-${report.period.to}`;
        if (query.format === 'csv') {
          ctx.type = 'text/csv; charset=utf-8';
          ctx.set('Content-Disposition', `attachment; filename="${file}.csv"`);
          return reportCsv(report);
        }
        if (query.format === 'html') {
          ctx.type = 'text/html; charset=utf-8';
          ctx.set('Content-Disposition', `inline; filename="${file}.html"`);
          // The page is ours, self-contained: no script, images only inline.
          ctx.set('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'");
          return reportHtml(report, built.branding, query.paper);
        }
        return report;
      },
    }),
  ];
}
