import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer } from '../../test/support/dns-server.js';
import { type DnsQuery, normalizeDnsValue, parseDnsResolvers, resolveDns } from './dns-probe.js';

describe('normalizeDnsValue', () => {
  it('gives each type its canonical form', () => {
    expect(normalizeDnsValue('A', ' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(normalizeDnsValue('AAAA', '2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalizeDnsValue('AAAA', '2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normalizeDnsValue('AAAA', '2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(normalizeDnsValue('AAAA', '2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(normalizeDnsValue('CNAME', 'WWW.Example.COM.')).toBe('www.example.com');
    expect(normalizeDnsValue('CNAME', 'sel._domainkey.example.com')).toBe('sel._domainkey.example.com');
    expect(normalizeDnsValue('NS', 'bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeDnsValue('MX', '10 MX1.Example.com.')).toBe('10 mx1.example.com');
    expect(normalizeDnsValue('MX', '  010   mx1.example.com ')).toBe('10 mx1.example.com');
    expect(normalizeDnsValue('MX', '0 .')).toBe('0 .');
    expect(normalizeDnsValue('TXT', 'v=spf1 Include:x -all')).toBe('v=spf1 Include:x -all');
    expect(normalizeDnsValue('CAA', '0 issue "letsencrypt.org"')).toBe('0 issue "letsencrypt.org"');
    expect(normalizeDnsValue('CAA', '0  ISSUE letsencrypt.org')).toBe('0 issue "letsencrypt.org"');
    expect(normalizeDnsValue('CAA', '128 iodef "mailto:Ops@example.com"')).toBe(
      '128 iodef "mailto:Ops@example.com"',
    );
    expect(normalizeDnsValue('CAA', '0 issue "a \\"b\\""')).toBe('0 issue "a \\"b\\""');
  });

  it.each([
    ['A', '192.0.2'],
    ['A', '2001:db8::1'],
    ['A', 'example.com'],
    ['AAAA', '192.0.2.1'],
    ['AAAA', 'fe80::1%eth0'],
    ['AAAA', '2001:db8::1::2'],
    ['CNAME', 'not a host'],
    ['CNAME', '.'],
    ['CNAME', ''],
    ['NS', 'a..example.com'],
    ['NS', `${'a'.repeat(64)}.example.com`],
    ['MX', 'mx1.example.com'],
    ['MX', '70000 mx1.example.com'],
    ['MX', '10 mx1 example.com'],
    ['CAA', 'issue "letsencrypt.org"'],
    ['CAA', '256 issue "letsencrypt.org"'],
    ['CAA', '0 is-sue "letsencrypt.org"'],
    ['CAA', '0 issue "unterminated'],
  ] as const)('refuses %s %j with a message', (type, value) => {
    expect(() => normalizeDnsValue(type, value)).toThrow(/not|required|root/);
  });
});

describe('parseDnsResolvers', () => {
  it('reads IP literals with optional ports', () => {
    expect(parseDnsResolvers(undefined)).toEqual([]);
    expect(parseDnsResolvers('  ')).toEqual([]);
    expect(parseDnsResolvers('1.1.1.1, 127.0.0.1:5353, [::1]:53')).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '[::1]:53',
    ]);
    expect(parseDnsResolvers('2606:4700:4700::1111 [2001:db8::53] 1.1.1.1,1.1.1.1,')).toEqual([
      '2606:4700:4700::1111',
      '[2001:db8::53]',
      '1.1.1.1',
    ]);
  });

  it.each([
    'dns.google',
    '1.1.1.1:0',
    '1.1.1.1:70000',
    '1.1.1.1:53:53',
    '256.1.1.1',
    '[1.1.1.1]:53',
    '[::1]:',
    'fe80::1%eth0',
    '::1:53x',
  ])('refuses %j, naming it', (entry) => {
    expect(() => parseDnsResolvers(`1.1.1.1, ${entry}`)).toThrow(`"${entry}" is not a DNS resolver address`);
  });
});

describe('resolveDns against a local server', () => {
  let server: DnsServer;
  const ask = (name: string, recordType: DnsQuery['recordType'], timeoutMs = 2_000) =>
    resolveDns({ name, recordType, timeoutMs }, { resolvers: [server.address] });

  beforeAll(async () => {
    server = await startDnsServer(
      {
        'example.test': {
          A: ['192.0.2.2', '192.0.2.1', '192.0.2.2'],
          AAAA: ['2001:db8:0:0:0:0:0:1', '2001:DB8::2'],
          MX: [
            { priority: 20, exchange: 'MX2.Example.test' },
            { priority: 10, exchange: 'mx1.example.test' },
          ],
          TXT: [
            ['v=spf1 ', 'include:_spf.Example.test -all'],
            ['x'.repeat(250), 'y'.repeat(250), 'z'.repeat(250)],
          ],
          CAA: [
            { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
            { flags: 128, tag: 'iodef', value: 'mailto:ops@example.test' },
          ],
          NS: ['NS1.example.test.', 'ns2.example.test'],
        },
        'www.example.test': { CNAME: 'Example.test.' },
        'web.example.test': { A: ['192.0.2.9'] },
      },
      { servfail: ['broken.example.test'] },
    );
  });
  afterAll(() => server.close());

  it('answers A and MX, normalised, sorted and deduplicated', async () => {
    const a = await ask('example.test', 'A');
    expect(a).toMatchObject({ values: ['192.0.2.1', '192.0.2.2'], error: null, resolver: server.address });
    expect(a.startedAt).toBeInstanceOf(Date);
    expect(a.durationMs).toBeGreaterThan(0);
    expect((await ask('example.test', 'MX')).values).toEqual(['10 mx1.example.test', '20 mx2.example.test']);
  });

  it('answers AAAA, CNAME and NS', async () => {
    expect((await ask('example.test', 'AAAA')).values).toEqual(['2001:db8::1', '2001:db8::2']);
    expect((await ask('www.example.test', 'CNAME')).values).toEqual(['example.test']);
    expect((await ask('WWW.example.test', 'A')).values).toEqual(['192.0.2.1', '192.0.2.2']);
    expect((await ask('example.test', 'NS')).values).toEqual(['ns1.example.test', 'ns2.example.test']);
  });

  it('joins TXT chunks, keeping case (a long answer comes over TCP)', async () => {
    expect((await ask('example.test', 'TXT')).values).toEqual([
      'v=spf1 include:_spf.Example.test -all',
      'x'.repeat(250) + 'y'.repeat(250) + 'z'.repeat(250),
    ]);
    expect(server.queries.some((q) => q.type === 'TXT' && q.transport === 'tcp')).toBe(true);
  });

  it('answers CAA as flags, tag and quoted value', async () => {
    expect((await ask('example.test', 'CAA')).values).toEqual([
      '0 issue "letsencrypt.org"',
      '128 iodef "mailto:ops@example.test"',
    ]);
  });

  it('reports NXDOMAIN, NODATA and SERVFAIL by name, in words', async () => {
    const missing = await ask('missing.example.test', 'A');
    expect(missing).toMatchObject({
      values: [],
      error: { code: 'NXDOMAIN', message: 'NXDOMAIN: the name does not exist (missing.example.test, A)' },
    });
    const noMail = await ask('web.example.test', 'MX');
    expect(noMail.error).toEqual({
      code: 'NODATA',
      message: 'NODATA: the name exists but has no record of this type (web.example.test, MX)',
    });
    // Through a CNAME, the target's records answer (as a resolver chases the chain).
    expect((await ask('www.example.test', 'MX')).values).toEqual([
      '10 mx1.example.test',
      '20 mx2.example.test',
    ]);
    expect((await ask('example.test', 'CNAME')).error?.code).toBe('NODATA');
    const broken = await ask('broken.example.test', 'A');
    expect(broken.error).toMatchObject({
      code: 'SERVFAIL',
      message: expect.stringContaining('server failure'),
    });
  });

  it('gives up within timeoutMs when the server stays silent', async () => {
    const silent = await startDnsServer({ 'example.test': { A: ['192.0.2.1'] } }, { silent: true });
    try {
      const started = performance.now();
      const result = await resolveDns(
        { name: 'example.test', recordType: 'A', timeoutMs: 300 },
        { resolvers: [silent.address] },
      );
      const elapsed = performance.now() - started;
      expect(result).toMatchObject({ values: [], error: { code: 'TIMEOUT' }, resolver: silent.address });
      expect(result.error?.message).toContain('300 ms');
      expect(elapsed).toBeGreaterThanOrEqual(250);
      // Our own timer ends it: c-ares alone overruns (about 1 s for a 500 ms timeout here).
      expect(elapsed).toBeLessThan(500);
      expect(silent.queries.length).toBeGreaterThan(0);
    } finally {
      await silent.close();
    }
  });

  it('moves on to the next resolver within the budget when the first is silent', async () => {
    const silent = await startDnsServer({}, { silent: true });
    try {
      const result = await resolveDns(
        { name: 'example.test', recordType: 'A', timeoutMs: 1_000 },
        { resolvers: [silent.address, server.address] },
      );
      expect(result).toMatchObject({
        values: ['192.0.2.1', '192.0.2.2'],
        error: null,
        resolver: server.address,
      });
      expect(result.durationMs).toBeGreaterThanOrEqual(450);
      expect(result.durationMs).toBeLessThan(1_000);
    } finally {
      await silent.close();
    }
  });

  it('stops at an NXDOMAIN (an answer), and reports every resolver when none answered', async () => {
    const silent = await startDnsServer({}, { silent: true });
    try {
      const missing = await resolveDns(
        { name: 'missing.example.test', recordType: 'A', timeoutMs: 1_000 },
        { resolvers: [server.address, silent.address] },
      );
      expect(missing).toMatchObject({ error: { code: 'NXDOMAIN' }, resolver: server.address });
      expect(silent.queries).toEqual([]);

      server.setOptions({ refused: ['example.test'] });
      const started = performance.now();
      const none = await resolveDns(
        { name: 'example.test', recordType: 'A', timeoutMs: 400 },
        { resolvers: [server.address, silent.address] },
      );
      expect(performance.now() - started).toBeLessThan(600);
      expect(none).toMatchObject({ values: [], error: { code: 'TIMEOUT' } });
      expect(none.resolver).toBe(`${server.address}, ${silent.address}`);
      expect(none.error?.message).toContain(
        `no resolver answered: ${server.address} REFUSED, ${silent.address} TIMEOUT`,
      );
    } finally {
      server.setOptions({ servfail: ['broken.example.test'] });
      await silent.close();
    }
  });

  it('fails with a code when nothing listens on the resolver port', async () => {
    // A UDP port that was free a moment ago: nothing answers there.
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(resolve));
    const result = await resolveDns(
      { name: 'example.test', recordType: 'A', timeoutMs: 500 },
      { resolvers: [`127.0.0.1:${port}`] },
    );
    expect(result.values).toEqual([]);
    expect(['CONNREFUSED', 'TIMEOUT']).toContain(result.error?.code);
    expect(result.error?.message).toMatch(/\(example\.test, A\)$/);
  });

  it('names an invalid query name in words instead of throwing', async () => {
    const result = await ask('not a name', 'A');
    expect(result.error).toMatchObject({
      code: 'OTHER',
      message: expect.stringContaining('not a valid DNS name'),
    });
  });
});
