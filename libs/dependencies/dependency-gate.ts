import { errorMessage } from '../errors/index.js';
import { type EventPayload, isDownEvent, isUpEvent } from '../events/index.js';
import type { Logger } from '../logging/index.js';
import { SYSTEM, type TimelineEntry } from '../monitoring/index.js';
import type { DependencyRepository, Involvement } from './dependency.repository.js';
import { type ParentRef, parentKey } from './dependency.schema.js';
import { holdingParents } from './dependency-graph.js';

export interface GatePorts {
  /** Whether the parent is down now. */
  isDown(organizationId: number, parent: ParentRef): Promise<boolean>;
  /** A parent in words: the website's name, or "<website>: <monitor>". */
  nameOf(organizationId: number, parent: ParentRef): Promise<string>;
  website(
    organizationId: number,
    id: number,
  ): Promise<{ id: number; name: string; url: string; customerId: number } | null>;
  /** The incident open now on the child's HTTP check or monitor (null: none). */
  openIncident(organizationId: number, websiteId: number, monitorId: number | null): Promise<string | null>;
  timeline(incidentId: string, entry: TimelineEntry): Promise<void>;
  /** Sends an event as if it had just been dispatched (its channels, its escalation). */
  deliver(payload: EventPayload, websiteId: number): Promise<void>;
}

/** The parent an event is about: its monitor, else the website's HTTP check. */
const subjectRef = (payload: EventPayload, websiteId: number): ParentRef =>
  payload.data.monitor ? { monitorId: payload.data.monitor.monitorId } : { websiteId };

const isParent = (involvement: Involvement, ref: ParentRef) =>
  'websiteId' in ref
    ? involvement.parentWebsites.has(ref.websiteId)
    : involvement.parentMonitors.has(ref.monitorId);

const list = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * Dependencies in the notifier: a child's alerts are held while a parent is down (its incident's
 * timeline says so), a parent's down alert names the websites that depend on it, and when a parent
 * recovers first, each child still down is alerted then (one whose own state recovered is not).
 */
export class DependencyGate {
  constructor(
    private readonly deps: {
      repository: DependencyRepository;
      ports: GatePorts;
      logger: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The payload to send (a parent's with its dependents), or null: held. */
  async admit(payload: EventPayload, websiteId: number): Promise<EventPayload | null> {
    const { repository } = this.deps;
    const incident = payload.data.incident;
    const opening = isDownEvent(payload.type) && payload.data.reminder !== true;
    const involvement = await repository.involvement(payload.organizationId);
    if (
      incident &&
      involvement.children.has(websiteId) &&
      (isDownEvent(payload.type) || isUpEvent(payload.type))
    ) {
      const held = await repository.heldOf(incident);
      if (held) {
        // Its reminders are held too; a recovery while held ends it without a word to anyone.
        if (isUpEvent(payload.type) && (await repository.release(incident)))
          await this.note(incident, 'recovered while its alert was held: nothing was sent');
        return null;
      }
      if (opening && (await this.hold(payload, websiteId, incident))) return null;
    }
    const subject = subjectRef(payload, websiteId);
    return opening && isParent(involvement, subject) ? this.withDependents(payload, subject) : payload;
  }

  /** After a parent's recovery is sent: its children's held alerts go out where still down. */
  async dispatched(payload: EventPayload, websiteId: number): Promise<void> {
    if (!isUpEvent(payload.type)) return;
    const subject = subjectRef(payload, websiteId);
    if (isParent(await this.deps.repository.involvement(payload.organizationId), subject))
      await this.releaseHeldBy(payload.organizationId, subject);
  }

  /** Holds the event if a parent is down: whether it did. */
  private async hold(payload: EventPayload, websiteId: number, incident: string): Promise<boolean> {
    const { repository, ports } = this.deps;
    const parents = await repository.parentsOf(payload.organizationId, websiteId);
    if (parents.length === 0) return false;
    const states = await Promise.all(
      parents.map(async (ref) => ({ ref, down: await ports.isDown(payload.organizationId, ref) })),
    );
    const holding = holdingParents(states, { websiteId, monitorId: payload.data.monitor?.monitorId ?? null });
    if (holding.length === 0) return false;
    const names = await Promise.all(holding.map((p) => ports.nameOf(payload.organizationId, p.ref)));
    const stored = await repository.hold({
      _id: incident,
      organizationId: payload.organizationId,
      websiteId,
      payload,
      heldBy: holding.map((p) => parentKey(p.ref)),
      heldAt: this.now(),
    });
    if (stored)
      await this.note(
        incident,
        `held: ${list(names)} ${names.length > 1 ? 'are' : 'is'} down (it depends on ${names.length > 1 ? 'them' : 'it'})`,
      );
    return true;
  }

  /**
   * The parent's payload with every website depending on it and its customer: each receiver is
   * told of those it may see, 50 at most (`dependentsToldTo`).
   */
  private async withDependents(payload: EventPayload, ref: ParentRef): Promise<EventPayload> {
    const { repository, ports } = this.deps;
    const ids = await repository.childrenOf(ref);
    if (ids.length === 0) return payload;
    const dependents: Array<{ websiteId: number; name: string; url: string; customerId: number }> = [];
    for (const id of ids) {
      const still = (await repository.parentsOf(payload.organizationId, id)).some(
        (p) => parentKey(p) === parentKey(ref),
      );
      const website = still ? await ports.website(payload.organizationId, id) : null;
      if (website)
        dependents.push({
          websiteId: website.id,
          name: website.name,
          url: website.url,
          customerId: website.customerId,
        });
    }
    return dependents.length === 0
      ? payload
      : { ...payload, data: { ...payload.data, dependents, dependentCount: dependents.length } };
  }

  private async releaseHeldBy(organizationId: number, parent: ParentRef): Promise<void> {
    const { repository, ports } = this.deps;
    // Every recovery asks: most parents hold nothing, and then nothing more is read.
    const heldBy = await repository.heldBy(parent);
    if (heldBy.length === 0) return;
    const name = await ports.nameOf(organizationId, parent);
    for (const held of heldBy) {
      if (held.organizationId !== organizationId) continue;
      const parents = await repository.parentsOf(organizationId, held.websiteId);
      const states = await Promise.all(
        parents.map(async (ref) => ({ ref, down: await ports.isDown(organizationId, ref) })),
      );
      const monitorId = held.payload.data.monitor?.monitorId ?? null;
      if (holdingParents(states, { websiteId: held.websiteId, monitorId }).length > 0) continue;
      if (!(await repository.release(held._id))) continue;
      const open = await ports.openIncident(organizationId, held.websiteId, monitorId);
      if (open !== held._id) {
        await this.note(held._id, `${name} recovered; this website had recovered too: nothing was sent`);
        continue;
      }
      await this.note(held._id, `released: ${name} recovered and this website is still down: alerting now`);
      try {
        await ports.deliver(held.payload, held.websiteId);
      } catch (error) {
        // Put back, so the next recovery or the sweep tries again.
        await repository.hold(held);
        throw error;
      }
    }
  }

  private async note(incident: string, text: string): Promise<void> {
    const at = this.now();
    await this.deps.ports
      .timeline(incident, { key: `held:${at.getTime()}`, at, kind: 'held', by: SYSTEM, region: null, text })
      .catch((error: unknown) =>
        this.deps.logger.warn({ incident, err: errorMessage(error) }, 'dependency step not on the timeline'),
      );
  }
}
