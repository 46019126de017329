import { z } from 'zod';
import { type CustomerDocument, customerView, toCustomerView } from '../customers/index.js';
import { invalidInput } from '../errors/index.js';
import { type MaintenanceWindowDocument, toWindowView, windowView } from '../maintenance/index.js';
import type { MonitorDocument } from '../monitors/index.js';
import { type ChannelDocument, channelView, toChannelView } from '../notifications/index.js';
import { type PackageDocument, packageView, toPackageView } from '../packages/index.js';
import { backgroundTurns, ConcurrencyLimit, mapInTurns } from '../runtime/index.js';
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

/**
 * Each exported website's maintenance windows and monitors are read by primary key (its list, then
 * each; FerretDB 1.24 scans for `_id: {$in}`): an export reads this many websites' at once. An
 * export of 3,000 websites is 6,000 such reads; at 16 at once, two exports kept other requests'
 * reads queued behind 32 of theirs on FerretDB and on the API's event loop.
 */
const LIST_READS_AT_ONCE = 4;

/**
 * Reading which websites have a window or monitor list at all (every list stored, by one read) is
 * asked only when it reads at most this many lists per list an export would read by primary key:
 * a list read in a scan costs a small part of a read by primary key (its round trip, on FerretDB
 * ~0.3 ms against tens of microseconds), so this errs towards the reads by key.
 */
const LISTS_SCANNED_PER_READ_SAVED = 5;

/** Exports of fewer websites read their lists by key without asking (a page's worth at most). */
const WEBSITES_WORTH_A_SCAN = 100;

/** The export's text handed to the socket in pieces of about this many characters (each write a short step). */
const WRITE_CHARS = 16 * 1024;

/** Websites read, and written, per page while an export is made: its memory is a page, not the whole. */
const WEBSITES_PER_PAGE = 100;

/** Each list of the export and the schema of one of its items (an item is parsed by it as it is written). */
const EXPORT_ITEMS = {
  packages: packageView,
  customers: customerView,
  websites: websiteView.extend({ checkConfig: checkConfigView }),
  maintenanceWindows: windowView,
  monitors: exportedMonitor,
  channels: channelView,
  statusPages: statusPageView,
};
type ExportList = keyof typeof EXPORT_ITEMS;
/** Some items of one list, in the document's order (a list comes in one or more pieces). */
type ExportPiece = { [L in ExportList]: readonly [L, Array<z.input<(typeof EXPORT_ITEMS)[L]>>] }[ExportList];

/** Everything an organization (or one customer) has configured, as the API's own views. */
export const exportDocument = z
  .object({
    format: z.literal('webmon'),
    version: z.literal(1),
    exportedAt: z.iso.datetime(),
    customerId: z.number().int().nullable().describe('The customer it is limited to; null: the organization'),
    packages: z.array(EXPORT_ITEMS.packages),
    customers: z.array(EXPORT_ITEMS.customers),
    websites: z.array(EXPORT_ITEMS.websites),
    maintenanceWindows: z.array(EXPORT_ITEMS.maintenanceWindows),
    monitors: z
      .array(EXPORT_ITEMS.monitors)
      .default([])
      .describe(
        "The websites' heartbeats, DNS, port and probe checks (an export made before they were carried has none)",
      ),
    channels: z
      .array(EXPORT_ITEMS.channels)
      .describe('Write-only fields are not exported: each shows as `<field>Set: true|false`'),
    statusPages: z.array(EXPORT_ITEMS.statusPages),
  })
  .meta({ id: 'Export' });
export type ExportDocument = z.output<typeof exportDocument>;

