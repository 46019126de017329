import type { Db } from 'mongodb';
import type { OrganizationRepository } from '../auth/index.js';
import type { AppConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import type { MaintenanceWindowRepository } from '../maintenance/index.js';
import type { MonitorStateRepository, RollupRepository } from '../monitoring/index.js';
import type { MonitorRepository } from '../monitors/index.js';
import type { LogoStore } from '../organizations/index.js';
import { includesFeature } from '../packages/index.js';
import { smtpMailer } from '../people/index.js';
import type { Redis } from '../redis/index.js';
import {
  PdfRenderer,
  type ReportMailer,
  ReportMailings,
  type ReportSources,
  repositoryReportSources,
} from '../reports/index.js';
import type { Records } from './records.js';

/** Client reports: what they read, the PDF printer and the mailings (the API and the notifier). */
export interface Reports {
  /** What a client report reads (rollups, incidents, maintenance; never raw results). */
  sources: ReportSources;
  /** Prints reports as PDF: one Chromium, started at the first report (closed with `close`). */
  printer: PdfRenderer;
  /** Reports e-mailed on schedule or on request, with their attempts. */
  mailings: ReportMailings;
}

export function createReports(deps: {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  records: Records;
  organizations: OrganizationRepository;
  rollups: RollupRepository;
  states: MonitorStateRepository;
  monitors: MonitorRepository;
  windows: MaintenanceWindowRepository;
  logos: LogoStore;
  /** The organization's own e-mail channel (its SMTP server and sender), if it has one. */
  organizationMailer: (organizationId: number) => Promise<ReportMailer | null>;
}): Reports {
  const { db, config, records } = deps;
  const sources = repositoryReportSources({
    db,
    organizations: deps.organizations,
    customers: records.customers,
    websites: records.websites,
    rollups: deps.rollups,
    states: deps.states,
    monitors: deps.monitors,
    redis: deps.redis,
    windows: deps.windows,
    logos: deps.logos,
  });
  const printer = new PdfRenderer({
    executablePath: config.CHROMIUM_PATH,
    perOrganization: config.PDFS_PER_ORGANIZATION,
    logLevel: config.LOG_LEVEL,
    logFormat: config.LOG_FORMAT,
  });
  const smtp = smtpMailer(config);
  const mailings = new ReportMailings(db, {
    sources,
    pdf: printer,
    scheduledCustomers: async () => {
      const customers = await records.customers.listScheduled();
      const packages = new Map<string, boolean>();
      const allowed = async (organizationId: number, packageId: number) => {
        const key = `${organizationId}:${packageId}`;
        if (!packages.has(key)) {
          const pkg = await records.packages.findById(organizationId, packageId);
          packages.set(key, pkg !== null && includesFeature(pkg, 'reports'));
        }
        return packages.get(key) === true;
      };
      const scheduled = [];
      for (const customer of customers)
        if (customer.reportSchedule && (await allowed(customer.organizationId, customer.packageId)))
          scheduled.push({
            ...customer,
            reportSchedule: customer.reportSchedule,
            reportScheduledAt: customer.reportScheduledAt ?? new Date(0),
          });
      return scheduled;
    },
    // The organization's own e-mail channel, else the operator's SMTP_URL.
    mailerFor: async (organizationId) => (await deps.organizationMailer(organizationId)) ?? smtp,
    logger: deps.logger,
  });
  return { sources, printer, mailings };
}
