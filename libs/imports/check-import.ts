import { isIP } from 'node:net';
import type { CustomerWithPackage } from '../customers/index.js';
import { DomainError, type FieldError } from '../errors/index.js';
import { MONITOR_KIND_NOUNS } from '../events/index.js';
import { kindTerms, type MonitorDocument, type MonitorKind, type MonitorService } from '../monitors/index.js';
import { includesFeature, limitsOf } from '../packages/index.js';
import { refusalUnder, type TargetGuard } from '../targets/index.js';
import { type PlacementSite, placeCheck } from './check-placement.js';
import type { ImportReport } from './import-report.js';
import { type CheckBody, createMonitor, type MonitorCreator } from './monitor-create.js';
import { type MappedCheck, storedTargetKey, targetKey } from './source-check.js';
import type { SourceMonitor } from './source-monitor.js';

/** What an import makes checks through: the API's own monitor service, so every rule of a create holds. */
export interface CheckPorts {
  /** The website's monitors (one of the same kind and target is not made again). */
  monitorsOf(organizationId: number, websiteId: number): Promise<MonitorDocument[]>;
  /** Makes the check (the package's features and limits, the SSRF guard: a `DomainError` says why not). */
  create(organizationId: number, websiteId: number, check: CheckBody): Promise<{ id: number }>;
  /** Why the SSRF guard refuses a host that is an IP literal (null: allowed): a dry run's judgement. */
  refusal(host: string): string | null;
}

/** The ports over the monitor service: each kind through the method its own route calls. */
export function checkPorts(
  service: MonitorCreator & Pick<MonitorService, 'list'>,
  guard: TargetGuard,
): CheckPorts {
  return {
    monitorsOf: async (organizationId, websiteId) =>
      (await service.list(organizationId, String(websiteId))).monitors,
    create: (organizationId, websiteId, check) =>
      createMonitor(service, organizationId, String(websiteId), check),
    refusal: (host) => {
      const literal = host.replace(/^\[|\]$/g, '');
      return isIP(literal) ? (refusalUnder(guard, literal) ?? null) : null;
    },
  };
}

export interface PendingCheck {
  monitor: SourceMonitor;
  /** The customer it goes to, with its package. */
  owner: CustomerWithPackage;
  mapped: Extract<MappedCheck, { ok: true }>;
}

/** A website's monitors by what they watch, with those this import makes (or would make) added. */
interface Watched {
  key: string;
  kind: MonitorKind;
  id: number | null;
}

const said = (monitor: SourceMonitor) => ({ source: monitor.source, name: monitor.name, url: monitor.url });

/** Why a package refuses the check on a website holding `onSite`, as the service would say it (a dry run). */
function admissionProblem(
  owner: CustomerWithPackage,
  check: CheckBody,
  host: string | null,
  onSite: readonly Watched[],
  ports: CheckPorts,
): FieldError | null {
  const { pkg } = owner;
  const terms = kindTerms(check.kind);
  if (!includesFeature(pkg, terms.feature))
    return { path: '', message: `The package "${pkg.displayName}" does not include ${terms.feature}` };
  const limit = limitsOf(pkg)[terms.limit];
  if (onSite.filter((watched) => kindTerms(watched.kind).limit === terms.limit).length >= limit)
    return {
      path: '',
      message: `The website already has ${limit} ${MONITOR_KIND_NOUNS[check.kind]}s, the most its package "${pkg.displayName}" allows (limits.${terms.limit})`,
    };
  const refused = host === null ? null : ports.refusal(host);
  if (refused)
    return {
      path: check.kind === 'websocket' ? 'url' : 'host',
      message: `${refused}: private and reserved addresses are refused unless the operator allows them`,
    };
  return null;
}

/** A refusal of the service as the report lists it: the fields it names, or its detail. */
const refusalOf = (error: DomainError): FieldError[] =>
  error.errors?.some((e) => e.path) ? error.errors : [{ path: '', message: error.detail }];

/**
 * Places each check on its website (`placeCheck`) and makes it there, unless the website watches
 * that target already (reported as existing, so an import run twice makes nothing twice). A dry run
 * judges the package and the guard as a create would and writes nothing.
 */
export async function importChecks(input: {
  organizationId: number;
  dryRun: boolean;
  pending: readonly PendingCheck[];
  sitesOf(customerId: number): readonly PlacementSite[];
  attachTo: PlacementSite | null;
  ports: CheckPorts;
  report: ImportReport;
  /** After each check. */
  progress(): Promise<void>;
}): Promise<void> {
  const { organizationId, ports, report } = input;
  const watching = new Map<string, Watched[]>();
  const watchedOn = async (site: PlacementSite): Promise<Watched[]> => {
    const at = site.id === null ? `new ${site.url}` : String(site.id);
    let watched = watching.get(at);
    if (!watched) {
      const monitors = site.id === null ? [] : await ports.monitorsOf(organizationId, site.id);
      watched = monitors.map((m) => ({ key: storedTargetKey(m), kind: m.kind, id: m.id }));
      watching.set(at, watched);
    }
    return watched;
  };
  for (const { monitor, owner, mapped } of input.pending) {
    const { check, host } = mapped;
    const sourceType = monitor.kind.type === 'check' ? monitor.kind.sourceType : check.kind;
    const placement = placeCheck(
      { host, name: monitor.name },
      input.sitesOf(owner.customer.id),
      input.attachTo,
    );
    if (!placement.site) {
      report.unsupported.push({ ...said(monitor), sourceType, reason: placement.reason });
      await input.progress();
      continue;
    }
    const { site, via } = placement;
    const watched = await watchedOn(site);
    const key = targetKey(check.kind, check.body.name ?? '', check.body);
    const entry = (status: 'created' | 'would-create' | 'exists', monitorId: number | null) =>
      report.monitors.push({
        ...said(monitor),
        kind: check.kind,
        status,
        monitorId,
        website: { id: site.id, publicId: site.publicId, name: site.name },
        via,
      });
    const same = watched.find((w) => w.key === key);
    const made = (id: number | null) => {
      watched.push({ key, kind: check.kind, id });
      entry(id === null ? 'would-create' : 'created', id);
      if (mapped.adjusted.length > 0) report.adjusted.push({ ...said(monitor), changes: mapped.adjusted });
    };
    if (same) entry('exists', same.id);
    else if (input.dryRun || site.id === null) {
      // Only a dry run has websites without ids (those it would make).
      const problem = admissionProblem(owner, check, host, watched, ports);
      if (problem) report.invalid.push({ ...said(monitor), errors: [problem] });
      else made(null);
    } else {
      const created = await ports.create(organizationId, site.id, check).catch((error: unknown) => {
        if (error instanceof DomainError) return refusalOf(error);
        throw error;
      });
      if (Array.isArray(created)) report.invalid.push({ ...said(monitor), errors: created });
      else made(created.id);
    }
    await input.progress();
  }
}
