// Whole on purpose (over 400 lines): the Planner is one pass over the file whose methods all share its
// state (names by id, keys described, references, steps, problems); split apart, each part would
// reach into the others' private maps.
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import type { ExportDocument } from '../exports/index.js';
import { kindTerms } from '../monitors/index.js';
import { secretFieldsOf } from '../notifications/index.js';
import { includesFeature } from '../packages/index.js';
import { changedFields, diffWritten } from './field-diff.js';
import { type DeclaredMonitor, monitorSides } from './monitor-entries.js';
import {
  type Body,
  type Plan,
  type PlanOptions,
  PlanProblems,
  type Step,
  type WrittenFile,
  type WrittenWebsite,
} from './plan-steps.js';
import { pruneSteps } from './prune.js';
import {
  KnownIds,
  monitorKey,
  optional,
  type Reference,
  type ResourceKind,
  reference,
  urlKey,
  websiteKey,
  windowKey,
} from './resource-keys.js';

/**
 * What it takes to bring the organization (`current`, its export) to the file: creates and
 * changes in the order things depend on each other, then (with `prune`) deletes in reverse.
 * Pure: the same file and organization always give the same plan.
 */
export function planChanges(file: WrittenFile, current: ExportDocument, options: PlanOptions): Plan {
  const planner = new Planner(current, options);
  planner.plan(file);
  return {
    steps: [...planner.steps, ...planner.deletes()],
    unchanged: planner.unchanged,
    known: planner.known,
    refused: planner.refused,
  };
}

class Planner {
  readonly steps: Step[] = [];
  readonly unchanged: Plan['unchanged'] = [];
  private readonly problems: Array<{ path: string; message: string }> = [];
  readonly known = new KnownIds();
  /** Things the file names (described or not): `prune` never deletes them. */
  private readonly referenced = new Set<string>();
  /** Creating only: things left out, with why. */
  readonly refused: Plan['refused'] = [];
  /** The file's websites by name, for pages that list them so. */
  private readonly fileWebsites: Array<{ customer: string; name: string; url: string; key: string }> = [];
  private readonly ambiguous = new Set<string>();
  /** Keys the file describes, by kind: what `prune` keeps. */
  private readonly described = new Map<ResourceKind, Set<string>>();
  /** The file's websites that list their monitors (`prune` deletes only theirs), with them. */
  private readonly monitorLists: Array<{
    ofWebsite: string;
    website: string;
    path: string;
    packageKey: string;
    monitors: DeclaredMonitor[];
  }> = [];
  /** The packages the file describes, by key (their features decide which monitors it may have). */
  private readonly filePackages = new Map<string, NonNullable<WrittenFile['packages']>[number]>();
  private readonly names = {
    package: new Map<number, string>(),
    customer: new Map<number, string>(),
    channel: new Map<number, string>(),
    website: new Map<number, string>(),
    monitor: new Map<number, string>(),
  };

  constructor(
    private readonly current: ExportDocument,
    private readonly options: PlanOptions,
  ) {
    for (const pkg of current.packages) this.learn('package', pkg.key, pkg.id);
    for (const customer of current.customers) this.learn('customer', customer.name, customer.id);
    for (const channel of current.channels) this.learn('channel', channel.name, channel.id);
    for (const website of current.websites) {
      const owner = this.names.customer.get(website.customerId);
      if (owner !== undefined)
        this.learn('website', websiteKey(owner, website.httpMethod, website.url), website.id);
    }
    for (const monitor of current.monitors) {
      const ofWebsite = this.names.website.get(monitor.websiteId);
      if (ofWebsite !== undefined) this.learn('monitor', monitorKey(ofWebsite, monitor.name), monitor.id);
    }
  }

  /** The organization's thing under this key (two under one key cannot be told apart). */
  private learn(kind: keyof Planner['names'], key: string, id: number): void {
    this.names[kind].set(id, key);
    if (this.known.get(kind, key) !== undefined) this.ambiguous.add(`${kind}\n${key}`);
    this.known.set(kind, key, id);
  }

  private describe(kind: ResourceKind, key: string, path: string): boolean {
    const keys = this.described.get(kind) ?? new Set<string>();
    this.described.set(kind, keys);
    const problem = keys.has(key)
      ? `"${key}" is described twice`
      : this.ambiguous.has(`${kind}\n${key}`)
        ? `your organization has two of kind ${kind} known as "${key}": rename or delete one, then plan again`
        : null;
    if (problem) {
      this.refuse(kind, `${kind} "${key}"`, path, problem);
      return false;
    }
    keys.add(key);
    return true;
  }

