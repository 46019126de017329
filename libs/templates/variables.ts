/**
 * What a channel's message template may use, as plain constants: the API checks and renders with
 * them, the app (which imports no server code) lists them in the template editor, docs/templates.md
 * documents them.
 */

/** The longest template a channel keeps. */
export const TEMPLATE_MAX_CHARS = 10_000;
/** The longest text a template renders to: more is cut (a connector cuts again to its tool's limit). */
export const TEMPLATE_OUTPUT_MAX_CHARS = 4_000;

export interface TemplateVariable {
  /** Dotted, as a template writes it; `[]` stands for an item of a list (`group[].name`). */
  path: string;
  description: string;
  /** A list: `{% for … in path %}`, `path.size`, `path.first`, `path[0]`. */
  list?: true;
}

/** Every variable a template sees, the event's documented fields: each event kind fills those it has. */
export const TEMPLATE_VARIABLES: readonly TemplateVariable[] = [
  { path: 'event.type', description: 'The event kind: website.down, website.up, ssl.expiring, test…' },
  { path: 'event.id', description: 'The event’s id (the same in every channel’s delivery of it)' },
  { path: 'event.createdAt', description: 'When it happened (ISO 8601, UTC; format it with | date)' },
  { path: 'website.name', description: 'The website’s name' },
  { path: 'website.url', description: 'The website’s URL' },
  { path: 'website.id', description: 'The website’s id' },
  { path: 'website.publicId', description: 'The website’s public id (its badges’ and API paths’)' },
  { path: 'customer.id', description: 'The id of the website’s customer' },
  { path: 'status', description: 'The status now: up, down, degraded, maintenance…' },
  { path: 'previousStatus', description: 'The status before' },
  { path: 'incident.id', description: 'The incident’s id (down and up events, acknowledgements)' },
  { path: 'incident.link', description: 'The incident’s page in the app' },
  { path: 'summary.title', description: 'The default message’s headline: “Shop is down”' },
  { path: 'summary.reason', description: 'Why, in words: the request error or the checks that failed' },
  { path: 'summary.excerpt', description: 'What the failing check saw, in one line (≤ 300 characters)' },
  { path: 'summary.severity', description: 'critical, error, warning or info' },
  {
    path: 'summary.recovery',
    description: 'true when the event ends a problem (up again, maintenance over)',
  },
  { path: 'summary.screenshot', description: 'A failing browser journey’s screenshot (a link)' },
  { path: 'reminder', description: 'true when a down event repeats one already sent' },
  {
    path: 'escalation.policy',
    description: 'The escalation policy whose step sends this (empty when the alert itself does)',
  },
  { path: 'escalation.step', description: 'That step, in words: “step 2 of 3”' },
  {
    path: 'monitor.kind',
    description: 'The website’s other monitor the event is about: heartbeat, dns, port…',
  },
  { path: 'monitor.name', description: 'That monitor’s name' },
  { path: 'monitor.id', description: 'That monitor’s id' },
  { path: 'result.region', description: 'The region of the latest check' },
  { path: 'result.httpStatus', description: 'Its HTTP status (empty without an answer)' },
  { path: 'result.error.code', description: 'Why no answer came: DNS, CONNECT, TLS, TIMEOUT…' },
  { path: 'result.error.message', description: 'That error in words' },
  {
    path: 'result.checks',
    description: 'Its checks, each with name, outcome (pass, warn, fail) and message',
    list: true,
  },
  { path: 'result.checks[].name', description: 'A check’s name' },
  { path: 'result.checks[].outcome', description: 'pass, warn, fail or skipped' },
  { path: 'result.checks[].message', description: 'What it found' },
  { path: 'ssl.daysLeft', description: 'Days until the certificate expires (ssl events)' },
  { path: 'ssl.validTo', description: 'When it expires (ISO 8601)' },
  { path: 'ssl.issuer', description: 'Who issued it' },
  { path: 'ssl.subject', description: 'Whom it was issued to' },
  { path: 'ssl.valid', description: 'Whether it is valid' },
  { path: 'maintenance.title', description: 'The maintenance window’s title (maintenance events)' },
  { path: 'maintenance.startsAt', description: 'When it starts (ISO 8601)' },
  { path: 'maintenance.endsAt', description: 'When it ends (ISO 8601)' },
  { path: 'dns.previous', description: 'A DNS check’s answer before (dns.changed): its records', list: true },
  { path: 'dns.current', description: 'Its answer now: its records', list: true },
  { path: 'acknowledgement.by', description: 'Who acknowledged the incident (incident.acknowledged)' },
  { path: 'acknowledgement.note', description: 'What they wrote' },
  { path: 'acknowledgement.at', description: 'When (ISO 8601)' },
  { path: 'siteHealth.brokenLinkCount', description: 'New broken links a crawl found (site.links_broken)' },
  { path: 'siteHealth.mixedContentCount', description: 'New mixed-content resources (site.mixed_content)' },
  { path: 'siteHealth.fixedCount', description: 'Findings of the run before that are gone' },
  {
    path: 'group',
    description:
      'A grouped message’s affected websites, each with name, url, status and reason (nil otherwise: test it with {% if group %})',
    list: true,
  },
  { path: 'group[].name', description: 'An affected website’s name' },
  { path: 'group[].url', description: 'Its URL' },
  { path: 'group[].status', description: 'Its status' },
  { path: 'group[].reason', description: 'Why, in words' },
];

/** Each documented path and every path leading to one (`result`, `result.error`), a list's items as `[]`. */
const KNOWN = new Set(
  TEMPLATE_VARIABLES.flatMap(({ path, list }) => {
    const parts = path.split('.');
    return [...parts.map((_, i) => parts.slice(0, i + 1).join('.')), ...(list ? [`${path}[]`] : [])];
  }),
);
const LISTS = new Set(TEMPLATE_VARIABLES.filter(({ list }) => list).map(({ path }) => path));

/**
 * Whether a variable a template reads is documented: its segments as Liquid analyses them (a
 * number indexes a list, a nested array is an index read from another variable). Liquid gives
 * every value `size`, and lists `first` and `last`.
 */
export function isKnownVariable(segments: readonly unknown[]): boolean {
  let path = '';
  for (const segment of segments) {
    const item =
      typeof segment === 'number' || Array.isArray(segment) || segment === 'first' || segment === 'last';
    if (segment === 'size' && KNOWN.has(path)) return true;
    if (item && LISTS.has(path)) path = `${path}[]`;
    else path = path === '' ? String(segment) : `${path}.${String(segment)}`;
    if (!KNOWN.has(path)) return false;
  }
  return true;
}
