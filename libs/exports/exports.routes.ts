import { z } from 'zod';
import { decimalInteger } from '../contract/index.js';
import { type CustomerDocument, customerView, toCustomerView } from '../customers/index.js';
import { invalidInput } from '../errors/index.js';
import { defineRoute, type Route } from '../http/index.js';
import { type MaintenanceWindowDocument, toWindowView, windowView } from '../maintenance/index.js';
import type { MonitorDocument } from '../monitors/index.js';
import { type ChannelDocument, channelView, toChannelView } from '../notifications/index.js';
import { type PackageDocument, packageView, toPackageView } from '../packages/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import { type StatusPageDocument, statusPageView, toStatusPageView } from '../status-pages/index.js';
import {
  checkConfigView,
  toCheckConfigView,
  toWebsiteView,
  type WebsiteDocument,
  websiteView,
} from '../websites/index.js';
import { exportedMonitor, toExportedMonitor } from './monitor-export.js';
import { websitesCsv } from './websites-csv.js';

/** A website's monitors are read by primary key (its list, then each): this many websites' at once. */
const MONITOR_READS_AT_ONCE = 16;

/** Everything an organization (or one customer) has configured, as the API's own views. */
export const exportDocument = z
  .object({
    format: z.literal('webmon'),
    version: z.literal(1),
    exportedAt: z.iso.datetime(),
    customerId: z.number().int().nullable().describe('The customer it is limited to; null: the organization'),
    packages: z.array(packageView),
    customers: z.array(customerView),
    websites: z.array(websiteView.extend({ checkConfig: checkConfigView })),
    maintenanceWindows: z.array(windowView),
    monitors: z
      .array(exportedMonitor)
      .default([])
      .describe(
        "The websites' heartbeats, DNS, port and probe checks (an export made before they were carried has none)",
      ),
    channels: z
      .array(channelView)
      .describe('Write-only fields are not exported: each shows as `<field>Set: true|false`'),
    statusPages: z.array(statusPageView),
  })
  .meta({ id: 'Export' });
export type ExportDocument = z.output<typeof exportDocument>;

/** What an export reads, each scoped to the organization. */
export interface ExportSources {
  packages(organizationId: number): Promise<PackageDocument[]>;
  customers(organizationId: number): Promise<CustomerDocument[]>;
  websites(organizationId: number, customerId: number | undefined): Promise<WebsiteDocument[]>;
  maintenanceWindows(
    organizationId: number,
    websiteIds: readonly number[],
  ): Promise<MaintenanceWindowDocument[]>;
  /** The website's heartbeats, DNS, port and probe checks. */
  monitors(organizationId: number, websiteId: number): Promise<MonitorDocument[]>;
  channels(organizationId: number, customerId: number | undefined): Promise<ChannelDocument[]>;
  statusPages(organizationId: number, customerId: number | undefined): Promise<StatusPageDocument[]>;
}

