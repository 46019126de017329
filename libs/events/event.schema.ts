import { z } from 'zod';
import { assertionOutcomeSchema, evidenceSchema } from '../checks/index.js';
import { EVENT_KINDS, type EventKind } from './event-kinds.js';

/** The monitors a website has besides its HTTP check; each tells `<kind>.down` and `<kind>.up`. */
export const OTHER_MONITOR_KINDS = [
  'heartbeat',
  'dns',
  'port',
  'icmp',
  'udp',
  'grpc',
  'websocket',
  'smtp',
  'imap',
  'pop3',
  'api-flow',
  'browser',
  'crawl',
  'lighthouse',
] as const;
export type OtherMonitorKind = (typeof OTHER_MONITOR_KINDS)[number];

/** What people call each kind, in alerts and pages: `Shop: ping check "Gateway" is down`. */
export const MONITOR_KIND_NOUNS: Record<OtherMonitorKind, string> = {
  heartbeat: 'heartbeat',
  dns: 'DNS check',
  port: 'port check',
  icmp: 'ping check',
  udp: 'UDP check',
  grpc: 'gRPC check',
  websocket: 'WebSocket check',
  smtp: 'SMTP check',
  imap: 'IMAP check',
  pop3: 'POP3 check',
  'api-flow': 'API flow',
  browser: 'browser journey',
  crawl: 'site crawl',
  lighthouse: 'Lighthouse check',
};

/** Events that open a problem (an incident) and those that end it, for every monitor kind. */
const DOWN_KINDS = new Set<EventKind>(EVENT_KINDS.filter((kind) => kind.endsWith('.down')));
const UP_KINDS = new Set<EventKind>(EVENT_KINDS.filter((kind) => kind.endsWith('.up')));
export const isDownEvent = (type: EventKind) => DOWN_KINDS.has(type);
/** What a crawl or a Lighthouse check found new: work to do, not an outage (nothing ends it). */
export const isSiteFinding = (type: EventKind) => type.startsWith('site.');
export const isUpEvent = (type: EventKind) => UP_KINDS.has(type);

/**
 * The event a website's other monitor tells for what its HTTP check would tell as `type`
 * (`website.down` → `heartbeat.down`); null when that kind tells nothing of it (a heartbeat is
 * never degraded). Other types (maintenance, acknowledgements) are the same for every monitor.
 */
export function monitorEventKind(kind: OtherMonitorKind, type: EventKind): EventKind | null {
  if (!type.startsWith('website.')) return type;
  const named = `${kind}.${type.slice('website.'.length)}`;
  return (EVENT_KINDS as readonly string[]).includes(named) ? (named as EventKind) : null;
}

/** Findings an event lists at most; its counts say how many there were. */
export const MAX_EVENT_FINDINGS = 20;

const newFindingSchema = z.object({
  url: z.string(),
  /** broken links: the HTTP status (null: no answer); mixed content: null. */
  status: z.number().int().nullable(),
  /** broken links: why there was no answer; mixed content: `active` or `passive`. */
  detail: z.string().nullable(),
  /** The first pages it appears on, with the link's text where it has one. */
  pages: z.array(z.object({ page: z.string(), element: z.string(), text: z.string().nullable() })).max(5),
  pageCount: z.number().int(),
});

/** What a site-health run found that the one before did not: the new findings, or the scores that fell. */
export const siteHealthNewsSchema = z.object({
  /** The run (its findings at GET /api/monitors/{id}/findings, its Lighthouse report by id). */
  runId: z.string(),
  brokenLinks: z.array(newFindingSchema).max(MAX_EVENT_FINDINGS),
  brokenLinkCount: z.number().int(),
  mixedContent: z.array(newFindingSchema).max(MAX_EVENT_FINDINGS),
  mixedContentCount: z.number().int(),
  /** Findings of the run before that are gone. */
  fixedCount: z.number().int(),
  /** Lighthouse: each page and preset whose scores went under their thresholds. */
  lighthouse: z
    .array(
      z.object({
        url: z.string(),
        preset: z.string(),
        /** In words: "performance 41 (under 50)", "accessibility 78 (down 15 from 93)". */
        breaches: z.array(z.string()),
        /** The audits that cost most points: "Image elements do not have [alt] attributes". */
        audits: z.array(z.string()).max(5),
      }),
    )
    .max(MAX_EVENT_FINDINGS),
});
export type SiteHealthNews = z.infer<typeof siteHealthNewsSchema>;

export const eventWebsiteSchema = z.object({
  id: z.number().int(),
  publicId: z.string(),
  name: z.string(),
  url: z.string(),
  customerId: z.number().int(),
});

/** One check's verdict in a result (results as served and as events carry them). */
export const checkResultSchema = z.object({
  name: z.string(),
  outcome: z.enum(['pass', 'warn', 'fail', 'skipped']),
  message: z.string(),
  value: z.union([z.number(), z.string()]).nullable(),
  assertions: z.array(assertionOutcomeSchema).optional().describe('The assertions check: each verdict'),
});