  /** A thing that cannot be planned: creating only (an import) it is left out and said; a file to apply must be clear. */
  private refuse(kind: ResourceKind, label: string, path: string, message: string): void {
    if (this.options.createOnly) this.refused.push({ kind, label, reason: message });
    else this.problems.push({ path, message });
  }

  /** A thing named by the file: it must exist (or be described), and `prune` keeps it. */
  private ref(kind: ResourceKind, key: string, path: string): number | Reference {
    if (this.known.get(kind, key) === undefined && !this.described.get(kind)?.has(key))
      this.problems.push({ path, message: `no ${kind} "${key}" in the file or your organization` });
    this.referenced.add(`${kind}\n${key}`);
    return this.known.resolve(reference(kind, key));
  }

  /** A thing the file describes: made when missing, changed where it differs. */
  private reconcile(
    kind: ResourceKind,
    key: string,
    label: string,
    found: { id: number; view: Body; address?: string } | undefined,
    written: Body,
    extra: {
      /** What is compared, when it differs from what is sent (sealed values, names for ids). */
      compared?: Body;
      /** A compared field sent under another name (`package` as `packageId`). */
      sentAs?: Record<string, string>;
      /** Fields sent along when one changes (a sealed body with its flag). */
      sentWith?: Record<string, readonly string[]>;
      checkConfig?: { written: Body; current: Body };
      /** Every field is replaced whole by PATCH (a monitor's). */
      whole?: boolean;
    } = {},
  ): void {
    if (!found) {
      this.steps.push({ action: 'create', kind, key, label, body: written });
      return;
    }
    const changes = diffWritten(extra.compared ?? written, found.view, '', extra.whole);
    const configChanges = extra.checkConfig
      ? diffWritten(extra.checkConfig.written, extra.checkConfig.current).map((change) => ({
          ...change,
          field: `checkConfig.${change.field}`,
        }))
      : [];
    if (this.options.createOnly || (changes.length === 0 && configChanges.length === 0)) {
      this.unchanged.push({ kind, label });
      return;
    }
    this.steps.push({
      action: 'change',
      kind,
      key,
      label,
      id: found.id,
      address: found.address ?? String(found.id),
      changes: [...changes, ...configChanges],
      body: changedFields(
        written,
        changes.flatMap((change) => {
          const [top = '', ...rest] = change.field.split('.');
          const along = (extra.sentWith?.[top] ?? []).map((field) => ({ ...change, field }));
          return [{ ...change, field: [extra.sentAs?.[top] ?? top, ...rest].join('.') }, ...along];
        }),
      ),
      ...(configChanges.length > 0 && extra.checkConfig
        ? {
            checkConfig: changedFields(
              extra.checkConfig.written,
              configChanges.map((c) => ({ ...c, field: c.field.slice('checkConfig.'.length) })),
            ),
          }
        : {}),
    });
  }

  plan(file: WrittenFile): void {
    for (const [i, pkg] of (file.packages ?? []).entries()) {
      if (!this.describe('package', pkg.key, `packages.${i}.key`)) continue;
      this.filePackages.set(pkg.key, pkg);
      const found = this.current.packages.find((p) => p.key === pkg.key);
      this.reconcile('package', pkg.key, `package "${pkg.key}"`, found && { id: found.id, view: found }, pkg);
    }
    const customers = file.customers ?? [];
    const described = customers.filter((customer, i) =>
      this.describe('customer', customer.name.trim(), `customers.${i}.name`),
    );
    for (const customer of described) this.planCustomer(customer, customers.indexOf(customer));
    for (const [i, channel] of (file.channels ?? []).entries()) this.planChannel(channel, i);
    for (const customer of described) {
      const i = customers.indexOf(customer);
      for (const [j, website] of (customer.websites ?? []).entries()) {
        const key = websiteKey(customer.name, website.httpMethod ?? 'GET', website.url);
        if (!this.describe('website', key, `customers.${i}.websites.${j}.url`)) continue;
        this.fileWebsites.push({ customer: customer.name.trim(), name: website.name, url: website.url, key });
        const path = `customers.${i}.websites.${j}`;
        this.planWebsite(customer.name.trim(), website, path);
        if (website.monitors)
          this.monitorLists.push({
            ofWebsite: key,
            website: website.name,
            path,
            packageKey: customer.package,
            monitors: website.monitors,
          });
      }
    }
    // After every website, so that websites made together stay one batch.
    for (const list of this.monitorLists)
      for (const [k, monitor] of list.monitors.entries())
        this.planMonitor(list, monitor, `${list.path}.monitors.${k}`);
    for (const [i, page] of (file.statusPages ?? []).entries()) this.planStatusPage(page, i);
    if (this.problems.length > 0) throw new PlanProblems(this.problems);
  }

