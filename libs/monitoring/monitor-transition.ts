import { LRUCache } from 'lru-cache';
import { isMongoUnavailable } from '../db/index.js';
import type { EventOutbox } from '../events/index.js';
import type { Lease, RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import { growingUpTo } from '../runtime/index.js';
import type { IncidentTimelines, TimelineEntry } from './incident-timeline.js';
import { durableFingerprint, hotCopyOf, parseHotCopy } from './monitor-state.cache.js';
import { type MonitorStateDocument, monitorKey } from './monitor-state.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import { overviewShowsChange } from './shown-change.js';
import {
  type DurableEffects,
  type EventLinks,
  effectsOf,
  type MonitorSubject,
  type TransitionPlan,
} from './transition-effects.js';

export type {
  DurableEffects,
  EventDetails,
  EventLinks,
  EventWebsite,
  MonitorSubject,
  TransitionPlan,
} from './transition-effects.js';

/** Where MongoDB's part of a transition goes: now, or kept (while MongoDB is away) for `applyKept`. */
export type MongoWrites = 'now' | 'defer-if-away' | 'defer';

export interface TransitionResult<T> {
  result: T;
  /** The state after it (when refused: what was decided, which did not become the state). */
  state: MonitorStateDocument;
  /** The lock expired under the work and another holder may have written: nothing was kept. */
  refused: boolean;
  /** MongoDB's part, not written yet: the caller keeps it and hands it to `applyKept` later. */
  kept: DurableEffects | null;
}

const REFUSAL_LOG_EVERY_MS = 60_000;
/** Websites whose refusal was logged lately, remembered at most (far above the usual count). */
const REFUSALS_LOGGED_KEPT = 10_000;

/** MongoDB refused a fresh transition's state: a holder with a later fence wrote it. */
class LaterHolderWrote extends Error {}

/**
 * The one path by which a website's monitor state changes: take the website's monitor lock (its
 * hot copy read in the same round trip) → load → decide → carry out (MongoDB: the state, fenced,
 * then the incident and the events, each idempotent) → save the hot copy as the lock is released,
 * only if the lock is still ours. The check runner, placement changes and maintenance boundaries
 * all go through it.
 */
export class MonitorTransitions {
  private readonly refusalsLogged = new LRUCache<number, true>({
    ...growingUpTo(REFUSALS_LOGGED_KEPT),
    ttl: REFUSAL_LOG_EVERY_MS,
  });

  constructor(
    private readonly deps: {
      states: MonitorStateRepository;
      outbox: EventOutbox;
      timelines: IncidentTimelines;
      mutex: RedisMutex;
      logger: Logger;
      /** The incident's page in the app (alerts link to it). */
      incidentLink?: (incidentId: string) => string;
      /** A failing run's screenshot (alerts link to it). */
      screenshotLink?: EventLinks['screenshot'];
      /** Told (not waited for) when a transition changed what the overview shows of the website. */
      shownChanged?: (website: { organizationId: number; customerId: number; id: number }) => void;
    },
  ) {}

  /** Writes refused since the start (the lock lost, or a later holder wrote): a metric. */
  refusedWrites = 0;

  /**
   * Runs `decide` on the website's state under its monitor lock and carries out the plan it
   * answers (none: nothing changes). `decide` is pure and synchronous (no I/O, no callbacks): what
   * it needs is read before, what it leads to beyond the state is done after, so the lock is held
   * for the decision and its commit alone. `mongoWrites` says what happens to MongoDB's part: `now` (an
   * error fails the transition and nothing is kept), `defer-if-away` (kept when MongoDB does not
   * answer in time, the hot copy is saved all the same), `defer` (kept in any case).
   */
  async run<T>(
    website: MonitorSubject,
    decide: (state: MonitorStateDocument) => { result: T; plan: TransitionPlan | null },
    /** Or a function of what `decide` found (asked after it). */
    mongoWrites: MongoWrites | (() => MongoWrites) = 'now',
  ): Promise<TransitionResult<T>> {
    const { states, mutex } = this.deps;
    const monitor = website.monitor ? { kind: website.monitor.kind, id: website.monitor.id } : null;
    const key = monitorKey(website.id, monitor);
    let decided: { before: MonitorStateDocument; at: Date } | null = null;
    const { result: done, refused } = await mutex.withLockedKey(
      states.cache.lockResource(key),
      states.cache.key(key),
      async (hot, lease) => {
        const state = await states.fromHotCopy(
          website.organizationId,
          website.id,
          hot === null ? null : parseHotCopy(hot),
          monitor,
        );
        const { result, plan } = decide(state);
        const unchanged = { result, state, refused: false, kept: null };
        if (!plan) return { result: unchanged };
        decided = { before: state, at: plan.at };
        if (lease.lost) return { result: { ...unchanged, refused: true } };
        const { next, effects } = effectsOf(
          website,
          state,
          plan,
          lease,
          this.deps.incidentLink,
          this.deps.screenshotLink,
        );
        let kept: DurableEffects | null;
        try {
          kept = await this.writeOrKeep(
            effects,
            typeof mongoWrites === 'function' ? mongoWrites() : mongoWrites,
            lease,
          );
        } catch (error) {
          if (error instanceof LaterHolderWrote) return { result: { ...unchanged, refused: true } };
          throw error;
        }
        const written = !kept && effects.state !== null;
        const saved = written
          ? { ...next, persisted: { fingerprint: durableFingerprint(next), at: new Date() } }
          : next;
        return {
          result: { result, state: saved, refused: false, kept },
          write: hotCopyOf(saved),
          // After a lapsed holder, only a state written with this fence refuses its late writes.
          settled: !lease.lapsed || written,
        };
      },
    );
    if (refused || done.refused) {
      this.refused(website.id);
      // What it decided never became the state, and MongoDB's part is not to be written.
      return { ...done, refused: true, kept: null };
    }
    this.tellShown(website, decided, done.state);
    return done;
  }

  private tellShown(
    website: MonitorSubject,
    decided: { before: MonitorStateDocument; at: Date } | null,
    after: MonitorStateDocument,
  ): void {
    const { customerId } = website;
    if (!decided || customerId === undefined || !this.deps.shownChanged) return;
    if (overviewShowsChange(website, decided.before, after, decided.at))
      this.deps.shownChanged({ organizationId: website.organizationId, customerId, id: website.id });
  }

  /**
   * Resolves every incident open for longer than `graceMs` whose website's state names another (or
   * none): left by a transition whose state never became the website's (a refused holder, a crash
   * between MongoDB and Redis). Each is judged under the website's monitor lock, so never while a
   * transition is under way. Returns how many it resolved.
   */
  async resolveOrphanIncidents(graceMs = 60_000, now = new Date()): Promise<number> {
    const { states, mutex } = this.deps;
    let resolved = 0;
    // Page after page, oldest first: many long, rightful incidents must not hide an orphan.
    for await (const incident of states.openIncidentsBefore(new Date(now.getTime() - graceMs))) {
      const { organizationId, websiteId } = incident;
      const monitor = incident.monitor ?? null;
      const key = monitorKey(websiteId, monitor);
      const { result: orphan } = await mutex.withLockedKey(
        states.cache.lockResource(key),
        states.cache.key(key),
        async (hot) => {
          const state = await states.fromHotCopy(
            organizationId,
            websiteId,
            hot === null ? null : parseHotCopy(hot),
            monitor,
          );
          if (state.openIncidentId === incident.id) return { result: false };
          await states.resolveIncident(organizationId, incident.id, now);
          return { result: true };
        },
      );
      if (orphan) resolved++;
    }
    if (resolved > 0)
      this.deps.logger.warn(
        { resolved },
        'open incidents their websites’ states no longer named were resolved',
      );
    return resolved;
  }

  /** A change of the state alone (no incident, no event), through the same path. */
  async adjust(
    organizationId: number,
    websiteId: number,
    trigger: string,
    change: (state: MonitorStateDocument) => MonitorStateDocument,
  ): Promise<MonitorStateDocument> {
    const at = new Date();
    const done = await this.run({ organizationId, id: websiteId }, (state) => ({
      result: undefined,
      plan: {
        trigger,
        at,
        outcome: { state: change(state), incident: null, events: [] },
        details: { result: null },
      },
    }));
    return done.state;
  }

  /**
   * Writes effects kept while MongoDB was away, in order (a website's after its earlier ones). A
   * state refused here was overtaken by a later holding's: its incident and events still happened.
   */
  async applyKept(effects: DurableEffects): Promise<void> {
    await this.apply(effects, null);
  }

  private async writeOrKeep(
    effects: DurableEffects,
    mongoWrites: MongoWrites,
    lease: Lease,
  ): Promise<DurableEffects | null> {
    if (mongoWrites === 'defer') return effects;
    try {
      await this.apply(effects, lease);
      return null;
    } catch (error) {
      if (mongoWrites === 'defer-if-away' && isMongoUnavailable(error)) return effects;
      throw error;
    }
  }

  /**
   * The state first: a fresh transition (under `lease`) whose state is refused (a later holder
   * wrote), or whose lock is no longer its own once the state is written, tells nothing.
   */
  private async apply(effects: DurableEffects, lease: Lease | null): Promise<void> {
    const { states, outbox } = this.deps;
    const refused = effects.state !== null && (await states.writeDurable(effects.state)) === 'refused';
    if (lease && (refused || (this.tells(effects) && !(await lease.stillHeld()))))
      throw new LaterHolderWrote();
    if (effects.openIncident) await states.insertIncident(effects.openIncident);
    if (effects.resolveIncident) {
      const { organizationId, id, at } = effects.resolveIncident;
      await states.resolveIncident(organizationId, id, at);
    }
    const byIncident = new Map<string, TimelineEntry[]>();
    for (const { incidentId, entry } of effects.timeline)
      byIncident.set(incidentId, [...(byIncident.get(incidentId) ?? []), entry]);
    for (const [incidentId, entries] of byIncident)
      await this.deps.timelines.appendAll(incidentId, entries, states.bounded);
    if (effects.events.length > 0) await outbox.append(effects.events);
  }

  private tells(effects: DurableEffects): boolean {
    return (
      effects.openIncident !== null ||
      effects.resolveIncident !== null ||
      effects.events.length > 0 ||
      effects.timeline.length > 0
    );
  }

  /** Counted each time, logged once per website and minute. */
  private refused(websiteId: number): void {
    this.refusedWrites++;
    if (this.refusalsLogged.has(websiteId)) return;
    this.refusalsLogged.set(websiteId, true);
    this.deps.logger.warn(
      { websiteId },
      'monitor state write refused: this holder’s lock expired and another may have decided since (a stalled process or store); its decision was dropped, the result is kept',
    );
  }
}
