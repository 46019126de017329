import { hostname } from 'node:os';
import { z } from 'zod';
import { errorMessage } from '../errors/index.js';
import { parseDnsResolvers } from '../probe/index.js';
import { type ExemptAddress, parseExemptAddress, STORE_PORTS } from '../targets/index.js';

const SECRETS_KEY_BYTES = 32;

/** Decodes a 32-byte AES key written as 64 hex characters or as base64. */
export function decodeSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : undefined;
  return bytes?.length === SECRETS_KEY_BYTES ? bytes : undefined;
}

const secretsKey = z.string().transform((text, ctx) => {
  const key = decodeSecretsKey(text);
  if (!key) {
    ctx.addIssue({
      code: 'custom',
      message:
        'must be 32 random bytes as 64 hex characters or base64 (generate one with: openssl rand -base64 32)',
    });
    return z.NEVER;
  }
  return key;
});

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.stringbool({ truthy: ['true', '1', 'yes'], falsy: ['false', '0', 'no'] });

/**
 * Every environment variable the processes read. Each has a default fit for the embedded
 * single-machine setup except `SECRETS_KEY`, which the processes that handle secrets require.
 */
export const envSchema = z
  .object({
    /** @defaultValue mongodb://127.0.0.1:27017/webmon */
    MONGODB_URL: z.url({ protocol: /^mongodb(\+srv)?$/ }).default('mongodb://127.0.0.1:27017/webmon'),
    /** @defaultValue redis://127.0.0.1:6379 */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
    /** REDIS_URL names one node of a Redis Cluster; the others are found from it. @defaultValue false */
    REDIS_CLUSTER: bool.default(false),
    /** Interface the API binds to. @defaultValue 0.0.0.0 */
    HOST: z.union([z.ipv4(), z.ipv6(), z.literal('localhost')]).default('0.0.0.0'),
    /** @defaultValue 8080 */
    PORT: port.default(8080),
    /** The worker's or notifier's /metrics, /healthz and /readyz (on HOST); 0: none. @defaultValue 0 */
    METRICS_PORT: port.default(0),
    /** `npm start`: the worker's METRICS_PORT; 0: none. @defaultValue 9101 */
    WORKER_METRICS_PORT: port.default(9101),
    /** `npm start`: the notifier's METRICS_PORT; 0: none. @defaultValue 9102 */
    NOTIFIER_METRICS_PORT: port.default(9102),
    /** AES-256-GCM key for secrets at rest. */
    SECRETS_KEY: secretsKey.optional(),
    /** Previous keys, comma separated, still accepted for decryption during a key rotation. */
    SECRETS_KEYS_PREVIOUS: z
      .string()
      .default('')
      .transform((text, ctx) => {
        const keys: Buffer[] = [];
        for (const part of text.split(',').filter((p) => p.trim() !== '')) {
          const key = decodeSecretsKey(part);
          if (!key) {
            ctx.addIssue({
              code: 'custom',
              message: 'each key must be 32 bytes as 64 hex characters or base64',
            });
            return z.NEVER;
          }
          keys.push(key);
        }
        return keys;
      }),
    /** Region label of this monitoring node; a worker serves its region's queue. @defaultValue local */
    NODE_REGION: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1-32 lowercase letters, digits or dashes')
      .default('local'),
    /** Where websites checked from one region go while it serves (else the first serving region). */
    PREFERRED_REGION: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1-32 lowercase letters, digits or dashes')
      .optional(),
    /** Stable id of this monitoring node. @defaultValue the host name */
    NODE_ID: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, dots, dashes or underscores')
      .default(hostname().slice(0, 64)),
    /** Public address of this node, published in the firewall allow-list. */
    NODE_PUBLIC_IP: z.union([z.ipv4(), z.ipv6()]).optional(),
    /** Lifts the SSRF guard (tests, monitoring of private networks). @defaultValue false */
    ALLOW_PRIVATE_TARGETS: bool.default(false),
    /** @defaultValue info */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** json: one JSON object per line (log shippers); pretty: readable lines (`npm start` at a terminal). @defaultValue json */
    LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
    /** Requests per minute and API token. @defaultValue 1200 */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
    /** Failed authentications a client address may make per minute before it gets 429 (no token is looked up then). @defaultValue 60 */
    AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
    /** Requests per minute a client address may make to status pages and badges (their own budget, apart from the API's). @defaultValue 600 */
    PUBLIC_PAGES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    /** Memory the rendered status pages kept by an API process may take (the least read go first), MiB. @defaultValue 64 */
    STATUS_PAGE_CACHE_MIB: z.coerce.number().int().min(1).max(65_536).default(64),
    /**
     * Build public status pages on a thread of the API's own (with its own MongoDB and Redis
     * connections), so a build's CPU and memory never hold up other requests; false builds them on
     * the API's thread (one connection set and ~60 MB less, for a small install). @defaultValue true
     */
    STATUS_PAGE_BUILD_THREAD: bool.default(true),
    /** Prefix of every Redis key (queues, rate limits), so several deployments can share one Redis. */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, dashes or underscores')
      .default('wm'),
    /** Seconds a process may take to finish in-flight work after SIGTERM. @defaultValue 25 */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
    /** Checks one worker runs at once (they wait on the network, so hundreds fit). @defaultValue 200 */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(200),
    /** A worker's HTTP lane (websites' own checks) at once: its own slots, whatever the other lanes hold. @defaultValue WORKER_CONCURRENCY */
    WORKER_LANE_HTTP_CONCURRENCY: z.coerce.number().int().min(1).max(5000).optional(),
    /** A worker's fast lane (DNS, port, UDP, gRPC, WebSocket and mail checks) at once. @defaultValue WORKER_CONCURRENCY */
    WORKER_LANE_FAST_CONCURRENCY: z.coerce.number().int().min(1).max(5000).optional(),
    /** A worker's slow lane (ICMP checks: seconds each by design) at once; a full lane never delays the fast one. @defaultValue 20 */
    WORKER_LANE_SLOW_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(20),
    /** Browser journeys a worker plays at once (one Chromium, a context each; 2 cores: 2–4). @defaultValue 2 */
    WORKER_BROWSER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Site-health runs (crawls, Lighthouse) a worker makes at once: each is minutes of requests or a browser. @defaultValue 1 */
    WORKER_LANE_SITE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
    /** A worker's Chromium (all its processes) above this many MiB is restarted once its runs end. @defaultValue 1024 */
    WORKER_BROWSER_MEMORY_MIB: z.coerce.number().int().min(128).max(65_536).default(1024),
    /** Websites a worker keeps in memory (about 2–3 KiB each); more than its region has means no re-reads. @defaultValue 200000 */
    WORKER_WEBSITE_CACHE_SIZE: z.coerce.number().int().min(100).max(10_000_000).default(200_000),
    /** Check results a worker keeps while MongoDB cannot take them (about 2 KiB each); past it the oldest are dropped. @defaultValue 10000 */
    WORKER_RESULT_BUFFER: z.coerce.number().int().min(100).max(1_000_000).default(10_000),
    /** A check job's lock; a worker that dies mid-check has its jobs taken over after this. @defaultValue 30 */
    CHECK_JOB_LOCK_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
    /** Delay of the quick re-check that confirms a failure. @defaultValue 15 */
    RECHECK_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
    /** A PEM file of extra CAs the SSL check trusts besides the system roots (private PKI). */
    PROBE_EXTRA_CA_FILE: z.string().optional(),
    /**
     * The DNS servers DNS checks ask, comma separated IP addresses with an optional port
     * (`1.1.1.1, [2606:4700::1111]:53, 127.0.0.1:5353`); empty: the system's resolvers.
     */
    DNS_RESOLVERS: z
      .string()
      .default('')
      .transform((text, ctx) => {
        try {
          return parseDnsResolvers(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: errorMessage(error) });
          return z.NEVER;
        }
      }),
    /**
     * Single private addresses the probe may reach while the SSRF guard is on, comma separated:
     * `10.0.0.5:8443` and `[fd00::1]:8443` on that port, `10.0.0.5` on every port but the stores'
     * (those of MONGODB_URL and REDIS_URL, 6379 and 27017).
     */
    PROBE_EXEMPT_ADDRESSES: z
      .string()
      .default('')
      .transform((text) =>
        text
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      )
      .superRefine((entries, ctx) => {
        for (const [index, entry] of entries.entries()) {
          const parsed = parseExemptAddress(entry, STORE_PORTS);
          if (typeof parsed === 'string')
            ctx.addIssue({ code: 'custom', message: `entry ${index + 1} ${parsed}` });
        }
      }),
    /** RDAP service asked first for domain expiry (`<base>/domain/<name>`). @defaultValue https://rdap.org */
    RDAP_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://rdap.org'),
    /** WHOIS server (host or host:port) for the fallback; unset: the registry's, found through IANA. */
    WHOIS_SERVER: z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be host or host:port')
      .optional(),
    /** Deliveries one notifier attempts at once. @defaultValue 50 */
    NOTIFIER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
    /** Seconds a delivery attempt may take. @defaultValue 15 */
    DELIVERY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(15),
    /** Multiplies the retry delays (5 s … 10 h); tests shrink them. @defaultValue 1 */
    DELIVERY_RETRY_SCALE: z.coerce.number().min(0).max(10).default(1),
    /** Multiplies escalation policies' waits between steps (minutes); tests shrink them. @defaultValue 1 */
    ESCALATION_TIME_SCALE: z.coerce.number().min(0).max(10).default(1),
    /** Days dispatched events and deliveries (with their attempt logs) are kept; at least 2 (a delivery retries for 38 h). @defaultValue 30 */
    DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(2).max(3650).default(30),
    /** Use X-Forwarded-For for the client address (behind a trusted load balancer). @defaultValue false */
    TRUST_PROXY: bool.default(false),
    /** A signed-in person's session ends after this long unused (each request starts it again). @defaultValue 43200 (12 h) */
    SESSION_IDLE_SECONDS: z.coerce.number().int().min(1).max(2_592_000).default(43_200),
    /** A session ends this long after its sign-in, however used. @defaultValue 2592000 (30 days) */
    SESSION_LIFETIME_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(2_592_000),
    /** Failed sign-ins one account (e-mail) may have in 15 minutes before sign-in answers 429. @defaultValue 5 */
    SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(5),
    /** Failed sign-ins of every account and address together per minute; past it only known browsers are checked. @defaultValue 120 */
    SIGN_IN_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
    /** Successful sign-ins one account may make in 15 minutes before sign-in answers 429. @defaultValue 10 */
    SIGN_IN_SUCCESSES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10),
    /** Successful sign-ins from one client address in 15 minutes (of any accounts) before it answers 429. @defaultValue 100 */
    SIGN_IN_SUCCESSES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
    /** Sessions one person may have at once; signing in past it ends their oldest. @defaultValue 10 */
    SESSION_MAX_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
    /** Password hashes (scrypt, ~32 MiB and ~0.1 s each) one API process computes at once. @defaultValue 2 */
    PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Password hashes that may wait for one of those; past it the request is answered 503 with Retry-After. @defaultValue 8 */
    PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(8),
    /** Exports (`GET /api/exports`) one organization may have under way at once in an API process; past it 429 with Retry-After. @defaultValue 2 */
    EXPORTS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(1000).default(2),
    /** Report builds (`GET /api/customers/{id}/reports`, a report mailed on request) one organization may have under way at once in an API process; past it 429. @defaultValue 2 */
    REPORTS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(1000).default(2),
    /** PDFs one organization may have at the report printer at once (printing or waiting; the printer prints 2 at once, one of them for one organization, in turn across organizations); past it 429. @defaultValue 3 */
    PDFS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(20).default(3),
    /** Import requests one organization may have being read at once in an API process (one import runs at a time anyway); past it 429. @defaultValue 1 */
    IMPORTS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(100).default(1),
    /** Mails (invitations, password resets, reports mailed on request, e-mail test sends) one organization may send an hour; past it 429. @defaultValue 200 */
    MAIL_PER_ORGANIZATION_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(200),
    /** Of those, mails one address may be sent by one organization an hour; past it 429. @defaultValue 10 */
    MAIL_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
    /** Inviting an address with a pending invitation sends it again (a new link), at most once in this many seconds; sooner: 429. @defaultValue 600 */
    INVITATION_RESEND_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    /**
     * The SMTP server invitations and password-reset links go out through, `smtp://user:pass@host:587`
     * (STARTTLS when offered) or `smtps://…:465`; unset: inviting and resetting answer 503 saying so.
     */
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: 'must be smtp://user:pass@host:587 or smtps://…' })
      .optional(),
    /** The sender of those mails. @defaultValue webmon <no-reply@localhost> */
    SMTP_FROM: z.string().min(3).max(320).default('webmon <no-reply@localhost>'),
    /** Origin of the links in those mails, as people's browsers reach the service. @defaultValue http://localhost:PORT */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://monitor.example.com' })
      .optional(),
    /**
     * The agency's host for status pages (`status.agency.example`): the CNAME target a custom
     * domain may point at to be verified; with it (or `PUBLIC_URL`) set, a request for a host that
     * is neither the agency's nor a verified page domain answers a plain 404. Unset: domains are
     * verified by TXT record only.
     */
    STATUS_PAGES_HOST: z
      .string()
      .trim()
      .toLowerCase()
      .transform((text) => text.replace(/\.$/, ''))
      .pipe(
        z
          .string()
          .regex(
            /^$|^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
            'must be a host name such as status.agency.example',
          ),
      )
      // Empty (Compose's `${STATUS_PAGES_HOST:-}`) is unset.
      .transform((host) => host || undefined)
      .optional(),
    /** The Chromium that prints reports as PDF (Debian's by default; started once by the API). @defaultValue /usr/bin/chromium */
    CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  })
  .superRefine((env, ctx) => {
    // A cluster serves database 0 only: a URL naming another would be silently ignored.
    if (env.REDIS_CLUSTER && !['', '/', '/0'].includes(new URL(env.REDIS_URL).pathname))
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_URL'],
        message: 'a Redis Cluster has only database 0: drop the database number from the URL',
      });
  })
  .transform((env) => {
    const storePorts = [...new Set([...STORE_PORTS, ...storePortsOf(env.MONGODB_URL, env.REDIS_URL)])];
    return {
      ...env,
      PROBE_EXEMPT_ADDRESSES: env.PROBE_EXEMPT_ADDRESSES.map(
        (entry) => parseExemptAddress(entry, storePorts) as ExemptAddress,
      ),
    };
  });

/** The ports the service's own stores listen on, from their URLs (a mongodb+srv URL names none). */
function storePortsOf(...urls: string[]): number[] {
  return urls.flatMap((url) => {
    const { protocol, port } = new URL(url);
    if (protocol === 'mongodb+srv:') return [];
    return [Number(port) || (protocol === 'mongodb:' ? 27017 : 6379)];
  });
}

export type AppConfig = z.infer<typeof envSchema>;