  private planCustomer(customer: NonNullable<WrittenFile['customers']>[number], i: number): void {
    const name = customer.name.trim();
    const packageId = this.ref('package', customer.package, `customers.${i}.package`);
    const { websites: _websites, package: _package, ...fields } = customer;
    const written = { ...fields, packageId };
    const found = this.current.customers.find((c) => c.id === this.known.get('customer', name));
    const view = found && { ...found, package: this.names.package.get(found.packageId) ?? found.packageId };
    this.reconcile('customer', name, `customer "${name}"`, view && { id: view.id, view }, written, {
      compared: { ...fields, package: customer.package },
      sentAs: { package: 'packageId' },
    });
  }

  private planChannel(channel: NonNullable<WrittenFile['channels']>[number], i: number): void {
    const path = `channels.${i}`;
    if (!this.describe('channel', channel.name.trim(), `${path}.name`)) return;
    const scope = channel.scope?.customer
      ? { customerId: this.ref('customer', channel.scope.customer.trim(), `${path}.scope.customer`) }
      : channel.scope?.listedOnly
        ? { listedOnly: true }
        : channel.scope && {};
    const written: Body = { ...channel, ...(scope ? { scope } : {}) };
    const found = this.current.channels.find((c) => c.id === this.known.get('channel', channel.name.trim()));
    if (found && found.type !== channel.type)
      this.problems.push({
        path: `${path}.type`,
        message: `channel "${channel.name}" is a ${found.type} channel: a type cannot change (rename one of them)`,
      });
    const secrets = new Set(secretFieldsOf(channel.type));
    // A write-only field is compared by whether it is set; the others by value.
    const comparedConfig: Body = {};
    const shownConfig: Body = { ...found?.config };
    for (const [field, value] of Object.entries(channel.config)) {
      if (!secrets.has(field)) comparedConfig[field] = value;
      else {
        comparedConfig[field] = value === null || value === '' ? '(not set)' : '(set)';
        shownConfig[field] = found?.config[`${field}Set`] ? '(set)' : '(not set)';
      }
    }
    const view = found && {
      ...found,
      scope:
        found.scope.customerId !== undefined
          ? { customerId: found.scope.customerId }
          : found.scope.listedOnly
            ? { listedOnly: true }
            : {},
      config: shownConfig,
    };
    const compared: Body = { ...written, config: comparedConfig };
    delete compared.type;
    this.reconcile(
      'channel',
      channel.name.trim(),
      `channel "${channel.name}"`,
      view && { id: view.id, view },
      written,
      {
        compared,
      },
    );
  }

