import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index.js';
import { placeCheck } from './check-placement.js';
import { parseSource } from './parse-source.js';
import { storedTargetKey, targetKey, toCheck } from './source-check.js';
import { type SourceMonitor, toWebsite } from './source-monitor.js';
import { acceptedCodes } from './uptimerobot.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/imports/${name}`, import.meta.url), 'utf8');
const byName = (monitors: SourceMonitor[], name: string) =>
  monitors.find((m) => m.name === name) as SourceMonitor;
const problemOf = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (error) {
    if (error instanceof DomainError) return error.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
    throw error;
  }
  return 'no problem';
};

const kumaBackup = await parseSource('uptime-kuma', fixture('uptime-kuma-backup.json'), null);

describe('Uptime Kuma backup', () => {
  const monitors = kumaBackup;

  it('HTTP and keyword monitors with their method, headers, body, basic auth, keyword, codes and redirects', () => {
    expect(byName(monitors, 'Orders API (POST, basic auth)')).toMatchObject({
      kind: { type: 'http' },
      url: 'https://api.example.com/v1/orders/health',
      method: 'POST',
      headers: { 'X-Api-Key': 'abc123', Accept: 'application/json' },
      body: '{\n    "ping": true\n}',
      basicAuth: { username: 'monitor', password: 's3cr3t!' },
      intervalSeconds: 30,
      acceptedStatusCodes: ['200-299', '401'],
      maxRedirects: 5,
    });
    expect(byName(monitors, 'Homepage keyword').keyword).toEqual({
      value: 'Welcome',
      mode: 'present',
      caseSensitive: true,
    });
    expect(byName(monitors, 'Error page must not show').keyword?.mode).toBe('absent');
  });

  it('ping, port and push as checks; a group not, with why', () => {
    const kinds = monitors.map((m) => `${m.kind.type}:${m.kind.type === 'check' ? m.kind.check.kind : ''}`);
    expect(kinds).toEqual([
      'unsupported:',
      'http:',
      'http:',
      'check:icmp',
      'check:port',
      'check:heartbeat',
      'http:',
    ]);
  });

  it('refuses what is not a backup, at `content`', async () => {
    expect(await problemOf(() => parseSource('uptime-kuma', '{"monitors": []}', null))).toMatch(
      /^content: expected/,
    );
    expect(await problemOf(() => parseSource('uptime-kuma', 'not json', null))).toMatch(/^content: /);
  });
});

describe('UptimeRobot', () => {
  it('getMonitors: types, methods, auth, body, headers, keyword types (1 alerts when it exists), extra up codes, paused', async () => {
    const monitors = await parseSource('uptimerobot-json', fixture('uptimerobot-getmonitors.json'), null);
    expect(byName(monitors, 'Orders API')).toMatchObject({
      method: 'POST',
      body: '{"ping": true}',
      basicAuth: { username: 'monitor', password: 's3cr3t!' },
      headers: { 'X-Api-Key': 'abc123', Accept: 'application/json', 'Content-Type': 'application/json' },
      acceptedStatusCodes: ['200-399', '401'],
      intervalSeconds: 300,
      timeoutSeconds: 30,
    });
    expect(byName(monitors, 'Homepage keyword').keyword).toEqual({
      value: 'Welcome',
      mode: 'present',
      caseSensitive: true,
    });
    expect(byName(monitors, 'Error page must not show')).toMatchObject({
      method: 'HEAD',
      keyword: { mode: 'absent', caseSensitive: false },
      paused: true,
    });
    expect(monitors.filter((m) => m.kind.type === 'check').map((m) => m.name)).toEqual([
      'Router ping',
      'Postgres port',
      'Mail server SMTP',
      'Nightly backup job',
    ]);
  });

  it('the CSV export: HTTP(s) and keyword rows, the customer from a column', async () => {
    const content = fixture('uptimerobot-export.csv')
      .trim()
      .split('\n')
      .map((line, i) => `${line},${i === 0 ? 'Client' : 'Acme'}`)
      .join('\n');
    const monitors = await parseSource('uptimerobot-csv', content, 'Client');
    expect(byName(monitors, 'Homepage keyword')).toMatchObject({
      kind: { type: 'http' },
      customer: 'Acme',
      keyword: { value: 'Welcome', mode: 'present' },
    });
    expect(byName(monitors, 'Postgres port').kind).toMatchObject({
      type: 'check',
      check: { kind: 'port', host: 'db.example.com', port: 5432 },
    });
    expect(byName(monitors, 'Router ping').kind).toMatchObject({
      check: { kind: 'icmp', host: '192.0.2.1' },
    });
    expect(await problemOf(() => parseSource('uptimerobot-csv', 'a,b\n1,2\n', null))).toMatch(
      /no column named Friendly Name/,
    );
  });
});