/** What an export reads, each scoped to the organization. */
export interface ExportSources {
  packages(organizationId: number): Promise<PackageDocument[]>;
  customers(organizationId: number): Promise<CustomerDocument[]>;
  /** A page of the websites (of one customer, if given) by id, after `afterId`; fewer than `limit`: the last. */
  websites(
    organizationId: number,
    customerId: number | undefined,
    page: { afterId: number; limit: number },
  ): Promise<WebsiteDocument[]>;
  maintenanceWindows(
    organizationId: number,
    websiteIds: readonly number[],
  ): Promise<MaintenanceWindowDocument[]>;
  /** The website's heartbeats, DNS, port and probe checks. */
  monitors(organizationId: number, websiteId: number): Promise<MonitorDocument[]>;
  /**
   * The websites (of any organization) that have a list of maintenance windows and of monitors,
   * by one read of every list stored, or null when more than `atMost` lists are stored. A website
   * with neither list has neither; its two reads by primary key are skipped.
   */
  listedWebsites(atMost: number): Promise<{ windows: Set<number>; monitors: Set<number> } | null>;
  channels(organizationId: number, customerId: number | undefined): Promise<ChannelDocument[]>;
  statusPages(organizationId: number, customerId: number | undefined): Promise<StatusPageDocument[]>;
}

/**
 * The export's text, made piece by piece as it is written. The customers are read before the first
 * piece: a customer that is not the organization's is an invalid input, not a download cut short.
 */
export async function exportText(
  sources: ExportSources,
  organizationId: number,
  customerId: number | undefined,
  format: 'webmon-json' | 'csv',
): Promise<AsyncIterable<string>> {
  const customers = await sources.customers(organizationId);
  requireCustomer(customers, customerId);
  return format === 'csv'
    ? csvText(sources, organizationId, customerId, customers)
    : jsonText(exportHead(customerId), exportPieces(sources, organizationId, customerId, customers));
}

function requireCustomer(customers: readonly CustomerDocument[], customerId: number | undefined): void {
  if (customerId !== undefined && !customers.some((customer) => customer.id === customerId))
    throw invalidInput(`Unknown customer ${customerId}`, [
      { path: 'customerId', message: `No customer ${customerId} in your organization` },
    ]);
}

/** The organization's websites (or one customer's), page by page. */
async function* websitePages(
  sources: ExportSources,
  organizationId: number,
  customerId: number | undefined,
): AsyncGenerator<WebsiteDocument[]> {
  for (let afterId = 0; ; ) {
    const page = await sources.websites(organizationId, customerId, { afterId, limit: WEBSITES_PER_PAGE });
    yield page;
    const last = page.at(-1);
    if (page.length < WEBSITES_PER_PAGE || !last) return;
    afterId = last.id;
  }
}

/** The websites as CSV, a page at a time after the header. */
async function* csvText(
  sources: ExportSources,
  organizationId: number,
  customerId: number | undefined,
  customers: readonly CustomerDocument[],
): AsyncGenerator<string> {
  const names = new Map(customers.map((customer) => [customer.id, customer.name]));
  let header = true;
  for await (const page of websitePages(sources, organizationId, customerId)) {
    yield websitesCsv(page, (id) => names.get(id) ?? String(id), { header });
    header = false;
  }
}

/**
 * The export's lists in the document's order, each in one or more pieces: the websites a page at a
 * time, their maintenance windows and monitors for a page of their ids at a time.
 */