  private planWebsite(customerName: string, website: WrittenWebsite, path: string): void {
    const key = websiteKey(customerName, website.httpMethod ?? 'GET', website.url);
    const label = `website "${website.name}" (${customerName})`;
    const {
      checkConfig,
      maintenance,
      monitors: _monitors,
      notificationChannels,
      secretHeaders,
      mtlsClientKey,
      ...fields
    } = website;
    const written: Body = { ...fields, customerId: this.ref('customer', customerName, path) };
    if (notificationChannels)
      written.notificationChannelIds = notificationChannels.map((name, k) =>
        // A channel not made (its credential missing) is left off the website, which is made all the same.
        optional(this.ref('channel', name.trim(), `${path}.notificationChannels.${k}`)),
      );
    const found = this.current.websites.find((w) => w.id === this.known.get('website', key));
    const compared: Body = { ...written };
    const view: Body = { ...found };
    if (notificationChannels) {
      delete compared.notificationChannelIds;
      compared.notificationChannels = notificationChannels.map((name) => name.trim());
      view.notificationChannels = (found?.notificationChannelIds ?? []).map(
        (id) => this.names.channel.get(id) ?? `#${id}`,
      );
    }
    if (secretHeaders) {
      // Sealed values are compared by name: a new value for a name is sent with the next change.
      const names = Object.keys(secretHeaders)
        .map((name) => name.toLowerCase())
        .sort();
      const removed = (found?.secretHeaderNames ?? []).filter((name) => !names.includes(name.toLowerCase()));
      written.secretHeaders = {
        ...secretHeaders,
        ...Object.fromEntries(removed.map((name) => [name, null])),
      };
      compared.secretHeaders = names;
      view.secretHeaders = (found?.secretHeaderNames ?? []).map((name) => name.toLowerCase()).sort();
    }
    if (mtlsClientKey !== undefined) {
      written.mtlsClientKey = mtlsClientKey;
      compared.mtlsClientKey = mtlsClientKey === null ? '(not set)' : '(set)';
      view.mtlsClientKey = found?.mtlsClientKeySet ? '(set)' : '(not set)';
    }
    if (found?.requestBodySecret || website.requestBodySecret) delete compared.requestBody;
    // The view shows the threshold in force: null (the package's) matches the package's value.
    const thresholdFollowsPackage =
      checkConfig?.responseTimeThresholdMs === null &&
      found !== undefined &&
      found.checkConfig.responseTimeThresholdMs ===
        this.packageOf(found.customerId)?.alerting.responseTimeThresholdMs;
    const comparedConfig =
      checkConfig && thresholdFollowsPackage
        ? Object.fromEntries(
            Object.entries(checkConfig).filter(([field]) => field !== 'responseTimeThresholdMs'),
          )
        : checkConfig;
    if (!found) {
      this.steps.push({
        action: 'create',
        kind: 'website',
        key,
        label,
        body: { ...written, ...(checkConfig ? { checkConfig } : {}) },
      });
    } else {
      this.reconcile('website', key, label, { id: found.id, view, address: found.publicId }, written, {
        compared,
        sentAs: { notificationChannels: 'notificationChannelIds' },
        // A sealed value goes with its switch: turned on, it seals what is sent with it.
        sentWith: {
          requestBodySecret: ['requestBody'],
          mtlsEnabled: ['mtlsClientCert', 'mtlsClientKey'],
        },
        ...(comparedConfig ? { checkConfig: { written: comparedConfig, current: found.checkConfig } } : {}),
      });
    }
    for (const [k, window] of (maintenance ?? []).entries())
      this.planWindow(key, window, `${path}.maintenance.${k}`);
  }

  private planWindow(
    ofWebsite: string,
    window: NonNullable<WrittenWebsite['maintenance']>[number],
    path: string,
  ) {
    const key = windowKey(ofWebsite, window.title);
    if (!this.describe('maintenanceWindow', key, `${path}.title`)) return;
    const websiteId = this.known.resolve(reference('website', ofWebsite));
    const found =
      typeof websiteId === 'number'
        ? this.current.maintenanceWindows.find(
            (w) => w.websiteId === websiteId && w.title === window.title.trim(),
          )
        : undefined;
    if (found) this.known.set('maintenanceWindow', key, found.id);
    // Instants are UTC already (the file was read through the API's schemas).
    this.reconcile(
      'maintenanceWindow',
      key,
      `maintenance window "${window.title}"`,
      found && { id: found.id, view: found },
      found ? window : { ...window, websiteId },
    );
  }

  /**
   * A monitor of a website, known by its name there: made when missing, changed where it differs
   * (every field whole, as PATCH replaces it), refused when its package does not include its kind.
   */
  private planMonitor(list: Planner['monitorLists'][number], monitor: DeclaredMonitor, path: string): void {
    const key = monitorKey(list.ofWebsite, monitor.name);
    const label = `${MONITOR_KIND_NOUNS[monitor.kind]} "${monitor.name.trim()}" (${list.website})`;
    if (!this.describe('monitor', key, `${path}.name`)) return;
    const { feature } = kindTerms(monitor.kind);
    const pkg = this.current.packages.find((p) => p.key === list.packageKey);
    const declared = this.filePackages.get(list.packageKey)?.features;
    const features = { ...pkg?.features, ...(typeof declared === 'object' ? declared : {}) };
    if (!includesFeature({ features }, feature)) {
      this.refuse(
        'monitor',
        label,
        `${path}.kind`,
        `the package "${list.packageKey}" does not include ${feature}`,
      );
      return;
    }
    const found = this.current.monitors.find((m) => m.id === this.known.get('monitor', key));
    if (found && found.kind !== monitor.kind) {
      this.refuse(
        'monitor',
        label,
        `${path}.kind`,
        `"${monitor.name}" is a ${MONITOR_KIND_NOUNS[found.kind]} of this website: a kind cannot change (give it another name)`,
      );
      return;
    }
    const { compared, view, sent } = monitorSides(monitor, found);
    if (!found) {
      const websiteId = this.known.resolve(reference('website', list.ofWebsite));
      this.steps.push({
        action: 'create',
        kind: 'monitor',
        key,
        label,
        body: { ...sent, kind: monitor.kind, websiteId },
      });
      return;
    }
    this.reconcile('monitor', key, label, { id: found.id, view }, sent, { compared, whole: true });
  }

