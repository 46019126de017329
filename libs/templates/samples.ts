import { createHash } from 'node:crypto';
import {
  type EventKind,
  type EventPayload,
  OTHER_MONITOR_KINDS,
  type OtherMonitorKind,
} from '../events/index.js';

type EventWebsite = NonNullable<EventPayload['data']['website']>;
type Data = EventPayload['data'];

/** The website a sample event is about when the organization has none yet. */
export const SAMPLE_WEBSITE: EventWebsite = {
  id: 1,
  publicId: 'wbs_sample',
  name: 'Acme shop',
  url: 'https://shop.example.com/',
  customerId: 1,
};

export interface SampleOptions {
  organizationId: number;
  /** One of the organization's websites, else SAMPLE_WEBSITE. */
  website?: EventWebsite | null;
  /** The app's page of an incident (PUBLIC_URL's), as real events link it. */
  incidentLink: (incidentId: string) => string;
  /** With a grouped message's list of affected websites. */
  grouped?: boolean;
  at?: Date;
}

const iso = (at: Date, offsetMs = 0) => new Date(at.getTime() + offsetMs).toISOString();
const HOUR = 3_600_000;

/** A stable UUID-shaped id for a sample, so a preview does not change between keystrokes. */
const sampleId = (...parts: string[]) => {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** What the latest check saw when the sample website failed: a 503 from its origin. */
function failure(website: EventWebsite, at: Date): Partial<Data> {
  return {
    result: {
      region: 'eu-central',
      startedAt: iso(at, -20_000),
      httpStatus: 503,
      error: null,
      checks: [
        { name: 'status', outcome: 'fail', message: 'HTTP 503, expected 200–399', value: 503 },
        { name: 'responseTime', outcome: 'pass', message: '412 ms', value: 412 },
      ],
    },
    evidence: {
      at: iso(at, -20_000),
      region: 'eu-central',
      nodeId: 'node-fra-1',
      url: website.url,
      finalUrl: website.url,
      statusLine: '503 Service Unavailable',
      headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx' },
      body: {
        kind: 'text',
        text: '<html><body><h1>503 Service Unavailable</h1>Upstream connect error</body></html>',
        charset: 'utf-8',
        bytes: 83,
        truncated: false,
      },
      address: '203.0.113.10',
      redirects: [],
      tls: null,
      error: null,
      timings: { dns: 12, connect: 20, tls: 35, ttfb: 340, download: 5, total: 412 },
    },
  };
}

/** The extras of each kind of event, as its producer writes them. */
function extras(type: EventKind, website: EventWebsite, at: Date): Partial<Data> {
  const [kind] = type.split('.');
  if (type === 'ssl.expiring' || type === 'ssl.invalid')
    return {
      ssl: {
        validTo: iso(at, 9 * 24 * HOUR),
        daysLeft: type === 'ssl.expiring' ? 9 : -1,
        issuer: "Let's Encrypt R11",
        subject: new URL(website.url).hostname,
        valid: type === 'ssl.expiring',
      },
    };
  if (kind === 'maintenance')
    return {
      maintenance: {
        windowId: 1,
        title: 'Database upgrade',
        startsAt: iso(at, type === 'maintenance.started' ? 0 : -HOUR),
        endsAt: iso(at, type === 'maintenance.started' ? HOUR : 0),
      },
    };
  if (type === 'dns.changed') return { dnsChange: { previous: ['203.0.113.10'], current: ['198.51.100.7'] } };
  if (type === 'incident.acknowledged')
    return {
      acknowledgement: {
        at: iso(at),
        by: { type: 'user', id: 1, name: 'Dana Ops' },
        note: 'Looking into it: the database restarts',
      },
    };
  if (type === 'website.unmonitored')
    return { unmonitored: { reason: 'no monitoring node of its regions is up', since: iso(at, -300_000) } };
  if (type === 'site.links_broken' || type === 'site.mixed_content' || type === 'site.lighthouse_degraded')
    return { siteHealth: siteHealth(type, website) };
  if (type === 'website.down' || type === 'website.degraded') return failure(website, at);
  if (type.endsWith('.down'))
    return {
      result: {
        region: 'eu-central',
        startedAt: iso(at, -20_000),
        httpStatus: null,
        error:
          type === 'heartbeat.down'
            ? {
                code: 'HEARTBEAT_MISSED',
                message: 'no ping for 26 hours (expected every 24 hours, 1 hour grace)',
              }
            : { code: 'TIMEOUT', message: 'no answer within 10 s' },
        checks: [],
      },
    };
  if (type.endsWith('.up'))
    return {
      result: {
        region: 'eu-central',
        startedAt: iso(at, -20_000),
        httpStatus: 200,
        error: null,
        checks: [{ name: 'status', outcome: 'pass', message: 'HTTP 200', value: 200 }],
      },
    };
  return {};
}

function siteHealth(type: EventKind, website: EventWebsite): NonNullable<Data['siteHealth']> {
  const page = new URL('/pricing', website.url).href;
  const finding = (url: string, status: number | null, detail: string | null) => ({
    url,
    status,
    detail,
    pages: [{ page, element: 'a', text: 'Plans' }],
    pageCount: 1,
  });
  const links =
    type === 'site.links_broken' ? [finding(new URL('/old-plans', website.url).href, 404, null)] : [];
  const mixed =
    type === 'site.mixed_content' ? [finding('http://cdn.example.com/logo.png', null, 'passive')] : [];
  return {
    runId: 'run_sample',
    brokenLinks: links,
    brokenLinkCount: links.length,
    mixedContent: mixed,
    mixedContentCount: mixed.length,
    fixedCount: 2,
    lighthouse:
      type === 'site.lighthouse_degraded'
        ? [{ url: website.url, preset: 'mobile', breaches: ['performance 41 (under 50)'], audits: [] }]
        : [],
  };
}

/** The other monitor an event of its kind is about (heartbeat.down: a heartbeat). */
const MONITOR_NAMES: Record<OtherMonitorKind, string> = {
  heartbeat: 'Nightly backup',
  dns: 'MX records',
  port: 'SMTP port',
  icmp: 'Gateway',
  udp: 'Game server',
  grpc: 'Orders service',
  websocket: 'Live updates',
  smtp: 'Mail relay',
  imap: 'Mailbox',
  pop3: 'Mailbox',
  'api-flow': 'Checkout API',
  browser: 'Sign-in journey',
  crawl: 'Site crawl',
  lighthouse: 'Home page',
};

const STATUSES: Partial<Record<EventKind, [string | null, string | null]>> = {
  'website.up': ['down', 'up'],
  'website.degraded': ['up', 'degraded'],
  'website.unmonitored': ['up', 'unmonitored'],
  'website.monitored': ['unmonitored', 'up'],
  'maintenance.started': ['up', 'maintenance'],
  'maintenance.ended': ['maintenance', 'up'],
  'incident.acknowledged': ['down', 'down'],
};

/** A realistic event of the kind, about the organization's website when it has one: what a preview renders. */
export function sampleEvent(type: EventKind, options: SampleOptions): EventPayload {
  const at = options.at ?? new Date();
  const website = options.website ?? SAMPLE_WEBSITE;
  const [kind = ''] = type.split('.');
  const down = type.endsWith('.down') || type === 'incident.acknowledged';
  const [previousStatus, status] =
    STATUSES[type] ?? (down ? ['up', 'down'] : type.endsWith('.up') ? ['down', 'up'] : [null, null]);
  const incident = down || type.endsWith('.up') ? sampleId('incident', String(website.id)) : null;
  const monitor = (OTHER_MONITOR_KINDS as readonly string[]).includes(kind)
    ? (kind as OtherMonitorKind)
    : null;
  const data: Data = {
    website: type === 'test' ? null : website,
    previousStatus: type === 'test' ? null : previousStatus,
    status: type === 'test' ? null : status,
    incident: type === 'test' ? null : incident,
    result: null,
    ...(type === 'test' ? {} : extras(type, website, at)),
    ...(incident ? { incidentUrl: options.incidentLink(incident) } : {}),
    ...(monitor ? { monitor: { kind: monitor, monitorId: 7, name: MONITOR_NAMES[monitor] } } : {}),
    ...(options.grouped && type !== 'test' ? { group: groupOf(website, status) } : {}),
  };
  return {
    id: sampleId('event', type, String(website.id)),
    type,
    createdAt: iso(at),
    organizationId: options.organizationId,
    data,
  };
}

/** A grouped message's list: the website and two more of its customer's. */
function groupOf(website: EventWebsite, status: string | null) {
  return [
    { name: website.name, url: website.url, status, reason: 'HTTP 503, expected 200–399' },
    { name: 'Acme blog', url: 'https://blog.example.com/', status, reason: 'TIMEOUT: no answer within 30 s' },
    { name: 'Acme API', url: 'https://api.example.com/health', status, reason: 'HTTP 502, expected 200–399' },
  ];
}
