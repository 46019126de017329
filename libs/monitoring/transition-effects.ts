import { createHash } from 'node:crypto';
import { type EventData, type EventDocument, monitorEventKind, type ResultSummary } from '../events/index.js';
import type { Lease } from '../locks/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import type { IncidentDocument } from './incident-document.js';
import { runStart, type TimelineEntry, transitionSteps } from './incident-timeline.js';
import type { MonitorOutcome } from './monitor-decisions.js';
import { needsDurableWrite } from './monitor-state.cache.js';
import { type MonitorRef, type MonitorStateDocument, monitorKey } from './monitor-state.js';
import type { RunScreenshot } from './run-screenshot.js';

/* A decided transition's effects, without I/O: the next state, the incident opened or resolved, the events and timeline steps, their ids derived from what caused it. */

/** The website as events describe it. */
export type EventWebsite = Pick<
  WebsiteDocument,
  'organizationId' | 'id' | 'publicId' | 'name' | 'url' | 'customerId'
>;

/**
 * Whose state a transition moves: the website's HTTP check, or (`monitor`) another of its monitors,
 * named in its events.
 */
export type MonitorSubject = Pick<EventWebsite, 'organizationId' | 'id'> &
  Partial<EventWebsite> & { monitor?: (MonitorRef & { name?: string }) | null };

/** Where alerts link to: the app's incident page, a run's screenshot (absent: no link). */
export interface EventLinks {
  incident?: ((incidentId: string) => string) | undefined;
  screenshot?: ((websitePublicId: string, shot: RunScreenshot) => string) | undefined;
}

/**
 * What events carry besides the website, the statuses and the incident; `screenshot` is carried as
 * its link (`screenshotUrl`).
 */
export type EventDetails = { result: ResultSummary | null; screenshot?: RunScreenshot } & Partial<
  Pick<
    EventData,
    'ssl' | 'maintenance' | 'unmonitored' | 'evidence' | 'acknowledgement' | 'dnsChange' | 'siteHealth'
  >
>;

/** A decision to carry out: the state it leads to, the incident to open or resolve, the events. */
export interface TransitionPlan {
  /**
   * What caused it, unique among the transitions that can start from one state (a result's region
   * and time; "placement"; a maintenance boundary): with the state's fence it derives the incident's
   * and the events' ids, so carrying the same decision out again writes nothing twice.
   */
  trigger: string;
  at: Date;
  outcome: Pick<MonitorOutcome, 'state' | 'incident' | 'events'>;
  details: EventDetails;
}

/** What a transition leaves for MongoDB, in the order it is written; each part idempotent. */
export interface DurableEffects {
  websiteId: number;
  /** The state to store (null: nothing durable changed), fenced by the holding that decided it. */
  state: MonitorStateDocument | null;
  openIncident: IncidentDocument | null;
  resolveIncident: { organizationId: number; id: string; at: Date } | null;
  events: EventDocument[];
  /** Steps of the incident's timeline (each keyed: written again, shown once). */
  timeline: Array<{ incidentId: string; entry: TimelineEntry }>;
}

/** A UUID-shaped id derived from `parts` (the same parts, the same id). */
function derivedId(...parts: Array<string | number>): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The state the plan leads to, and what MongoDB must get for it. */
export function effectsOf(
  website: Partial<EventWebsite> & Pick<MonitorSubject, 'monitor'>,
  base: MonitorStateDocument,
  plan: TransitionPlan,
  lease: Lease,
  /** The incident's page in the app (alerts link to it). */
  incidentLink: ((incidentId: string) => string) | undefined,
  /** A failing run's screenshot (alerts link to it). */
  screenshotLink?: EventLinks['screenshot'],
): { next: MonitorStateDocument; effects: DurableEffects } {
  const { outcome, at } = plan;
  const transition = derivedId(monitorKey(base.websiteId, base.monitor), base.fence, plan.trigger);
  const next: MonitorStateDocument = { ...outcome.state, fence: lease.fence };
  let openIncident: IncidentDocument | null = null;
  let resolveIncident: DurableEffects['resolveIncident'] = null;
  if (outcome.incident === 'open') {
    const down = Object.entries(outcome.state.regions).filter(([, track]) => track.lastStatus === 'down');
    openIncident = {
      id: derivedId(transition, 'incident'),
      organizationId: base.organizationId,
      websiteId: base.websiteId,
      ...(base.monitor && { monitor: base.monitor }),
      startedAt: at,
      resolvedAt: null,
      cause: outcome.state.lastCause ?? 'down',
      regions: down.map(([region]) => region),
      firstFailures: down.map(([region, track]) => ({
        region,
        at: runStart(track, at),
        resultId: track.firstDownResultId ?? null,
      })),
      acknowledgement: null,
      publicNote: null,
      ...(plan.details.screenshot ? { screenshot: plan.details.screenshot } : {}),
    };
    next.openIncidentId = openIncident.id;
  } else if (outcome.incident === 'resolve' && base.openIncidentId) {
    resolveIncident = { organizationId: base.organizationId, id: base.openIncidentId, at };
    next.openIncidentId = null;
  }
  const createdAt = new Date();
  const incident = next.openIncidentId ?? base.openIncidentId;
  const incidentUrl = incident && incidentLink ? { incidentUrl: incidentLink(incident) } : {};
  const { screenshot, ...details } = plan.details;
  const screenshotUrl =
    screenshot && screenshotLink && website.publicId !== undefined
      ? { screenshotUrl: screenshotLink(website.publicId, screenshot) }
      : {};
  const told = outcome.events.flatMap((event) => {
    const type = base.monitor ? monitorEventKind(base.monitor.kind, event.type) : event.type;
    return type ? [{ ...event, type }] : [];
  });
  const monitorNamed = base.monitor && {
    monitor: { kind: base.monitor.kind, monitorId: base.monitor.id, name: website.monitor?.name ?? '' },
  };
  const events = told.map(({ type, previousStatus, status, reminder }, index) => {
    if (!isEventWebsite(website))
      throw new Error(`a transition of website ${base.websiteId} tells ${type} without the website`);
    return {
      id: derivedId(transition, 'event', index, type),
      organizationId: website.organizationId,
      websiteId: website.id,
      type,
      createdAt,
      deliveredAt: null,
      data: {
        website: {
          id: website.id,
          publicId: website.publicId,
          name: website.name,
          url: website.url,
          customerId: website.customerId,
        },
        ...details,
        previousStatus,
        status,
        incident,
        ...incidentUrl,
        ...screenshotUrl,
        ...monitorNamed,
        ...(reminder ? { reminder } : {}),
      },
    } satisfies EventDocument;
  });
  // After a holder that let its lock expire, MongoDB gets this state whatever changed: its fence
  // then refuses that holder's late write.
  const durable = lease.lapsed || needsDurableWrite(next);
  return {
    next,
    effects: {
      websiteId: base.websiteId,
      state: durable ? next : null,
      openIncident,
      resolveIncident,
      events,
      timeline: transitionSteps({
        base,
        next,
        at,
        opened: openIncident && { id: openIncident.id, cause: openIncident.cause },
        resolved: resolveIncident?.id ?? null,
        events: outcome.events,
      }),
    },
  };
}

function isEventWebsite(website: Partial<EventWebsite>): website is EventWebsite {
  return website.publicId !== undefined && website.name !== undefined && website.url !== undefined;
}
