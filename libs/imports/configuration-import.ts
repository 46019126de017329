import type { z } from 'zod';
import {
  applyPlan,
  type Body,
  type ConfigurationCreator,
  fileFromExport,
  planChanges,
  type ResourceKind,
  type StepError,
  writtenFile,
} from '../as-code/index.js';
import { parseInput } from '../contract/index.js';
import { createCustomerBody } from '../customers/index.js';
import { notAllowed } from '../errors/index.js';
import type { ExportDocument } from '../exports/index.js';
import { createWindowBody } from '../maintenance/index.js';
import { createMonitorBody, type MonitorService } from '../monitors/index.js';
import { createChannelBody } from '../notifications/index.js';
import { createPackageBody } from '../packages/index.js';
import { createStatusPageBody } from '../status-pages/index.js';
import type { BatchItemOutcome } from '../websites/index.js';
import type { ImportReport } from './import-report.js';

/** The services a configuration import makes things with: those the create routes call. */
export interface ConfigurationPorts {
  /** The organization's configuration, as its export shows it. */
  current(organizationId: number): Promise<ExportDocument>;
  createPackage(organizationId: number, input: z.output<typeof createPackageBody>): Promise<{ id: number }>;
  createCustomer(organizationId: number, input: z.output<typeof createCustomerBody>): Promise<{ id: number }>;
  createChannel(organizationId: number, input: z.output<typeof createChannelBody>): Promise<{ id: number }>;
  createWindow(organizationId: number, input: z.output<typeof createWindowBody>): Promise<{ id: number }>;
  createStatusPage(
    organizationId: number,
    input: z.output<typeof createStatusPageBody>,
  ): Promise<{ id: number }>;
  createWebsites(organizationId: number, items: readonly unknown[]): Promise<BatchItemOutcome[]>;
  /** Monitors are made as their routes make them: within the package, through the SSRF guard. */
  monitors: Pick<MonitorService, 'create'>;
}

/** Packages are an admin's (POST /api/packages): an import by an editor or a write token uses the organization's. */
const PACKAGES_NEED_ADMIN = notAllowed(
  'Making a package needs the admin scope: an admin creates it (or imports this), then import again',
);

/** Things made in the API process: each body checked by its create route's own schema, then its service. */
class ServiceConfigurationCreator implements ConfigurationCreator {
  constructor(
    private readonly organizationId: number,
    private readonly ports: ConfigurationPorts,
    private readonly mayCreatePackages: boolean,
  ) {}

  async create(kind: Exclude<ResourceKind, 'website'>, body: Body): Promise<number> {
    const { organizationId, ports } = this;
    switch (kind) {
      case 'package':
        if (!this.mayCreatePackages) throw PACKAGES_NEED_ADMIN;
        return (await ports.createPackage(organizationId, parseInput(createPackageBody, body, 'body'))).id;
      case 'customer':
        return (await ports.createCustomer(organizationId, parseInput(createCustomerBody, body, 'body'))).id;
      case 'channel':
        return (await ports.createChannel(organizationId, parseInput(createChannelBody, body, 'body'))).id;
      case 'maintenanceWindow':
        return (await ports.createWindow(organizationId, parseInput(createWindowBody, body, 'body'))).id;
      case 'statusPage':
        return (await ports.createStatusPage(organizationId, parseInput(createStatusPageBody, body, 'body')))
          .id;
      case 'monitor':
        return (await this.createMonitor(body)).id;
    }
  }

  /** A monitor on its website, its body checked by its kind's create schema, made as its route makes it. */
  private createMonitor({ websiteId, ...fields }: Body): Promise<{ id: number }> {
    return this.ports.monitors.create(
      this.organizationId,
      String(websiteId),
      parseInput(createMonitorBody, fields, 'body'),
    );
  }

  async createWebsites(items: readonly Body[]): Promise<Array<{ id: number } | { error: StepError }>> {
    const outcomes = await this.ports.createWebsites(this.organizationId, items);
    return outcomes.map((outcome) =>
      outcome.website
        ? { id: outcome.website.id }
        : {
            error: {
              message: 'the website is invalid',
              errors: outcome.errors.map((e) => ({ ...e, path: e.path.replace(/^items\.\d+\.?/, '') })),
            },
          },
    );
  }
}

/**
 * Imports an export (of this or another installation) into the organization: what it lacks is
 * made, by key (a package's key, a customer's name, a website's URL within its customer …), what
 * it has is left as it is. Each thing's outcome goes into the report's `resources`.
 */
export async function importConfiguration(
  organizationId: number,
  exported: ExportDocument,
  options: {
    dryRun: boolean;
    /** The caller has the admin scope (packages are made only then, as POST /api/packages asks). */
    mayCreatePackages: boolean;
    ports: ConfigurationPorts;
    report: ImportReport;
    /** Told as things are made (done of total). */
    progress(done: number, total: number): Promise<void>;
  },
): Promise<void> {
  const exportedFile = fileFromExport(exported);
  const notes = [...exportedFile.notes];
  // A client certificate without its key (not exported) cannot be used: mTLS is carried off.
  for (const customer of exportedFile.file.customers ?? [])
    for (const website of customer.websites ?? [])
      if (website.mtlsEnabled && exported.websites.some((w) => w.url === website.url && w.mtlsClientKeySet)) {
        website.mtlsEnabled = false;
        notes.push({ label: `website "${website.name}"`, note: 'mTLS is off until its client key is given' });
      }
  const file = writtenFile(exportedFile.file, {});
  const { report } = options;
  for (const { label, note } of notes)
    report.adjusted.push({ source: label, name: label, url: '', changes: [note] });
  const plan = planChanges(file, await options.ports.current(organizationId), {
    prune: false,
    createOnly: true,
  });
  for (const { kind, label } of plan.unchanged)
    report.resources.push({ kind, name: label, status: 'exists', id: null, errors: [] });
  for (const { kind, label, reason } of plan.refused)
    report.resources.push({
      kind,
      name: label,
      status: 'failed',
      id: null,
      errors: [{ path: '', message: reason }],
    });
  if (options.dryRun) {
    for (const step of plan.steps) {
      const refused = step.kind === 'package' && !options.mayCreatePackages;
      report.resources.push({
        kind: step.kind,
        name: step.label,
        status: refused ? 'failed' : 'would-create',
        id: null,
        errors: refused ? [{ path: '', message: PACKAGES_NEED_ADMIN.detail }] : [],
      });
    }
    await options.progress(plan.steps.length, plan.steps.length);
    return;
  }
  await options.progress(0, plan.steps.length);
  const creator = new ServiceConfigurationCreator(organizationId, options.ports, options.mayCreatePackages);
  await applyPlan(plan, creator, {
    stopOnFailure: false,
    onProgress: async (done, total, outcome) => {
      report.resources.push({
        kind: outcome.step.kind,
        name: outcome.step.label,
        status: outcome.status === 'done' ? 'created' : outcome.status,
        id: outcome.id ?? null,
        errors: [
          ...(outcome.error && !outcome.error.errors?.length
            ? [{ path: '', message: outcome.error.message }]
            : []),
          ...(outcome.error?.errors ?? []),
        ],
      });
      await options.progress(done, total);
    },
  });
}