async function* exportPieces(
  sources: ExportSources,
  organizationId: number,
  customerId: number | undefined,
  allCustomers: readonly CustomerDocument[],
): AsyncGenerator<ExportPiece> {
  const packages = await sources.packages(organizationId);
  const customers =
    customerId === undefined ? allCustomers : allCustomers.filter((customer) => customer.id === customerId);
  const packageOf = new Map(packages.map((pkg) => [pkg.id, pkg]));
  const usedPackages = new Set(customers.map((customer) => customer.packageId));
  yield [
    'packages',
    packages.filter((pkg) => customerId === undefined || usedPackages.has(pkg.id)).map(toPackageView),
  ];
  yield [
    'customers',
    customers.map((customer) =>
      toCustomerView(customer, packageOf.get(customer.packageId)?.displayName ?? ''),
    ),
  ];
  const customerPackage = new Map(
    customers.map((customer) => [customer.id, packageOf.get(customer.packageId)]),
  );
  // Only the ids are kept (numbers): the windows and monitors are read for them after the websites.
  const websiteIds: number[] = [];
  for await (const page of websitePages(sources, organizationId, customerId)) {
    websiteIds.push(...page.map((website) => website.id));
    const views = await mapInTurns(page, (website) => {
      const pkg = customerPackage.get(website.customerId);
      return pkg ? [{ ...toWebsiteView(website), checkConfig: toCheckConfigView(website, pkg) }] : [];
    });
    yield ['websites', views.flat()];
  }
  const idPages = Array.from(
    { length: Math.max(1, Math.ceil(websiteIds.length / WEBSITES_PER_PAGE)) },
    (_, i) => websiteIds.slice(i * WEBSITES_PER_PAGE, (i + 1) * WEBSITES_PER_PAGE),
  );
  const reads = new ConcurrencyLimit(LIST_READS_AT_ONCE);
  const listed =
    websiteIds.length >= WEBSITES_WORTH_A_SCAN
      ? await sources.listedWebsites(2 * websiteIds.length * LISTS_SCANNED_PER_READ_SAVED)
      : null;
  for (const ids of idPages) {
    // Website by website, as the monitors: a page's ids at once read 16 websites' lists at a time.
    const windows = await Promise.all(
      ids
        .filter((id) => !listed || listed.windows.has(id))
        .map((id) => reads.run(() => sources.maintenanceWindows(organizationId, [id]))),
    );
    yield [
      'maintenanceWindows',
      windows
        .flat()
        .sort((a, b) => a.id - b.id)
        .map(toWindowView),
    ];
  }
  for (const ids of idPages) {
    const monitors = await Promise.all(
      ids
        .filter((id) => !listed || listed.monitors.has(id))
        .map((id) => reads.run(() => sources.monitors(organizationId, id))),
    );
    yield ['monitors', monitors.flat().map(toExportedMonitor)];
  }
  yield ['channels', (await sources.channels(organizationId, customerId)).map(toChannelView)];
  yield ['statusPages', (await sources.statusPages(organizationId, customerId)).map(toStatusPageView)];
}

/** The head of the document: what it is and when it was made. */
const exportHead = (customerId: number | undefined) => ({
  format: 'webmon' as const,
  version: 1 as const,
  exportedAt: new Date().toISOString(),
  customerId: customerId ?? null,
});

/** The document as JSON text written piece by piece, each item parsed by its list's schema as `exportDocument` would. */
async function* jsonText(
  head: ReturnType<typeof exportHead>,
  pieces: AsyncIterable<ExportPiece>,
): AsyncGenerator<string> {
  const headText = JSON.stringify(head);
  let open: ExportList | null = null;
  let empty = true;
  for await (const [list, items] of pieces) {
    let text = '';
    if (list !== open) {
      text += open === null ? `${headText.slice(0, -1)},` : '],';
      text += `${JSON.stringify(list)}:[`;
      open = list;
      empty = true;
    }
    const schema: z.ZodType = EXPORT_ITEMS[list];
    for (const item of items) {
      text += `${empty ? '' : ','}${JSON.stringify(schema.parse(item))}`;
      empty = false;
      // A page of 100 websites in one go held the event loop ~7 ms (0.2 s of CPU an export of 3,000);
      // a page's text written at once, ~1 ms more (the socket's copy of a string of ~100 KB).
      if (text.length >= WRITE_CHARS) {
        yield text;
        text = '';
      }
      await backgroundTurns.pause();
    }
    if (text) yield text;
  }
  yield open === null ? headText : ']}';
}

/** The organization's configuration (or one customer's) as the API shows each thing, whole (an import's plan). */
export async function buildExport(
  sources: ExportSources,
  organizationId: number,
  customerId?: number,
): Promise<z.input<typeof exportDocument>> {
  const customers = await sources.customers(organizationId);
  requireCustomer(customers, customerId);
  const document: z.input<typeof exportDocument> = {
    ...exportHead(customerId),
    packages: [],
    customers: [],
    websites: [],
    maintenanceWindows: [],
    monitors: [],
    channels: [],
    statusPages: [],
  };
  for await (const [list, items] of exportPieces(sources, organizationId, customerId, customers))
    (document[list] as unknown[]).push(...items);
  return document;
}