/** The result an event is about, in short: what messages show as the reason. */
export const resultSummarySchema = z.object({
  region: z.string(),
  startedAt: z.date(),
  httpStatus: z.number().int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  checks: z.array(checkResultSchema),
});
export type ResultSummary = z.infer<typeof resultSummarySchema>;

const sslSummarySchema = z.object({
  validTo: z.date(),
  daysLeft: z.number().int(),
  issuer: z.string(),
  subject: z.string(),
  valid: z.boolean(),
});

/** SPEC's event payload `data`, with the extras some kinds carry. */
export const eventDataSchema = z.object({
  website: eventWebsiteSchema.nullable(),
  previousStatus: z.string().nullable(),
  status: z.string().nullable(),
  incident: z.string().nullable(),
  /** The latest result (events written before it was kept for every kind have none). */
  result: resultSummarySchema.nullable().default(null),
  /** A website.down that repeats one already told (reminderIntervalMinutes). */
  reminder: z.boolean().optional(),
  /**
   * A channel told by an escalation policy's step (not by the alert itself): the policy's name and
   * the step in words ("step 2 of 3").
   */
  escalation: z.object({ policy: z.string(), step: z.string() }).optional(),
  ssl: sslSummarySchema.nullable().optional(),
  maintenance: z
    .object({
      windowId: z.number().int(),
      title: z.string().nullable(),
      startsAt: z.date(),
      endsAt: z.date(),
    })
    .nullable()
    .optional(),
  /** Why no region checks the website (website.unmonitored). */
  unmonitored: z.object({ reason: z.string(), since: z.date() }).optional(),
  /** What the failing check saw (website.down): status line, headers, body excerpt, or the network error. */
  evidence: evidenceSchema.optional(),
  /** The incident's page in the app. */
  incidentUrl: z.string().optional(),
  /**
   * A failing browser journey's screenshot of the page at the failing step (the API's route: it
   * answers a person signed in to the app, or a token, of the website's organization; a client
   * user of its customer only).
   */
  screenshotUrl: z.string().optional(),
  /** The website's other monitor the event is about (heartbeat, DNS or port events): its kind, id and name. */
  monitor: z
    .object({ kind: z.enum(OTHER_MONITOR_KINDS), monitorId: z.number().int(), name: z.string() })
    .optional(),
  /** What a site-health run found new (site.links_broken, site.mixed_content, site.lighthouse_degraded). */
  siteHealth: siteHealthNewsSchema.optional(),
  /** A DNS check's answer that changed (dns.changed): what it held to, and what it answers now. */
  dnsChange: z.object({ previous: z.array(z.string()), current: z.array(z.string()) }).optional(),
  /**
   * A parent's down event: the websites that depend on it (their alerts are held while it is down)
   * that the receiver may see (a channel scoped to a customer: that customer's only), the first
   * 50, and how many there are.
   */
  dependents: z
    .array(
      z.object({
        websiteId: z.number().int(),
        name: z.string(),
        url: z.string(),
        customerId: z.number().int().optional(),
      }),
    )
    .max(50)
    .optional(),
  dependentCount: z.number().int().optional(),
  /**
   * A grouped message (a channel's grouping window): every website that failed in the window, the
   * event itself describing the first.
   */
  group: z
    .array(
      z.object({
        name: z.string(),
        url: z.string(),
        status: z.string().nullable(),
        reason: z.string().nullable(),
      }),
    )
    .optional(),
  /** Who acknowledged the incident, and what they said (incident.acknowledged). */
  acknowledgement: z
    .object({
      at: z.date(),
      by: z.object({ type: z.enum(['user', 'token']), id: z.number().int(), name: z.string() }),
      note: z.string().nullable(),
    })
    .optional(),
});
export type EventData = z.infer<typeof eventDataSchema>;

/** An event in the outbox: written by workers and the API, read by the notifier. */
export const eventDocumentSchema = z.object({
  id: z.string(),
  organizationId: z.number().int(),
  websiteId: z.number().int(),
  type: z.enum(EVENT_KINDS),
  createdAt: z.date(),
  data: eventDataSchema,
  deliveredAt: z.date().nullable(),
});
export type EventDocument = z.infer<typeof eventDocumentSchema>;
/** What a producer writes; the outbox adds the id and the delivery mark. */
export type EventDraft = Omit<EventDocument, 'id' | 'deliveredAt'>;

/** A value as JSON carries it: dates become ISO strings. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer Item>
    ? Jsonified<Item>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/** What a receiver gets for an event (SPEC's payload): the event without its outbox fields, as JSON. */
export type EventPayload = Jsonified<Pick<EventDocument, 'id' | 'type' | 'organizationId' | 'data'>> & {
  createdAt: string;
};

/** The payload of a stored event: JSON's own conversion, typed by the contract. */
export function toPayload(
  event: Pick<EventDocument, 'id' | 'type' | 'createdAt' | 'organizationId' | 'data'>,
): EventPayload {
  const { id, type, createdAt, organizationId, data } = event;
  return JSON.parse(JSON.stringify({ id, type, createdAt, organizationId, data }));
}
