import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../test/support/dns-server.js';
import { issue } from '../../../test/support/pki-forge.js';
import {
  type Running,
  startGrpcHealthServer,
  startMailServer,
  startUdpServer,
  startWebSocketServer,
} from '../../../test/support/service-servers.js';
import { startHttpTarget } from '../../../test/support/targets.js';
import { MONITOR_KIND_NOUNS } from '../../events/index.js';
import { JourneyBrowser } from '../../journeys/index.js';
import { lighthouseSettled } from '../../lighthouse/index.js';
import { createLogger } from '../../logging/index.js';
import { type ProbeOptions, TlsContexts } from '../../probe/index.js';
import { LANES } from '../../scheduler/index.js';
import { MONITOR_CREATE_BODIES } from '../monitor-create.schema.js';
import { type Checked, checkBrowser, checkDns, checkHttp, checkLighthouse } from './conformance.fixtures.js';
import { MONITOR_KINDS, type MonitorKindName } from './index.js';

/**
 * What every kind must do, whatever it speaks: a kind added to `MONITOR_KINDS` without a fixture
 * here fails the first test. Each fixture of a kind checked on an interval names settings that
 * reach a real local server (up), settings that reach a server that never answers (timeout), and
 * a host that resolves to a blocked address (the SSRF guard at check time); a pushed kind's
 * verdicts are pure and tested as such.
 */

const ca = issue({ commonName: 'Conformance CA', isCa: true });
const leaf = issue({ commonName: 'svc.test', names: ['svc.test'], issuer: ca, validToDays: 60 });
const SECRET = 'Bearer conformance-secret-value';
const journeys = new JourneyBrowser({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  concurrency: 2,
  logger: createLogger('test', 'silent'),
});

/** Test names go to the local servers; `blocked.test` to an address the guard refuses. */
const probe = (
  allowPrivateTargets: boolean,
  pingCommand?: string,
): ProbeOptions & { pingCommand?: string } => ({
  allowPrivateTargets,
  resolve: async (hostname) =>
    hostname === 'blocked.test' ? ['10.1.2.3'] : hostname.endsWith('.test') ? ['127.0.0.1'] : [],
  tls: new TlsContexts([ca.cert]),
  userAgent: 'webmon-test',
  ...(pingCommand ? { pingCommand } : {}),
});

type Settings = Record<string, unknown>;

interface Fixture {
  /** Settings its schema takes (the website's for HTTP); defaults: `up`. */
  settings?: Settings;
  up: Settings;
  silent: Settings;
  blocked: Settings;
  /** One check through the kind's probe and verdict (default: its `check`). */
  check?(settings: Settings, options: ProbeOptions, timeoutMs: number): Promise<Checked>;
  /** How large its evidence may grow as JSON (HTTP keeps 16 KiB of a body). */
  evidenceBytes?: number;
  /** The check's deadline where a test names none (a browser journey starts a context: seconds). */
  timeoutMs?: number;
}

type IntervalKindName = Exclude<MonitorKindName, 'heartbeat'>;

const servers: Array<{ close(): Promise<void> }> = [];
const mute: Server[] = [];
const fixtures = {} as Record<IntervalKindName, Fixture>;
let pingInNamespace = '';

async function run(server: Promise<Running>): Promise<number> {
  const running = await server;
  servers.push(running);
  return running.port;
}