describe('our CSV', () => {
  it('reads its columns in any case, and names a bad row', async () => {
    const monitors = await parseSource(
      'csv',
      '\ufeffName,URL,Interval Seconds,Keyword,Keyword Mode,Expected Status Codes,Paused,Customer\n' +
        '"Shop, main",https://shop.example.com/,60,Welcome,,200-299;301,true,Acme\n',
      'customer',
    );
    expect(monitors).toEqual([
      {
        source: 'row 2',
        name: 'Shop, main',
        kind: { type: 'http' },
        url: 'https://shop.example.com/',
        method: 'GET',
        intervalSeconds: 60,
        keyword: { value: 'Welcome', mode: 'present', caseSensitive: false },
        acceptedStatusCodes: ['200-299', '301'],
        paused: true,
        customer: 'Acme',
      },
    ]);
    expect(
      await problemOf(() => parseSource('csv', 'name,url,interval\nA,https://a.example/,soon\n', null)),
    ).toBe('content: row 2: intervalSeconds "soon" is not a number of seconds');
    expect(
      await problemOf(() => parseSource('csv', 'name,url\n"unclosed,https://a.example/\n', null)),
    ).toMatch(/^content: /);
  });
});

describe('toWebsite', () => {
  const http: SourceMonitor = {
    source: 'row 2',
    name: 'Orders',
    kind: { type: 'http' },
    url: 'https://api.example.com/',
    method: 'POST',
    headers: { 'X-Api-Key': 'k-123', Accept: 'application/json' },
    body: '{}',
    basicAuth: { username: 'u', password: 'p' },
    intervalSeconds: 20,
    timeoutSeconds: 48,
    acceptedStatusCodes: ['200-299', '401'],
  };

  it('credentials as secret headers, intervals and timeouts within bounds (each change said)', () => {
    const mapped = toWebsite(http, { minIntervalSeconds: 60 });
    expect(mapped).toEqual({
      ok: true,
      item: {
        name: 'Orders',
        url: 'https://api.example.com/',
        httpMethod: 'POST',
        checkInterval: 60,
        timeoutSeconds: 48,
        customHeaders: { Accept: 'application/json' },
        secretHeaders: {
          'X-Api-Key': 'k-123',
          Authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
        },
        requestBody: '{}',
        checkConfig: { expectedStatusCodes: ['200-299', '401'] },
      },
      adjusted: ["interval 20 s raised to 60 s (the package's minimum)"],
    });
    const short = toWebsite(
      { ...http, intervalSeconds: 30, timeoutSeconds: 48, method: 'GET' },
      { minIntervalSeconds: 10 },
    );
    expect(short.ok && short.adjusted).toEqual([
      'timeout 48 s lowered to 29 s (below the interval)',
      'the request body was dropped (a GET carries none)',
    ]);
    expect(
      toWebsite(
        { ...http, kind: { type: 'unsupported', sourceType: 'ping', reason: 'not HTTP' } },
        { minIntervalSeconds: 60 },
      ),
    ).toEqual({ ok: false, reason: 'not HTTP' });
  });
});

