import { type EventKind, type EventPayload, isDownEvent, MONITOR_KIND_NOUNS } from '../events/index.js';

export type Severity = 'critical' | 'error' | 'warning' | 'info';

/** An event in words, for chat messages, tickets and mails. */
export interface EventSummary {
  title: string;
  /** Why, when the result says (the request error, or the checks that failed or warned). */
  reason: string | null;
  severity: Severity;
  /** The event ends a problem (website up, maintenance over). */
  recovery: boolean;
  /**
   * What the failing check saw, in one line of at most 300 characters: the answer's status line
   * and the start of its body, or the network error (null: no evidence came with the event).
   */
  excerpt: string | null;
  /** The incident's page in the app. */
  link: string | null;
  /** A failing browser journey's screenshot of the page at the failing step (signing in opens it). */
  screenshot: string | null;
}

/** How much of a failing answer's body an alert quotes. */
export const EXCERPT_CHARS = 300;

/** The kinds that probe a service (ICMP, UDP, gRPC, WebSocket, mail, API flows, browser journeys): one sentence for all of them. */
const PROBED = ['icmp', 'udp', 'grpc', 'websocket', 'smtp', 'imap', 'pop3', 'api-flow', 'browser'] as const;
type ProbedEvent = `${(typeof PROBED)[number]}.${'down' | 'up'}`;
function monitorKindsSay<T>(down: T, up: T): Record<ProbedEvent, T> {
  return Object.fromEntries(
    PROBED.flatMap((kind) => [
      [`${kind}.down`, down],
      [`${kind}.up`, up],
    ]),
  ) as Record<ProbedEvent, T>;
}

const SEVERITY: Record<EventKind, Severity> = {
  'website.down': 'critical',
  'website.up': 'info',
  'website.degraded': 'warning',
  'ssl.expiring': 'warning',
  'ssl.invalid': 'error',
  'domain.expiring': 'warning',
  'website.unmonitored': 'warning',
  'website.monitored': 'info',
  'maintenance.started': 'info',
  'maintenance.ended': 'info',
  'incident.acknowledged': 'info',
  'heartbeat.down': 'critical',
  'heartbeat.up': 'info',
  'dns.down': 'critical',
  'dns.up': 'info',
  'dns.changed': 'warning',
  'port.down': 'critical',
  'port.up': 'info',
  ...monitorKindsSay('critical', 'info'),
  // The site is down is its HTTP check's to say: a crawl or Lighthouse that cannot reach it is an error.
  'crawl.down': 'error',
  'crawl.up': 'info',
  'lighthouse.down': 'error',
  'lighthouse.up': 'info',
  'site.links_broken': 'warning',
  'site.mixed_content': 'warning',
  'site.lighthouse_degraded': 'warning',
  test: 'info',
};

const HEADLINE: Record<EventKind, string> = {
  'website.down': 'is down',
  'website.up': 'is up again',
  'website.degraded': 'is degraded',
  'ssl.expiring': 'has an SSL certificate expiring soon',
  'ssl.invalid': 'has an invalid SSL certificate',
  'domain.expiring': 'has a domain expiring soon',
  'website.unmonitored': 'is no longer checked from any region',
  'website.monitored': 'is checked again',
  'maintenance.started': 'entered maintenance',
  'maintenance.ended': 'left maintenance',
  'incident.acknowledged': 'is down: the incident was acknowledged',
  'heartbeat.down': 'is down: its ping did not come',
  'heartbeat.up': 'is up again: its ping came',
  'dns.down': 'is down: its DNS answer is wrong or missing',
  'dns.up': 'is up again: its DNS answer is as expected',
  'dns.changed': 'changed its DNS answer',
  'port.down': 'is down: its port does not answer as expected',
  'port.up': 'is up again: its port answers',
  ...monitorKindsSay('is down: it does not answer as expected', 'is up again: it answers as expected'),
  'crawl.down': 'cannot crawl the site: its start page or robots.txt did not answer',
  'crawl.up': 'crawls the site again',
  'lighthouse.down': 'cannot test the page: Lighthouse could not load it',
  'lighthouse.up': 'tests the page again',
  'site.links_broken': 'found new broken links',
  'site.mixed_content': 'found new mixed content (http: resources on https: pages)',
  'site.lighthouse_degraded': 'found Lighthouse scores under their thresholds',
  test: '',
};

type Finding = NonNullable<EventPayload['data']['siteHealth']>['brokenLinks'][number];

/** A new finding in one line: the URL, what it answered, where it is. */
function findingLine(finding: Finding): string {
  const answer = finding.status !== null ? `HTTP ${finding.status}` : (finding.detail ?? 'no answer');
  const first = finding.pages[0];
  const where = first
    ? ` on ${first.page}${finding.pageCount > 1 ? ` and ${finding.pageCount - 1} more page${finding.pageCount > 2 ? 's' : ''}` : ''}`
    : '';
  return `${finding.url} (${answer})${where}`;
}