  private planStatusPage(page: NonNullable<WrittenFile['statusPages']>[number], i: number): void {
    const path = `statusPages.${i}`;
    if (!this.describe('statusPage', page.slug, `${path}.slug`)) return;
    const customerName = page.customer.trim();
    const { customer: _customer, websites, ...fields } = page;
    const written: Body = { ...fields, customerId: this.ref('customer', customerName, `${path}.customer`) };
    if (websites !== undefined)
      written.websiteIds =
        websites === null
          ? null
          : websites.map((named, k) => this.pageWebsite(customerName, named, `${path}.websites.${k}`));
    const found = this.current.statusPages.find((p) => p.slug === page.slug);
    if (found) {
      this.known.set('statusPage', page.slug, found.id);
      // A page stays with its customer: moving it is a delete and a create.
      if (found.customerId !== written.customerId)
        this.problems.push({
          path: `${path}.customer`,
          message: `status page "${page.slug}" belongs to another customer: give it a new slug`,
        });
    }
    const { customerId: _customerId, ...changeable } = written;
    // A page's password is write-only: compared by whether one is set, sent with any change of access.
    const access = page.access;
    const compared =
      access === undefined
        ? changeable
        : {
            ...changeable,
            access: {
              mode: access.mode,
              ...(access.cidrs === undefined ? {} : { cidrs: access.cidrs }),
              ...(access.password === undefined ? {} : { passwordSet: true }),
            },
          };
    this.reconcile(
      'statusPage',
      page.slug,
      `status page "${page.slug}"`,
      found && { id: found.id, view: found },
      found ? changeable : written,
      { compared },
    );
  }

  private packageOf(customerId: number) {
    const customer = this.current.customers.find((c) => c.id === customerId);
    return this.current.packages.find((p) => p.id === customer?.packageId);
  }

  /**
   * A page's website, named by URL (`POST https://…` for one that is not a GET) or by a name only
   * one of the customer's websites has; those of the file first, then the organization's.
   */
  private pageWebsite(customerName: string, named: string, path: string): number | Reference {
    const spelled = /^([A-Z]+) (\S+)$/.exec(named);
    const [method, url] = spelled ? [spelled[1] as string, spelled[2] as string] : ['GET', named];
    const byUrl = websiteKey(customerName, method, url);
    if (this.known.get('website', byUrl) !== undefined || this.described.get('website')?.has(byUrl)) {
      this.referenced.add(`website\n${byUrl}`);
      return this.known.resolve(reference('website', byUrl));
    }
    const sameUrl = (candidate: string) => !spelled && urlKey(candidate) === urlKey(named);
    const inFile = this.fileWebsites.filter(
      (w) => w.customer === customerName && (w.name === named || sameUrl(w.url)),
    );
    if (inFile.length === 1 && inFile[0]) return this.known.resolve(reference('website', inFile[0].key));
    const customerId = this.known.get('customer', customerName);
    const found = this.current.websites.filter(
      (w) => w.customerId === customerId && (w.name === named || sameUrl(w.url)),
    );
    const count = inFile.length > 1 ? inFile.length : found.length;
    if (inFile.length === 0 && found.length === 1 && found[0]) {
      this.referenced.add(`website\n${websiteKey(customerName, found[0].httpMethod, found[0].url)}`);
      return found[0].id;
    }
    this.problems.push({
      path,
      message:
        count > 1
          ? `customer "${customerName}" has ${count} websites of "${named}": name it "METHOD URL"`
          : `no website "${named}" (by URL or name) of customer "${customerName}"`,
    });
    return reference('website', byUrl);
  }

  /** With `prune`: what the organization has and the file does not describe, dependants first. */
  deletes(): Step[] {
    if (!this.options.prune || this.options.createOnly) return [];
    return pruneSteps(
      this.current,
      (kind, key) => (this.described.get(kind)?.has(key) ?? false) || this.referenced.has(`${kind}\n${key}`),
      new Set(this.monitorLists.map((list) => list.ofWebsite)),
    );
  }
}