/** A local TCP server that meets each connection with `meet`: its port. */
async function tcpServer(meet: (socket: Socket) => void): Promise<number> {
  const server = createServer(meet);
  mute.push(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webmon-conformance-'));
  pingInNamespace = join(dir, 'ping-in-netns');
  writeFileSync(
    pingInNamespace,
    `#!/bin/sh\nexec unshare ${process.getuid?.() === 0 ? '-n' : '-rn'} sh -c 'ip link set lo up && sysctl -qw net.ipv4.icmp_echo_ignore_all=1 && exec ping "$@"' ping "$@"\n`,
  );
  chmodSync(pingInNamespace, 0o755);
  // Accepts and never says a word (a greeting, an upgrade, an HTTP/2 preface).
  const quiet = await tcpServer((socket) => socket.on('error', () => undefined));
  const quietUdp = await run(startUdpServer(() => null));
  fixtures.icmp = {
    up: { host: 'svc.test', count: 1 },
    silent: { host: 'svc.test', count: 1 },
    blocked: { host: 'blocked.test', count: 1 },
  };
  fixtures.udp = {
    up: {
      host: 'svc.test',
      port: await run(
        startUdpServer((d) => Buffer.concat([Buffer.alloc(100_000 - d.length, 0x61), d]).subarray(0, 60_000)),
      ),
      payload: 'hi',
    },
    silent: { host: 'svc.test', port: quietUdp, payload: 'hi' },
    blocked: { host: 'blocked.test', port: quietUdp },
  };
  fixtures.grpc = {
    up: {
      host: 'svc.test',
      port: await run(startGrpcHealthServer({ '': 'SERVING' }, leaf)),
      tls: true,
      metadata: { authorization: SECRET },
    },
    silent: { host: 'svc.test', port: quiet },
    blocked: { host: 'blocked.test', port: quiet },
  };
  const ws = await run(
    startWebSocketServer({ certificate: leaf, reply: (m) => `${'x'.repeat(50_000)}${m}` }),
  );
  fixtures.websocket = {
    up: { url: `wss://svc.test:${ws}/`, headers: { Authorization: SECRET }, send: 'hello' },
    silent: { url: `ws://svc.test:${quiet}/` },
    blocked: { url: `ws://blocked.test:${quiet}/` },
  };
  for (const protocol of ['smtp', 'imap', 'pop3'] as const)
    fixtures[protocol] = {
      up: { host: 'svc.test', port: await run(startMailServer(protocol, leaf)), security: 'starttls' },
      silent: { host: 'svc.test', port: quiet, security: 'none' },
      blocked: { host: 'blocked.test', port: quiet, security: 'none' },
    };
  const greeting = await tcpServer((socket) => socket.end(`220 svc.test ready ${'x'.repeat(5000)}\r\n`));
  fixtures.port = {
    up: { host: 'svc.test', port: greeting, expectBanner: '220' },
    silent: { host: 'svc.test', port: quiet, expectBanner: '220' },
    blocked: { host: 'blocked.test', port: quiet },
  };
  // An answer far larger than evidence keeps (over TCP after a truncated UDP one).
  const txt = Array.from({ length: 200 }, (_, i) => [`v=${i} ${'t'.repeat(100)}`]);
  const dns = await startDnsServer({ 'svc.test': { TXT: txt }, 'blocked.test': { A: ['10.1.2.3'] } });
  const silentDns = await startDnsServer({}, { silent: true });
  servers.push(dns, silentDns);
  fixtures.dns = {
    up: { recordType: 'TXT', host: 'svc.test', expected: 'unchanged' },
    silent: { recordType: 'A', host: 'silent.test', expected: 'unchanged' },
    blocked: { recordType: 'A', host: 'blocked.test', expected: ['10.1.2.3'] },
    check: (settings, _options, timeoutMs) =>
      checkDns(settings, [settings.host === 'silent.test' ? silentDns.address : dns.address], timeoutMs),
  };
  const http = await startHttpTarget();
  servers.push(http);
  fixtures.http = {
    settings: { customerId: 1, name: 'Shop', url: `http://svc.test:${http.port}/echo` },
    up: { url: `http://svc.test:${http.port}/echo`, secretHeaders: { Authorization: SECRET } },
    silent: { url: `http://svc.test:${quiet}/` },
    blocked: { url: `http://blocked.test:${quiet}/` },
    check: checkHttp,
    evidenceBytes: 24 * 1024,
  };
  // Two steps: a value the first answer holds goes into the second, the secret in a header of both.
  fixtures['api-flow'] = {
    up: {
      secrets: { TOKEN: SECRET },
      steps: [
        {
          name: 'Post',
          request: {
            method: 'POST',
            url: `http://svc.test:${http.port}/echo`,
            headers: { Authorization: '{{secret.TOKEN}}' },
            body: 'x'.repeat(20_000),
          },
          extract: [{ name: 'method', from: 'jsonBody', path: '$.method' }],
        },
        {
          name: 'Echo',
          request: {
            url: `http://svc.test:${http.port}/echo?was={{method}}`,
            headers: { Authorization: '{{secret.TOKEN}}' },
          },
          assertions: [{ source: 'jsonBody', path: '$.method', operator: 'equals', value: 'GET' }],
        },
      ],
    },
    silent: { steps: [{ name: 'Quiet', request: { url: `http://svc.test:${quiet}/` } }] },
    blocked: { steps: [{ name: 'Blocked', request: { url: `http://blocked.test:${quiet}/` } }] },
  };
  // A page that shows the request it got; the secret goes in a header of every request the page makes.
  fixtures.browser = {
    up: {
      secrets: { TOKEN: SECRET },
      extraHeaders: { 'X-Token': '{{secret.TOKEN}}' },
      steps: [
        { action: 'goto', url: `http://svc.test:${http.port}/echo` },
        {
          action: 'expect',
          that: 'text',
          locator: { by: 'css', selector: 'body' },
          text: { contains: 'GET' },
        },
      ],
    },
    silent: { steps: [{ action: 'goto', url: `http://svc.test:${quiet}/` }] },
    blocked: { steps: [{ action: 'goto', url: `http://blocked.test:${quiet}/` }] },
    check: (settings, options, timeoutMs) => checkBrowser(journeys, settings, options, timeoutMs),
    timeoutMs: 20_000,
  };
  // The site's page and what it links to, its robots.txt and sitemap absent (404: all allowed, none found).
  fixtures.crawl = {
    up: { startUrl: `http://svc.test:${http.port}/page`, schedule: 'daily' },
    silent: { startUrl: `http://svc.test:${quiet}/` },
    blocked: { startUrl: `http://blocked.test:${quiet}/` },
  };
  fixtures.lighthouse = {
    up: { urls: [`http://svc.test:${http.port}/page`], presets: ['desktop'] },
    silent: { urls: [`http://svc.test:${quiet}/`], presets: ['desktop'] },
    blocked: { urls: [`http://blocked.test:${quiet}/`] },
    check: checkLighthouse,
    timeoutMs: 60_000,
  };
  // Launched before the tests: a timeout test measures the run, not Chromium's start.
  await checkBrowser(journeys, fixtures.browser.up, probe(true), 10_000);
}, 60_000);
afterAll(async () => {
  await journeys.close();
  // A Lighthouse run ended at its deadline leaves Lighthouse at work a while: the next file must not share it.
  await lighthouseSettled();
  await Promise.all(servers.map((server) => server.close()));
  for (const server of mute) server.close();
});