export function exportRoutes(sources: ExportSources): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/exports',
      operationId: 'exportConfiguration',
      summary: 'Everything configured, to keep or to move: as JSON, or the websites as CSV',
      description:
        '`format=webmon-json`: packages, customers, websites with their check configuration, maintenance windows, the websites’ monitors (heartbeats, DNS, port and probe checks, as their create routes take them; credentials named in `secretNames`, a heartbeat’s ping URL left out), notification channels (write-only fields left out, marked `<field>Set`) and status pages, as the API shows each. `format=csv`: one row per website in the columns POST /api/imports {format: "csv"} reads (`customer, name, url, intervalSeconds, timeoutSeconds, method, keyword, keywordMode, expectedStatusCodes, paused`), RFC 4180, cells a spreadsheet would run as formulas prefixed with an apostrophe. `customerId` limits it to one customer.',
      tags: ['Websites'],
      access: 'read',
      query: z.strictObject({
        format: z.enum(['webmon-json', 'csv']).default('webmon-json'),
        customerId: decimalInteger({ min: 1, max: Number.MAX_SAFE_INTEGER }).optional(),
      }),
      success: {
        status: 200,
        description: 'The export (a download: Content-Disposition names the file)',
        schema: exportDocument,
        headers: ['Content-Disposition'],
        alternatives: [
          {
            contentType: 'text/csv; charset=utf-8',
            schema: z.string().describe('`format=csv`: the websites, one a row'),
          },
        ],
      },
      handle: async ({ auth, query, ctx }) => {
        const customerId = query.customerId;
        const stamp = new Date().toISOString().slice(0, 10);
        const file = `webmon-${customerId === undefined ? 'organization' : `customer-${customerId}`}-${stamp}`;
        if (query.format === 'csv') {
          const allCustomers = await sources.customers(auth.organizationId);
          const websites = await sources.websites(auth.organizationId, customerId);
          requireCustomer(allCustomers, customerId);
          const names = new Map(allCustomers.map((customer) => [customer.id, customer.name]));
          ctx.type = 'text/csv; charset=utf-8';
          ctx.set('Content-Disposition', `attachment; filename="${file}.csv"`);
          return websitesCsv(websites, (id) => names.get(id) ?? String(id));
        }
        const document = await buildExport(sources, auth.organizationId, customerId);
        ctx.type = 'application/json; charset=utf-8';
        ctx.set('Content-Disposition', `attachment; filename="${file}.json"`);
        return document;
      },
    }),
  ];
}

function requireCustomer(customers: readonly CustomerDocument[], customerId: number | undefined): void {
  if (customerId !== undefined && !customers.some((customer) => customer.id === customerId))
    throw invalidInput(`Unknown customer ${customerId}`, [
      { path: 'customerId', message: `No customer ${customerId} in your organization` },
    ]);
}

/** The organization's configuration (or one customer's) as the API shows each thing. */
export async function buildExport(
  sources: ExportSources,
  organizationId: number,
  customerId?: number,
): Promise<z.input<typeof exportDocument>> {
  const [packages, allCustomers, websites] = await Promise.all([
    sources.packages(organizationId),
    sources.customers(organizationId),
    sources.websites(organizationId, customerId),
  ]);
  requireCustomer(allCustomers, customerId);
  const customers =
    customerId === undefined ? allCustomers : allCustomers.filter((customer) => customer.id === customerId);
  const packageOf = new Map(packages.map((pkg) => [pkg.id, pkg]));
  const customerPackage = new Map(
    customers.map((customer) => [customer.id, packageOf.get(customer.packageId)]),
  );
  const usedPackages = new Set(customers.map((customer) => customer.packageId));
  const reads = new ConcurrencyLimit(MONITOR_READS_AT_ONCE);
  const [maintenanceWindows, monitors, channels, statusPages] = await Promise.all([
    sources.maintenanceWindows(
      organizationId,
      websites.map((website) => website.id),
    ),
    Promise.all(websites.map((website) => reads.run(() => sources.monitors(organizationId, website.id)))),
    sources.channels(organizationId, customerId),
    sources.statusPages(organizationId, customerId),
  ]);
  return {
    format: 'webmon' as const,
    version: 1 as const,
    exportedAt: new Date().toISOString(),
    customerId: customerId ?? null,
    packages: packages
      .filter((pkg) => customerId === undefined || usedPackages.has(pkg.id))
      .map(toPackageView),
    customers: customers.map((customer) =>
      toCustomerView(customer, packageOf.get(customer.packageId)?.displayName ?? ''),
    ),
    websites: websites.flatMap((website) => {
      const pkg = customerPackage.get(website.customerId);
      return pkg ? [{ ...toWebsiteView(website), checkConfig: toCheckConfigView(website, pkg) }] : [];
    }),
    maintenanceWindows: maintenanceWindows.map(toWindowView),
    monitors: monitors.flat().map(toExportedMonitor),
    channels: channels.map(toChannelView),
    statusPages: statusPages.map(toStatusPageView),
  };
}
