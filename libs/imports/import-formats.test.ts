import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index.js';
import { parseSource } from './parse-source.js';
import { type SourceMonitor, toWebsite } from './source-monitor.js';
import { acceptedCodes } from './uptimerobot.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/imports/${name}`, import.meta.url), 'utf8');
const byName = (monitors: SourceMonitor[], name: string) =>
  monitors.find((m) => m.name === name) as SourceMonitor;
const problemOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
    throw error;
  }
  return 'no problem';
};

describe('Uptime Kuma backup', () => {
  const monitors = parseSource('uptime-kuma', fixture('uptime-kuma-backup.json'), null);

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

  it('the others with why: a group, ping, port, push', () => {
    const unsupported = monitors.filter((m) => m.kind.type === 'unsupported').map((m) => m.kind);
    expect(unsupported.map((k) => (k.type === 'unsupported' ? k.sourceType : ''))).toEqual([
      'group',
      'ping',
      'port',
      'push',
    ]);
  });

  it('refuses what is not a backup, at `content`', () => {
    expect(problemOf(() => parseSource('uptime-kuma', '{"monitors": []}', null))).toMatch(
      /^content: expected/,
    );
    expect(problemOf(() => parseSource('uptime-kuma', 'not json', null))).toMatch(/^content: /);
  });
});

describe('UptimeRobot', () => {
  it('getMonitors: types, methods, auth, body, headers, keyword types (1 alerts when it exists), extra up codes, paused', () => {
    const monitors = parseSource('uptimerobot-json', fixture('uptimerobot-getmonitors.json'), null);
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
    expect(monitors.filter((m) => m.kind.type === 'unsupported').map((m) => m.name)).toEqual([
      'Router ping',
      'Postgres port',
      'Mail server SMTP',
      'Nightly backup job',
    ]);
  });

  it('the CSV export: HTTP(s) and keyword rows, the customer from a column', () => {
    const content = fixture('uptimerobot-export.csv')
      .trim()
      .split('\n')
      .map((line, i) => `${line},${i === 0 ? 'Client' : 'Acme'}`)
      .join('\n');
    const monitors = parseSource('uptimerobot-csv', content, 'Client');
    expect(byName(monitors, 'Homepage keyword')).toMatchObject({
      kind: { type: 'http' },
      customer: 'Acme',
      keyword: { value: 'Welcome', mode: 'present' },
    });
    expect(byName(monitors, 'Postgres port').kind.type).toBe('unsupported');
    expect(problemOf(() => parseSource('uptimerobot-csv', 'a,b\n1,2\n', null))).toMatch(
      /no column named Friendly Name/,
    );
  });
});

describe('our CSV', () => {
  it('reads its columns in any case, and names a bad row', () => {
    const monitors = parseSource(
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
    expect(problemOf(() => parseSource('csv', 'name,url,interval\nA,https://a.example/,soon\n', null))).toBe(
      'content: row 2: intervalSeconds "soon" is not a number of seconds',
    );
    expect(problemOf(() => parseSource('csv', 'name,url\n"unclosed,https://a.example/\n', null))).toMatch(
      /^content: /,
    );
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

  it('credentials in a URL become its basic authentication, and leave the URL (and the report)', () => {
    const [monitor] = parseSource('csv', 'name,url\nA,https://admin:s%40cret@shop.example.com/x\n', null);
    expect(monitor).toMatchObject({
      url: 'https://shop.example.com/x',
      basicAuth: { username: 'admin', password: 's@cret' },
    });
    const [broken] = parseSource('csv', 'name,url\nB,https://admin:secret@/x\n', null);
    expect(broken?.url).not.toContain('secret');
  });

  it('a Kuma monitor upside down is not imported; certificate problems ignored turn our SSL check off', () => {
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
    const [inverted, selfSigned] = parseSource('uptime-kuma', backup, null);
    expect(inverted?.kind).toMatchObject({ type: 'unsupported', sourceType: 'http (upside down)' });
    const mapped = toWebsite(selfSigned as SourceMonitor, { minIntervalSeconds: 60 });
    expect(mapped.ok && mapped.item.checkConfig).toEqual({ checkSslEnabled: false });
    expect(mapped.ok && mapped.adjusted).toEqual(['its ntlm authentication was not imported']);
  });
});
