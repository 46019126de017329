import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import {
  atMaintenanceBoundary,
  type CheckResultDocument,
  type MonitorStateDocument,
  type MonitorStateRepository,
  type MonitorTransitions,
  type ResultRepository,
  summaryOf,
  type TransitionPlan,
} from '../monitoring/index.js';
import type { WebsiteDocument, WebsiteRepository } from '../websites/index.js';
import type { MaintenanceJobData, MaintenanceQueue } from './maintenance.queue.js';
import { type MaintenanceSpan, maintenanceSpan, spanBoundary, spanCovers } from './maintenance-span.js';
import type {
  MaintenanceWindowDocument,
  MaintenanceWindowRepository,
} from './maintenance-window.repository.js';

export interface MaintenanceReconcileReport {
  websites: number;
  synced: number;
  durationMs: number;
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** Windows read twice are the same windows, unchanged (each write moves `updatedAt`). */
function sameWindows(
  a: readonly MaintenanceWindowDocument[],
  b: readonly MaintenanceWindowDocument[],
): boolean {
  const seen = (windows: readonly MaintenanceWindowDocument[]) =>
    windows
      .map((w) => `${w.id}@${w.updatedAt.getTime()}`)
      .sort()
      .join(',');
  return seen(a) === seen(b);
}

/** How often a sync starts again when the windows changed while it ran. */
const SYNC_ATTEMPTS = 3;

/** A plan that only keeps `state` (its maintenance fields), telling nothing. */
function quietly(state: MonitorStateDocument, at: Date): TransitionPlan {
  return {
    trigger: 'maintenance:sync',
    at,
    outcome: { state, incident: null, events: [] },
    details: { result: null },
  };
}

/**
 * Keeps each website's maintenance state (in its monitor state) in step with its windows: tells
 * `maintenance.started` / `maintenance.ended`, settles at the end what happened inside (one
 * notification when the health differs from the one last notified), and plans the delayed job at
 * the next boundary. Runs under the website's monitor lock, so it never interleaves with a check's
 * status decision.
 */
export class MaintenanceSync {
  constructor(
    private readonly deps: {
      windows: MaintenanceWindowRepository;
      websites: WebsiteRepository;
      states: MonitorStateRepository;
      transitions: MonitorTransitions;
      results: ResultRepository;
      mutex: RedisMutex;
      queue: MaintenanceQueue;
      logger: Logger;
    },
  ) {}

  /**
   * Brings one website up to date; a boundary job is evaluated no earlier than its boundary. The
   * windows and the latest result are read before the monitor lock (its decision is pure), the
   * boundary jobs planned after it; should the windows change meanwhile, it is brought up to date
   * again from what they are now.
   */
  async sync(job: MaintenanceJobData): Promise<void> {
    const at = new Date(Math.max(Date.now(), job.at ?? 0));
    const { organizationId, websiteId } = job;
    const website = await this.deps.websites.findByRef(organizationId, { id: websiteId });
    // The website is gone: so are its windows and its planned job.
    if (!website) await this.deps.windows.deleteByWebsite(organizationId, websiteId);
    let windows = website ? await this.deps.windows.listByWebsite(organizationId, websiteId) : [];
    for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
      const span = maintenanceSpan(windows, at);
      const boundary = spanBoundary(span, at);
      const latest = website && (await this.deps.results.latest(organizationId, websiteId));
      const done = await this.deps.transitions.run(website ?? { organizationId, id: websiteId }, (state) => {
        if (!website) {
          if (!state.maintenanceBoundaryAt) return { result: null, plan: null };
          const cleared = {
            ...state,
            maintenance: null,
            maintenanceActive: false,
            maintenanceBoundaryAt: null,
          };
          return { result: state.maintenanceBoundaryAt, plan: quietly(cleared, at) };
        }
        const plan = this.boundaryPlan(website, state, { windows, span, latest: latest ?? null }, at);
        const next = { ...plan.outcome.state, maintenance: span, maintenanceBoundaryAt: boundary };
        return {
          result: state.maintenanceBoundaryAt,
          plan: { ...plan, outcome: { ...plan.outcome, state: next } },
        };
      });
      // The planned job follows the state: the one planned before is dropped when it moved.
      const planned = done.result;
      if (planned && !sameTime(planned, boundary)) await this.deps.queue.dropBoundary(websiteId, planned);
      if (boundary) await this.deps.queue.ensureBoundary(organizationId, websiteId, boundary);
      if (!website) return;
      const now = await this.deps.windows.listByWebsite(organizationId, websiteId);
      if (sameWindows(now, windows)) return;
      windows = now;
    }
  }

  /** The maintenance events a change of span calls for, and the settlement at the end (pure). */
  private boundaryPlan(
    website: WebsiteDocument,
    state: MonitorStateDocument,
    read: {
      windows: MaintenanceWindowDocument[];
      span: MaintenanceSpan | null;
      latest: CheckResultDocument | null;
    },
    at: Date,
  ): TransitionPlan {
    const { windows, span, latest } = read;
    const active = spanCovers(span, at);
    const outcome = atMaintenanceBoundary(state, { active, at, paused: website.paused });
    if (outcome.events.length === 0) return quietly(outcome.state, at);
    const current = active ? span : state.maintenance;
    return {
      trigger: `maintenance:${active ? 'start' : 'end'}:${current?.windowId ?? 0}`,
      at,
      outcome,
      details: {
        // The reason a status told at the end shows is the latest result's.
        result: latest && summaryOf(latest),
        maintenance: current && {
          windowId: current.windowId,
          title: windows.find((w) => w.id === current.windowId)?.title ?? null,
          startsAt: current.startsAt,
          endsAt: active ? current.endsAt : at,
        },
      },
    };
  }

  /**
   * Makes Redis and the monitor states match the windows in MongoDB: every website whose
   * maintenance state is out of step, or whose boundary job is missing (a flushed Redis), is
   * synced. One run at a time across all workers; undefined when another is running.
   */
  reconcile(): Promise<MaintenanceReconcileReport | undefined> {
    return this.deps.mutex.ifFree('maintenance-reconciler', async () => {
      const started = Date.now();
      const now = new Date();
      const websites = new Map<number, { organizationId: number; windows: MaintenanceWindowDocument[] }>();
      for await (const window of this.deps.windows.all()) {
        const entry = websites.get(window.websiteId) ?? {
          organizationId: window.organizationId,
          windows: [],
        };
        entry.windows.push(window);
        websites.set(window.websiteId, entry);
      }
      const states = new Map((await this.deps.states.withMaintenance()).map((s) => [s.websiteId, s]));
      for (const state of states.values())
        if (!websites.has(state.websiteId))
          websites.set(state.websiteId, { organizationId: state.organizationId, windows: [] });

      let synced = 0;
      for (const [websiteId, { organizationId, windows }] of websites) {
        const span = maintenanceSpan(windows, now);
        const boundary = spanBoundary(span, now);
        const state = states.get(websiteId);
        const inStep =
          spanCovers(span, now) === (state?.maintenanceActive ?? false) &&
          sameTime(boundary, state?.maintenanceBoundaryAt ?? null) &&
          (!boundary || (await this.deps.queue.hasBoundary(websiteId, boundary)));
        if (inStep) continue;
        await this.sync({ organizationId, websiteId });
        synced++;
      }
      const report = { websites: websites.size, synced, durationMs: Date.now() - started };
      this.deps.logger.info(report, 'maintenance reconciled');
      return report;
    });
  }
}
