import type { Db } from 'mongodb';
import type { OrganizationRepository } from '../auth/index.js';
import type { CustomerRepository } from '../customers/index.js';
import { knownDomainExpiries } from '../domains/index.js';
import type { MaintenanceWindowRepository } from '../maintenance/index.js';
import type { MonitorStateRepository, RollupRepository } from '../monitoring/index.js';
import type { LogoStore } from '../organizations/index.js';
import type { WebsiteRepository } from '../websites/index.js';
import type { ReportSources } from './report-builder.js';

/** A report's sources over the control plane's repositories. */
export function repositoryReportSources(deps: {
  db: Db;
  organizations: OrganizationRepository;
  customers: CustomerRepository;
  websites: WebsiteRepository;
  rollups: RollupRepository;
  states: MonitorStateRepository;
  windows: MaintenanceWindowRepository;
  logos: LogoStore;
}): ReportSources {
  return {
    organization: async (organizationId) => {
      const [organization, logo] = await Promise.all([
        deps.organizations.findById(organizationId),
        deps.logos.get(organizationId),
      ]);
      return {
        name: organization?.name ?? '',
        timezone: organization?.timezone ?? 'UTC',
        branding: {
          accentColor: organization?.branding?.accentColor ?? null,
          footerText: organization?.branding?.footerText ?? null,
          // Inline: the page, its e-mail and its PDF need nothing fetched.
          logoDataUrl: logo && `data:${logo.contentType};base64,${logo.data.toString('base64')}`,
        },
      };
    },
    customer: async (organizationId, customerId) => {
      const customer = await deps.customers.findById(organizationId, customerId);
      return customer && { id: customer.id, name: customer.name, reportIntro: customer.reportIntro ?? null };
    },
    websites: async (organizationId, customerId) => {
      const websites = await deps.websites.listByCustomer(organizationId, customerId);
      const states = await deps.states.statesOf(
        organizationId,
        websites.map((w) => w.id),
      );
      return websites.map((w) => ({
        id: w.id,
        name: w.name,
        url: w.url,
        createdAt: w.createdAt,
        lastCheckedAt: states.get(w.id)?.lastResultAt ?? null,
      }));
    },
    dayRollups: (organizationId, websiteIds, from, until) =>
      deps.rollups.since(organizationId, websiteIds, 'day', from, until),
    incidents: async (organizationId, websiteIds, since) =>
      (await deps.states.incidentsOfWebsites(organizationId, websiteIds, since)).map((incident) => ({
        id: incident.id,
        websiteId: incident.websiteId,
        startedAt: incident.startedAt,
        resolvedAt: incident.resolvedAt,
        cause: incident.cause,
        regions: incident.regions,
        publicNote: incident.publicNote?.text ?? null,
      })),
    windows: (organizationId, websiteIds) => deps.windows.listByWebsites(organizationId, websiteIds),
    domainExpiries: async (websites) => {
      const hosts = websites.map((w) => new URL(w.url).hostname);
      const domains = await knownDomainExpiries(deps.db, hosts);
      return new Map(websites.map((w, i) => [w.id, domains.get(hosts[i] as string) ?? null]));
    },
  };
}