/** What a site-health event found, in words: the first few new findings or breached scores. */
function siteHealthReason(type: EventKind, news: NonNullable<EventPayload['data']['siteHealth']>): string {
  const listed = (items: Finding[], count: number, noun: string) => {
    const shown = items.slice(0, 3).map(findingLine);
    const more = count - shown.length;
    return `${count} new ${noun}${count === 1 ? '' : 's'}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  };
  if (type === 'site.links_broken') return listed(news.brokenLinks, news.brokenLinkCount, 'broken link');
  if (type === 'site.mixed_content')
    return listed(news.mixedContent, news.mixedContentCount, 'mixed-content resource');
  return news.lighthouse
    .map(
      (page) =>
        `${page.url} (${page.preset}): ${page.breaches.join(', ')}${page.audits.length > 0 ? ` — ${page.audits.join('; ')}` : ''}`,
    )
    .join('. ');
}

function reasonOf(type: EventKind, data: EventPayload['data']): string | null {
  if (data.siteHealth && type.startsWith('site.')) return siteHealthReason(type, data.siteHealth);
  if (data.unmonitored) return data.unmonitored.reason;
  if (data.dnsChange)
    return `was ${data.dnsChange.previous.join(', ') || 'no record'}; now ${data.dnsChange.current.join(', ') || 'no record'}`;
  if (data.acknowledgement)
    return [`Acknowledged by ${data.acknowledgement.by.name}`, data.acknowledgement.note]
      .filter(Boolean)
      .join(': ');
  const { result } = data;
  if (!result) return null;
  if (result.error) return result.error.message;
  const failing = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn');
  return failing.length > 0 ? failing.map((c) => c.message || c.name).join('; ') : null;
}

/** The evidence in one line: the status line and the body's start, or the network error. */
function excerptOf(evidence: EventPayload['data']['evidence']): string | null {
  if (!evidence) return null;
  const body = evidence.body?.kind === 'text' ? evidence.body.text.replace(/\s+/g, ' ').trim() : '';
  const parts = evidence.error
    ? [`${evidence.error.code}: ${evidence.error.message}`]
    : [evidence.statusLine ? `HTTP ${evidence.statusLine}` : null, body || null];
  const line = parts.filter(Boolean).join(' — ');
  if (!line) return null;
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS - 1)}…` : line;
}

const RECOVERIES = new Set<EventKind>([
  'website.up',
  'maintenance.ended',
  'website.monitored',
  'heartbeat.up',
  'dns.up',
  'port.up',
  ...PROBED.map((kind): EventKind => `${kind}.up`),
  'crawl.up',
  'lighthouse.up',
]);

/** Names in a line: the first few, then how many more. */
function named(names: readonly string[], total: number, shown = 5): string {
  const listed = names.slice(0, shown).join(', ');
  return total > shown ? `${listed} and ${total - shown} more` : listed;
}

/** What a grouped message says: every website of the window, each with why. */
function groupReason(group: NonNullable<EventPayload['data']['group']>): string {
  return group.map((item) => (item.reason ? `${item.name}: ${item.reason}` : item.name)).join('; ');
}

/** Why a channel hears an alert again: an escalation step names it ("Escalation Business critical, step 2 of 3"). */
function escalationLine(data: EventPayload['data']): string | null {
  return data.escalation ? `Escalation ${data.escalation.policy}, ${data.escalation.step}` : null;
}

/** A parent's alert names the websites depending on it (their own alerts are held meanwhile). */
function dependentsLine(data: EventPayload['data']): string | null {
  const { dependents, dependentCount } = data;
  if (!dependents || dependents.length === 0) return null;
  const count = dependentCount ?? dependents.length;
  return `Affected (depending on it, their alerts held): ${named(
    dependents.map((d) => d.name),
    count,
    10,
  )}`;
}

export function summarize(payload: EventPayload): EventSummary {
  const { website, monitor, group } = payload.data;
  if (Array.isArray(group) && group.length > 1 && isDownEvent(payload.type))
    return {
      title: `${group.length} websites are down: ${named(
        group.map((item) => item.name),
        group.length,
        3,
      )}`,
      reason: groupReason(group),
      severity: SEVERITY[payload.type],
      recovery: false,
      excerpt: null,
      link: null,
      screenshot: null,
    };
  // A website's other monitor is named after the website: `Shop: heartbeat "Nightly backup" is down`.
  const subject = monitor
    ? `${website?.name ?? 'A website'}: ${MONITOR_KIND_NOUNS[monitor.kind]} "${monitor.name}"`
    : (website?.name ?? 'A website');
  const title =
    payload.type === 'test'
      ? 'Test notification from webmon: this channel works'
      : `${subject} ${payload.data.reminder === true ? 'is still down' : HEADLINE[payload.type]}`;
  return {
    title,
    reason:
      [reasonOf(payload.type, payload.data), dependentsLine(payload.data), escalationLine(payload.data)]
        .filter(Boolean)
        .join('. ') || null,
    severity: SEVERITY[payload.type],
    recovery: RECOVERIES.has(payload.type),
    excerpt: excerptOf(payload.data.evidence),
    link: payload.data.incidentUrl ?? null,
    screenshot: payload.data.screenshotUrl ?? null,
  };
}