describe('what is taken care of on the way', () => {
  it('UptimeRobot codes marked down (0) leave the default ranges; those marked up (1) join them', () => {
    expect(acceptedCodes('302:0_401:1')).toEqual(['200-301', '303-399', '401']);
    expect(acceptedCodes('')).toBeUndefined();
  });

  it('credentials in a URL become its basic authentication, and leave the URL (and the report)', async () => {
    const [monitor] = await parseSource(
      'csv',
      'name,url\nA,https://admin:s%40cret@shop.example.com/x\n',
      null,
    );
    expect(monitor).toMatchObject({
      url: 'https://shop.example.com/x',
      basicAuth: { username: 'admin', password: 's@cret' },
    });
    const [broken] = await parseSource('csv', 'name,url\nB,https://admin:secret@/x\n', null);
    expect(broken?.url).not.toContain('secret');
  });

  it('a Kuma monitor upside down is not imported; certificate problems ignored turn our SSL check off', async () => {
    const backup = JSON.stringify({
      version: '1.23.16',
      monitorList: [
        { id: 1, name: 'Inverted', type: 'http', url: 'https://a.example/', upsideDown: true },
        {
          id: 2,
          name: 'Self-signed',
          type: 'http',
          url: 'https://b.example/',
          ignoreTls: 1,
          authMethod: 'ntlm',
        },
      ],
    });
    const [inverted, selfSigned] = await parseSource('uptime-kuma', backup, null);
    expect(inverted?.kind).toMatchObject({ type: 'unsupported', sourceType: 'http (upside down)' });
    const mapped = toWebsite(selfSigned as SourceMonitor, { minIntervalSeconds: 60 });
    expect(mapped.ok && mapped.item.checkConfig).toEqual({ checkSslEnabled: false });
    expect(mapped.ok && mapped.adjusted).toEqual(['its ntlm authentication was not imported']);
  });
});