const context = (options: ProbeOptions, timeoutMs = 3000) => ({
  probe: options,
  timeoutMs,
  alerting: { sslExpiryWarningDays: 14 },
});

/** One check of an interval kind: its fixture's way, else the kind's own check. */
function check(
  name: IntervalKindName,
  settings: Settings,
  options: ProbeOptions,
  timeoutMs = fixtures[name].timeoutMs ?? 3000,
) {
  const own = fixtures[name].check;
  if (own) return own(settings, options, timeoutMs);
  const kind = MONITOR_KINDS[name as Exclude<IntervalKindName, 'http' | 'dns'>];
  return kind.check(kind.settings.parse(settings), context(options, timeoutMs));
}

/** Kinds that reach no target the SSRF guard could judge when they check, and why. */
const NO_CHECK_TIME_TARGET: Partial<Record<IntervalKindName, string>> = {
  dns: 'asks the configured resolvers, never an address of the name',
};

/** The settings of each pushed kind (nothing to reach: its verdicts are pure, tested as such below). */
const PUSHED: Partial<Record<MonitorKindName, Settings>> = {
  heartbeat: { schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' } },
};

/** The settings a kind's schema is given: a pushed kind's, else its fixture's. */
const settingsOf = (name: MonitorKindName) => {
  const fixture = fixtures[name as IntervalKindName];
  return PUSHED[name] ?? fixture.settings ?? fixture.up;
};

/** A kind's create body as the API takes it (the website's own for HTTP). */
const createBodyOf = (name: MonitorKindName) =>
  name === 'http' ? MONITOR_KINDS.http.settings : MONITOR_CREATE_BODIES[name];
const createInput = (name: MonitorKindName, settings: Settings) =>
  name === 'http' ? settings : { kind: name, name: `Conformance ${name}`, ...settings };

describe('every kind conforms: one registry, the same promises', () => {
  it('has a fixture, a description, a lane, and a probe unless it is pushed, per kind', () => {
    for (const kind of Object.values(MONITOR_KINDS)) {
      const fixture = kind.trigger === 'push' ? PUSHED[kind.kind] : fixtures[kind.kind];
      expect(fixture, `${kind.kind} has no conformance fixture`).toBeDefined();
      expect(kind.probe === null).toBe(kind.trigger === 'push');
      expect(kind.description.length).toBeGreaterThan(40);
      expect(LANES).toContain(kind.lane);
      if (kind.kind !== 'http') expect(kind.noun).toBe(MONITOR_KIND_NOUNS[kind.kind]);
    }
  });

  for (const name of Object.keys(MONITOR_KINDS) as MonitorKindName[])
    it(`${name}: settings round-trip (its schema reads them back the same), its create body refuses unknown fields`, () => {
      const given = settingsOf(name);
      const schema = MONITOR_KINDS[name].settings;
      const stored = schema.parse(given);
      expect(schema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
      expect(createBodyOf(name).safeParse(createInput(name, given)).error).toBeUndefined();
      expect(createBodyOf(name).safeParse({ ...createInput(name, given), nope: 1 }).success).toBe(false);
    });

  for (const name of Object.keys(MONITOR_KINDS) as MonitorKindName[]) {
    if (name === 'heartbeat') continue;
    describe(name, () => {
      it('up against its real local server, with timings and the address it reached', async () => {
        const outcome = await check(name, fixtures[name].up, probe(true));
        expect(outcome.verdict, JSON.stringify(outcome.evidence)).toMatchObject({ status: 'up' });
        expect(outcome.address).toBe(NO_CHECK_TIME_TARGET[name] ? null : '127.0.0.1');
        expect(outcome.timings.totalMs).toBeGreaterThan(0);
      });

      it('evidence is bounded and never holds a secret it was given', async () => {
        const outcome = await check(name, fixtures[name].up, probe(true));
        const json = JSON.stringify(outcome.evidence);
        expect(json.length).toBeLessThan(fixtures[name].evidenceBytes ?? 8 * 1024);
        expect(json).not.toContain('conformance-secret-value');
      });

      it('a server that never answers is down with TIMEOUT (or all replies lost), within its timeout', async () => {
        const options = name === 'icmp' ? probe(true, pingInNamespace) : probe(true);
        const started = Date.now();
        const outcome = await check(name, fixtures[name].silent, options, 1500);
        expect(Date.now() - started).toBeLessThan(1500 + 1000);
        expect(outcome.verdict.status).toBe('down');
        expect(outcome.verdict.code).toMatch(name === 'icmp' ? /^(ICMP_NO_REPLY|TIMEOUT)$/ : /^TIMEOUT$/);
      });

      const unguarded = NO_CHECK_TIME_TARGET[name];
      if (unguarded)
        it(`has no target for the SSRF guard when it checks (it ${unguarded}): a blocked address is an answer`, async () => {
          const outcome = await check(name, fixtures[name].blocked, probe(false));
          expect(outcome).toMatchObject({ verdict: { status: 'up' }, address: null });
        });
      else
        it('a name that resolves to a blocked address is refused at check time (the SSRF guard), nothing sent', async () => {
          const outcome = await check(name, fixtures[name].blocked, probe(false));
          // The evidence says why, should another code come (a run that could not start says so there).
          expect(outcome.verdict, JSON.stringify(outcome.evidence)).toMatchObject({
            status: 'down',
            code: 'BLOCKED_TARGET',
          });
          expect(outcome.address).toBeNull();
        });
    });
  }

  describe('heartbeat (pushed: no probe, its verdicts pure)', () => {
    const heartbeat = MONITOR_KINDS.heartbeat;

    it('a successful ping is up, a failed one down; a missed deadline is down', () => {
      expect(heartbeat.verdict({ kind: 'success', exitCode: null, body: '' }).status).toBe('up');
      expect(heartbeat.verdict({ kind: 'failure', exitCode: 1, body: 'disk full' })).toMatchObject({
        status: 'down',
        code: 'HEARTBEAT_FAILED',
      });
      const created = new Date('2026-11-28T00:00:00Z');
      const timing = {
        ...heartbeat.settings.parse(PUSHED.heartbeat),
        createdAt: created,
        lastSuccessAt: null,
        lastStartAt: null,
      };
      expect(heartbeat.deadline(timing, created).verdict).toBeNull();
      expect(heartbeat.deadline(timing, new Date('2026-11-29T02:00:00Z')).verdict).toMatchObject({
        status: 'down',
        code: 'HEARTBEAT_MISSED',
      });
    });
  });
});
