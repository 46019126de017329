import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import {
  atMaintenanceBoundary,
  type MonitorStateDocument,
  type MonitorStateRepository,
  type ResultRepository,
  summaryOf,
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
      results: ResultRepository;
      mutex: RedisMutex;
      queue: MaintenanceQueue;
      logger: Logger;
    },
  ) {}

  /** Brings one website up to date; a boundary job is evaluated no earlier than its boundary. */
  async sync(job: MaintenanceJobData): Promise<void> {
    const at = new Date(Math.max(Date.now(), job.at ?? 0));
    const { organizationId, websiteId } = job;
    await this.deps.states.withMonitorLock(websiteId, async () => {
      const [website, state] = await Promise.all([
        this.deps.websites.findByRef(organizationId, { id: websiteId }),
        this.deps.states.load(organizationId, websiteId),
      ]);
      if (!website) {
        // The website is gone: so are its windows and its planned job.
        await this.deps.windows.deleteByWebsite(organizationId, websiteId);
        if (state.maintenanceBoundaryAt) {
          await this.deps.queue.dropBoundary(websiteId, state.maintenanceBoundaryAt);
          await this.deps.states.save({
            ...state,
            maintenance: null,
            maintenanceActive: false,
            maintenanceBoundaryAt: null,
          });
        }
        return;
      }
      const windows = await this.deps.windows.listByWebsite(organizationId, websiteId);
      const span = maintenanceSpan(windows, at);
      const next = await this.tell(website, state, windows, span, at);
      const boundary = spanBoundary(span, at);
      if (state.maintenanceBoundaryAt && !sameTime(state.maintenanceBoundaryAt, boundary))
        await this.deps.queue.dropBoundary(websiteId, state.maintenanceBoundaryAt);
      if (boundary) await this.deps.queue.ensureBoundary(organizationId, websiteId, boundary);
      await this.deps.states.save({ ...next, maintenance: span, maintenanceBoundaryAt: boundary });
    });
  }

  /** The maintenance events a change of span calls for, and the settlement at the end. */
  private async tell(
    website: WebsiteDocument,
    state: MonitorStateDocument,
    windows: MaintenanceWindowDocument[],
    span: MaintenanceSpan | null,
    at: Date,
  ): Promise<MonitorStateDocument> {
    const active = spanCovers(span, at);
    const outcome = atMaintenanceBoundary(state, { active, at, paused: website.paused });
    if (outcome.events.length === 0) return state;
    const current = active ? span : state.maintenance;
    const latest = await this.deps.results.latest(website.organizationId, website.id);
    return this.deps.states.carryOut(website, outcome, at, {
      // The reason a status told at the end shows is the latest result's.
      result: latest && summaryOf(latest),
      maintenance: current && {
        windowId: current.windowId,
        title: windows.find((w) => w.id === current.windowId)?.title ?? null,
        startsAt: current.startsAt,
        endsAt: active ? current.endsAt : at,
      },
    });
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
