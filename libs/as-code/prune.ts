import { MONITOR_KIND_NOUNS } from '../events/index.js';
import type { ExportDocument } from '../exports/index.js';
import type { Step } from './plan-steps.js';
import { monitorKey, type ResourceKind, websiteKey, windowKey } from './resource-keys.js';

/**
 * What `prune` deletes: what the organization has and the file neither describes nor names
 * (`kept`), dependants first. A website's monitors go with it, or when the file lists the
 * website's monitors (`listing`, by website key) without them.
 */
export function pruneSteps(
  current: ExportDocument,
  kept: (kind: ResourceKind, key: string) => boolean,
  listing: ReadonlySet<string>,
): Step[] {
  const customerNames = new Map(current.customers.map((customer) => [customer.id, customer.name]));
  const steps: Step[] = [];
  const remove = (kind: ResourceKind, key: string, label: string, id: number, address = String(id)) =>
    steps.push({ action: 'delete', kind, key, label, id, address });
  for (const page of current.statusPages)
    if (!kept('statusPage', page.slug))
      remove('statusPage', page.slug, `status page "${page.slug}"`, page.id);
  const removedWebsites = new Set<number>();
  const websites = current.websites.map((website) => ({
    website,
    key: websiteKey(customerNames.get(website.customerId) ?? '', website.httpMethod, website.url),
  }));
  for (const { website, key } of websites) if (!kept('website', key)) removedWebsites.add(website.id);
  const websiteKeys = new Map(websites.map(({ website, key }) => [website.id, key]));
  for (const window of current.maintenanceWindows) {
    // A deleted website takes its windows with it.
    const key = windowKey(websiteKeys.get(window.websiteId) ?? '', window.title);
    if (!removedWebsites.has(window.websiteId) && !kept('maintenanceWindow', key))
      remove('maintenanceWindow', key, `maintenance window "${window.title}"`, window.id);
  }
  // A website's monitors go when it goes, or when the file lists its monitors without them.
  const websiteNames = new Map(websites.map(({ website }) => [website.id, website.name]));
  for (const monitor of current.monitors) {
    const ofWebsite = websiteKeys.get(monitor.websiteId) ?? '';
    const key = monitorKey(ofWebsite, monitor.name);
    if ((removedWebsites.has(monitor.websiteId) || listing.has(ofWebsite)) && !kept('monitor', key))
      remove(
        'monitor',
        key,
        `${MONITOR_KIND_NOUNS[monitor.kind]} "${monitor.name}" (${websiteNames.get(monitor.websiteId)})`,
        monitor.id,
      );
  }
  for (const { website, key } of websites)
    if (removedWebsites.has(website.id))
      remove('website', key, `website "${website.name}"`, website.id, website.publicId);
  for (const channel of current.channels)
    if (!kept('channel', channel.name))
      remove('channel', channel.name, `channel "${channel.name}"`, channel.id);
  for (const customer of current.customers)
    if (!kept('customer', customer.name))
      remove('customer', customer.name, `customer "${customer.name}"`, customer.id);
  for (const pkg of current.packages)
    if (!kept('package', pkg.key)) remove('package', pkg.key, `package "${pkg.key}"`, pkg.id);
  return steps;
}
