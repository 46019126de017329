import { connectorOf } from '../connectors/index.js';
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import type { ExportDocument, ExportedMonitor } from '../exports/index.js';
import { secretFieldsOf } from '../notifications/index.js';
import { groupBy } from '../runtime/index.js';
import type { DeclaredMonitor } from './monitor-entries.js';
import type { WrittenFile } from './plan-steps.js';

/** What of an export a file cannot carry (write-only values are not exported), said per thing. */
export interface ExportNote {
  label: string;
  note: string;
}

type ExportedWebsite = ExportDocument['websites'][number];

/**
 * An export as a monitoring file: every thing by its key instead of its id, write-only values
 * left out (each said in the notes). Importing it, or applying it, reproduces the configuration.
 */
export function fileFromExport(exported: ExportDocument): { file: WrittenFile; notes: ExportNote[] } {
  const notes: ExportNote[] = [];
  const packageKey = new Map(exported.packages.map((pkg) => [pkg.id, pkg.key]));
  const customerName = new Map(exported.customers.map((customer) => [customer.id, customer.name]));
  const channelName = new Map(exported.channels.map((channel) => [channel.id, channel.name]));
  // A page names its websites by URL, with the method when it is not a GET (two may share a URL).
  const websiteUrl = new Map(
    exported.websites.map((website) => [
      website.id,
      website.httpMethod === 'GET' ? website.url : `${website.httpMethod} ${website.url}`,
    ]),
  );
  const packageThreshold = new Map(
    exported.packages.map((pkg) => [pkg.id, pkg.alerting.responseTimeThresholdMs]),
  );
  const thresholdOf = new Map(
    exported.customers.map((customer) => [customer.id, packageThreshold.get(customer.packageId)]),
  );
  const windowsOf = groupBy(exported.maintenanceWindows, (window) => window.websiteId);
  const websitesOf = groupBy(exported.websites, (website) => website.customerId);
  const monitorsOf = groupBy(exported.monitors, (monitor) => monitor.websiteId);

  /** A monitor as its create takes it: its credentials and a heartbeat's ping URL are not exported (said). */
  const monitor = (
    site: ExportedWebsite,
    { id, websiteId, createdAt, updatedAt, secretNames, ...fields }: ExportedMonitor,
  ) => {
    const label = `${MONITOR_KIND_NOUNS[fields.kind]} "${fields.name}" (${site.name})`;
    const secrets = Object.entries(secretNames ?? {}).flatMap(([field, names]) =>
      names.map((name) => `${field}.${name}`),
    );
    if (secrets.length > 0)
      notes.push({
        label,
        note: `credentials not carried (write-only): ${secrets.join(', ')}: give them as {env: NAME}`,
      });
    if (fields.kind === 'heartbeat')
      notes.push({
        label,
        note: 'its ping URL is not carried (a credential): one made from this has a new one',
      });
    return fields as DeclaredMonitor;
  };

  const website = (site: ExportedWebsite) => {
    const label = `website "${site.name}"`;
    if (site.secretHeaderNames.length > 0)
      notes.push({
        label,
        note: `secret headers not carried (write-only): ${site.secretHeaderNames.join(', ')}`,
      });
    if (site.requestBodySecret)
      notes.push({ label, note: 'its secret request body is not carried (write-only)' });
    if (site.mtlsClientKeySet)
      notes.push({
        label,
        note: 'its mTLS client key is not carried (write-only): give it as mtlsClientKey',
      });
    const { websiteId: _websiteId, responseTimeThresholdMs, ...checkConfig } = site.checkConfig;
    // The view shows the threshold in force: the package's is left out, so the website keeps following it.
    const ownThreshold = responseTimeThresholdMs !== thresholdOf.get(site.customerId);
    return {
      name: site.name,
      url: site.url,
      httpMethod: site.httpMethod,
      customHeaders: site.customHeaders,
      ...(site.requestBodySecret ? {} : { requestBody: site.requestBody }),
      followRedirects: site.followRedirects,
      maxRedirects: site.maxRedirects,
      cookieHandling: site.cookieHandling,
      mtlsEnabled: site.mtlsEnabled,
      mtlsClientCert: site.mtlsClientCert,
      checkInterval: site.checkInterval,
      timeoutSeconds: site.timeoutSeconds,
      regions: site.regions,
      paused: site.paused,
      notificationChannels: site.notificationChannelIds.flatMap((id) => channelName.get(id) ?? []),
      checkConfig: ownThreshold ? { ...checkConfig, responseTimeThresholdMs } : checkConfig,
      maintenance: (windowsOf.get(site.id) ?? []).map((window) => ({
        title: window.title,
        startsAt: window.startsAt,
        endsAt: window.endsAt,
        timezone: window.timezone,
        recurrence: window.recurrence,
      })),
      monitors: (monitorsOf.get(site.id) ?? []).map((each) => monitor(site, each)),
    };
  };

  const file: WrittenFile = {
    version: 1,
    packages: exported.packages.map((pkg) => ({
      key: pkg.key,
      displayName: pkg.displayName,
      features: pkg.features,
      limits: pkg.limits,
      alerting: pkg.alerting,
    })),
    customers: exported.customers.map((customer) => ({
      name: customer.name,
      ...(customer.email === undefined ? {} : { email: customer.email }),
      ...(customer.notificationEmail === undefined ? {} : { notificationEmail: customer.notificationEmail }),
      ...(customer.reportIntro === undefined ? {} : { reportIntro: customer.reportIntro }),
      package: packageKey.get(customer.packageId) ?? String(customer.packageId),
      websites: (websitesOf.get(customer.id) ?? []).map(website),
    })),
    channels: exported.channels.map((channel) => {
      const secrets = secretFieldsOf(channel.type);
      const carried = secrets.filter((field) => channel.config[`${field}Set`] === true);
      const label = `channel "${channel.name}"`;
      if (carried.length > 0)
        notes.push({
          label,
          note: `write-only ${carried.join(', ')} not carried: give ${carried.length > 1 ? 'them' : 'it'} again (in the app, or as {env: NAME})`,
        });
      if (connectorOf(channel.type).signs)
        notes.push({
          label,
          note: 'a new channel signs with a new secret: see it by rotating it in the app',
        });
      const config = Object.fromEntries(
        Object.entries(channel.config).filter(
          ([field]) => !secrets.some((secret) => field === `${secret}Set` || field === secret),
        ),
      );
      const { customerId } = channel.scope;
      return {
        type: channel.type,
        name: channel.name,
        enabled: channel.enabled,
        events: channel.events,
        scope:
          customerId !== undefined
            ? { customer: customerName.get(customerId) ?? String(customerId) }
            : channel.scope.listedOnly
              ? { listedOnly: true }
              : {},
        config,
        ...(channel.template ? { template: channel.template } : {}),
        ...(channel.grouping ? { grouping: channel.grouping } : {}),
      };
    }),
    statusPages: exported.statusPages.map((page) => {
      if (page.access.passwordSet)
        notes.push({
          label: `status page "${page.slug}"`,
          note: 'its password is not carried (write-only): give access.password to make it elsewhere',
        });
      return {
        slug: page.slug,
        title: page.title,
        customer: customerName.get(page.customerId) ?? String(page.customerId),
        websites: page.websiteIds === null ? null : page.websiteIds.flatMap((id) => websiteUrl.get(id) ?? []),
        branding: page.branding,
        public: page.public,
        showResponseTimes: page.showResponseTimes,
        embedAllowedOrigins: page.embedAllowedOrigins,
        // Who may see it travels with it (a private page made public by a round trip would leak).
        access: { mode: page.access.mode, cidrs: page.access.cidrs },
      };
    }),
  };
  return { file, notes };
}