describe('monitors of other kinds become checks', () => {
  const bounds = { minIntervalSeconds: 60 };
  /** Each monitor as the check its route would be sent (or why not), by name. */
  const checksOf = async (format: 'uptime-kuma' | 'uptimerobot-json', file: string) =>
    Object.fromEntries(
      (await parseSource(format, fixture(file), null)).map((monitor) => {
        if (monitor.kind.type !== 'check') return [monitor.name, monitor.kind.type];
        const mapped = toCheck(monitor, bounds);
        return [monitor.name, mapped.ok ? { ...mapped.check, adjusted: mapped.adjusted } : mapped.errors];
      }),
    );

  it('Uptime Kuma: ping, port, DNS, push, gRPC, WebSocket and SMTP monitors, each with what is not carried', async () => {
    const checks = await checksOf('uptime-kuma', 'uptime-kuma-checks.json');
    expect(checks.Shop).toBe('http');
    expect(checks['Shop ping']).toMatchObject({
      kind: 'icmp',
      body: { host: 'shop.example.org', count: 3, intervalSeconds: 60, timeoutSeconds: 48 },
    });
    expect(checks['Shop HTTPS port']).toMatchObject({
      kind: 'port',
      body: { host: 'shop.example.org', port: 443, tls: false },
    });
    expect(checks['Shop DNS']).toMatchObject({
      kind: 'dns',
      body: { host: 'shop.example.org', recordType: 'A', expected: 'unchanged' },
      adjusted: [
        "its resolver 1.1.1.1 is not carried: the regions ask the operator's resolvers",
        'Kuma was up whenever the name resolved: here the first answer is learned and a different one is told (dns.changed)',
      ],
    });
    // Down after its interval and two retries ten minutes apart.
    expect(checks['Nightly backup']).toMatchObject({
      kind: 'heartbeat',
      body: { name: 'Nightly backup', schedule: { periodSeconds: 86_400 }, graceSeconds: 1200 },
      adjusted: ["its push URL is not carried: point the job at the heartbeat's ping URL"],
    });
    expect(checks['Orders gRPC']).toMatchObject({
      kind: 'grpc',
      body: {
        host: 'grpc.example.org',
        port: 50051,
        tls: true,
        service: 'orders.v1.Orders',
        timeoutSeconds: 8,
      },
      adjusted: ['its keyword "SERVING" on the answer is not carried (SERVING is what counts)'],
    });
    expect(checks['Live feed']).toMatchObject({
      kind: 'websocket',
      body: {
        url: 'wss://shop.example.org/live',
        headers: { 'X-Client': 'kuma', Authorization: 'Bearer tok-live-123' },
        subprotocol: 'feed.v2',
      },
      adjusted: ['only its first subprotocol (feed.v2) is asked for'],
    });
    expect(checks['Office router']).toMatchObject({
      kind: 'icmp',
      body: { host: '203.0.113.7', count: 4, intervalSeconds: 60, timeoutSeconds: 3 },
      adjusted: [
        "interval 30 s raised to 60 s (the package's minimum)",
        'timeout 2 s raised to 3 s (its echo requests take that long)',
      ],
    });
    expect(checks['Zone SOA']).toBe('unsupported');
    expect(checks['Outgoing mail']).toMatchObject({
      kind: 'smtp',
      body: { host: 'mail.example.org', port: 587, security: 'starttls' },
    });
  });

  it('UptimeRobot: ping (3), port (4) by its sub type (mail ports as mail checks) and heartbeat (5); keyword (2) stays HTTP', async () => {
    const checks = await checksOf('uptimerobot-json', 'uptimerobot-checks.json');
    expect(checks['Shop ping']).toMatchObject({ kind: 'icmp', body: { host: 'shop.example.org' } });
    expect(checks['Shop HTTPS port']).toMatchObject({ kind: 'port', body: { port: 443, tls: false } });
    expect(checks['Shop mail']).toMatchObject({ kind: 'smtp', body: { port: 25, security: 'none' } });
    expect(checks['Shop IMAP']).toMatchObject({ kind: 'imap', body: { port: 143, security: 'none' } });
    expect(checks.Postgres).toMatchObject({ kind: 'port', body: { host: 'db.example.org', port: 5432 } });
    expect(checks['Nightly backup']).toMatchObject({
      kind: 'heartbeat',
      body: { schedule: { periodSeconds: 86_400 }, graceSeconds: 300 },
    });
    expect(checks['Shop keyword']).toBe('http');
    // Its heartbeat URL holds its token: not in the report.
    const [heartbeat] = (
      await parseSource('uptimerobot-json', fixture('uptimerobot-checks.json'), null)
    ).filter((m) => m.name === 'Nightly backup');
    expect(heartbeat?.url).toBe('');
  });

  it('a value its route refuses is named as the route names it', () => {
    const monitor: SourceMonitor = {
      source: 'monitor 1',
      name: 'Bad',
      url: '',
      kind: {
        type: 'check',
        sourceType: 'port',
        check: { kind: 'port', host: 'a b', port: 70_000, tls: false },
      },
    };
    const mapped = toCheck(monitor, bounds);
    expect(mapped.ok ? [] : mapped.errors.map((e) => e.path)).toEqual(['host', 'port']);
  });

  const site = (id: number | null, name: string, url: string) => ({ id, publicId: null, name, url });
  const shop = site(1, 'Shop', 'https://Shop.example.org/');
  const backup = site(2, 'Nightly backup', 'https://backup.example.org/');
  const made = site(null, 'Blog', 'https://[2001:db8::1]:8443/');
  const attach = site(9, 'Office', 'https://office.example.org/');
  it.each([
    ['the website of its host', 'shop.example.org', 'x', null, { site: shop, via: 'host' }],
    ['one this import makes (an IPv6 host)', '2001:db8::1', 'x', null, { site: made, via: 'host' }],
    [
      'attachTo when no website has its host',
      'db.example.org',
      'x',
      attach,
      { site: attach, via: 'attachTo' },
    ],
    ['a heartbeat: attachTo first', null, 'Nightly backup', attach, { site: attach, via: 'attachTo' }],
    [
      'a heartbeat: else the website of its name',
      null,
      'nightly BACKUP',
      null,
      { site: backup, via: 'name' },
    ],
  ])('goes to %s', (_, host, name, attachTo, expected) => {
    expect(placeCheck({ host, name }, [shop, backup, made], attachTo)).toEqual(expected);
  });
  it('else nowhere, saying what to do', () => {
    expect(placeCheck({ host: 'db.example.org', name: 'DB' }, [shop], null)).toEqual({
      site: null,
      reason:
        'no website of host db.example.org in the customer: import its website too, or choose one to attach monitors to (attachTo)',
    });
    expect(placeCheck({ host: null, name: 'Cron' }, [shop], null).site).toBeNull();
  });

  it('a check a website has already is known by its kind and target, whatever else changed since', () => {
    const stored = {
      kind: 'icmp',
      name: 'Renamed',
      settings: { host: 'shop.example.org', count: 5, maxLossPercent: 20, maxRttMs: null },
    } as unknown as Parameters<typeof storedTargetKey>[0];
    expect(storedTargetKey(stored)).toBe(
      targetKey('icmp', 'Shop ping', { host: 'SHOP.example.org.', count: 3 }),
    );
    expect(storedTargetKey(stored)).not.toBe(targetKey('icmp', 'Shop ping', { host: 'db.example.org' }));
    expect(targetKey('heartbeat', 'Nightly backup', {})).toBe(targetKey('heartbeat', ' nightly backup', {}));
  });
});
