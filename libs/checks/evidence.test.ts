import { describe, expect, it } from 'vitest';
import { EVIDENCE_BODY_BYTES, evidenceOf, evidenceSchema, withoutBody } from './evidence.js';
import type { Observation } from './observation.js';

const timings = { dns: 1, connect: 2, tls: 3, ttfb: 40, download: 5, total: 51 };
const context = { region: 'eu', nodeId: 'node-1', secretHeaders: ['X-Api-Key'], secretValues: [] };

function observation(overrides: Partial<Observation>): Observation {
  return {
    startedAt: new Date('2026-11-24T12:00:00Z'),
    url: 'https://shop.example.com/',
    finalUrl: 'https://shop.example.com/',
    httpStatus: 200,
    headers: {},
    redirects: [],
    body: Buffer.from(''),
    sizeBytes: 0,
    bodyTruncated: false,
    timings,
    error: null,
    tls: null,
    httpsRedirect: null,
    domain: null,
    ...overrides,
  };
}

describe('evidenceOf', () => {
  it('keeps a maintenance page: the status line, its headers and the body as text', () => {
    const page = '<html><h1>Down for maintenance</h1></html>';
    const evidence = evidenceOf(
      observation({
        httpStatus: 503,
        headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': '120' },
        body: Buffer.from(page),
        sizeBytes: page.length,
      }),
      context,
    );
    expect(evidence.statusLine).toBe('503 Service Unavailable');
    expect(evidence.headers['retry-after']).toBe('120');
    expect(evidence.body).toEqual({
      kind: 'text',
      text: page,
      charset: 'utf-8',
      bytes: page.length,
      truncated: false,
    });
    expect(evidenceSchema.parse(evidence)).toEqual(evidence);
  });

  it('cuts a 2 MB body to 16 KB without splitting a character, and says it is cut', () => {
    const body = Buffer.from('é'.repeat(1024 * 1024));
    const evidence = evidenceOf(
      observation({ headers: { 'content-type': 'text/plain' }, body, sizeBytes: body.length }),
      context,
    );
    expect(evidence.body?.kind).toBe('text');
    if (evidence.body?.kind !== 'text') return;
    expect(evidence.body.text).toBe('é'.repeat(EVIDENCE_BODY_BYTES / 2));
    expect(evidence.body.truncated).toBe(true);
    expect(evidence.body.bytes).toBe(2 * 1024 * 1024);
  });

  it('decodes the declared charset (ISO-8859-1), and falls back to UTF-8 for one it does not know', () => {
    const latin1 = Buffer.from([0x43, 0x61, 0x66, 0xe9]); // "Café" in ISO-8859-1
    const declared = evidenceOf(
      observation({
        headers: { 'content-type': 'text/html; charset=ISO-8859-1' },
        body: latin1,
        sizeBytes: 4,
      }),
      context,
    );
    expect(declared.body).toMatchObject({ kind: 'text', text: 'Café', charset: 'windows-1252' });
    const unknown = evidenceOf(
      observation({ headers: { 'content-type': 'text/html; charset=x-made-up' }, body: Buffer.from('ok') }),
      context,
    );
    expect(unknown.body).toMatchObject({ text: 'ok', charset: 'utf-8' });
  });

  it('summarizes a binary body by its type and size', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    expect(
      evidenceOf(observation({ headers: { 'content-type': 'image/png' }, body: png, sizeBytes: 8 }), context)
        .body,
    ).toEqual({ kind: 'binary', contentType: 'image/png', bytes: 8 });
    expect(evidenceOf(observation({ body: png, sizeBytes: 8 }), context).body).toMatchObject({
      kind: 'binary',
    });
  });

  it('redacts cookies, credentials and the website’s secret headers, and URL credentials', () => {
    const evidence = evidenceOf(
      observation({
        url: 'https://admin:hunter2@shop.example.com/',
        finalUrl: 'https://admin:hunter2@shop.example.com/home',
        redirects: [{ url: 'https://admin:hunter2@shop.example.com/', status: 301 }],
        headers: {
          'set-cookie': 'session=abc',
          'x-api-key': 'k-123',
          'www-authenticate': 'Basic',
          server: 'nginx',
        },
      }),
      context,
    );
    expect(evidence.headers).toEqual({
      'set-cookie': '[redacted]',
      'x-api-key': '[redacted]',
      'www-authenticate': '[redacted]',
      server: 'nginx',
    });
    const shown = JSON.stringify(evidence);
    for (const secret of ['hunter2', 'session=abc', 'k-123']) expect(shown).not.toContain(secret);
    expect(evidence.redirects).toEqual([
      { url: 'https://shop.example.com/', status: 301, location: 'https://shop.example.com/home' },
    ]);
  });

  it('without an answer: the error, no status line, no body, and the TLS details seen', () => {
    const evidence = evidenceOf(
      observation({
        httpStatus: null,
        body: null,
        sizeBytes: null,
        error: { code: 'TLS', message: 'certificate has expired' },
        tls: {
          issuer: 'CN=Test CA',
          subject: 'CN=shop.example.com',
          validFrom: new Date('2025-01-01T00:00:00Z'),
          validTo: new Date('2026-01-01T00:00:00Z'),
          chainTrusted: false,
          chainError: 'CERT_HAS_EXPIRED',
          hostnameMatches: true,
          protocol: 'TLSv1.3',
          cipher: 'TLS_AES_256_GCM_SHA384',
        },
        address: '203.0.113.7',
      }),
      context,
    );
    expect(evidence).toMatchObject({
      statusLine: null,
      body: null,
      error: { code: 'TLS', message: 'certificate has expired' },
      tls: { chainError: 'CERT_HAS_EXPIRED', validTo: '2026-01-01T00:00:00.000Z', protocol: 'TLSv1.3' },
      address: '203.0.113.7',
      region: 'eu',
      nodeId: 'node-1',
    });
    expect(evidenceSchema.parse(evidence)).toEqual(evidence);
  });

  it('blanks a secret header’s value a server echoes back, in the body and in other headers', () => {
    const echoed = 'you sent X-Api-Key: k-123-secret';
    const evidence = evidenceOf(
      observation({
        headers: { 'content-type': 'text/plain', 'x-debug': 'key=k-123-secret' },
        body: Buffer.from(echoed),
        sizeBytes: echoed.length,
      }),
      { ...context, secretValues: ['k-123-secret', 'ab'] },
    );
    expect(JSON.stringify(evidence)).not.toContain('k-123-secret');
    expect(evidence.body).toMatchObject({ text: 'you sent X-Api-Key: [redacted]' });
    expect(evidence.headers['x-debug']).toBe('key=[redacted]');
  });

  it('without its body: the size kept, the reason said', () => {
    const evidence = evidenceOf(
      observation({
        headers: { 'content-type': 'text/html' },
        body: Buffer.from('<p>down</p>'),
        sizeBytes: 11,
      }),
      context,
    );
    const omitted = withoutBody(evidence, 'kept once a website, region and 5 minutes');
    expect(omitted.body).toEqual({
      kind: 'omitted',
      bytes: 11,
      reason: 'kept once a website, region and 5 minutes',
    });
    expect(evidenceSchema.parse(omitted)).toEqual(omitted);
  });

  it('blanks a secret cut in two by the 16 KB cut, a bearer token, a Basic password and their escaped forms', () => {
    const token = 'tok_live_0123456789abcdef';
    const cutAt = 'x'.repeat(EVIDENCE_BODY_BYTES - 8);
    const body = Buffer.from(`${cutAt}${token} and more after the cut`);
    const cut = evidenceOf(
      observation({ headers: { 'content-type': 'text/plain' }, body, sizeBytes: body.length }),
      { ...context, secretValues: [token] },
    );
    expect(cut.body).toMatchObject({ kind: 'text', truncated: true });
    expect(cut.body?.kind === 'text' && cut.body.text.endsWith('x[redacted]')).toBe(true);
    expect(JSON.stringify(cut)).not.toContain('tok_live');

    const echoed = `{"token":"tok/abc+def"} ${encodeURIComponent('tok/abc+def')} tok\\/abc+def pass:w0rd-secret w0rd-secret`;
    const evidence = evidenceOf(
      observation({ headers: { 'content-type': 'application/json' }, body: Buffer.from(echoed) }),
      {
        ...context,
        secretValues: ['Bearer tok/abc+def', `Basic ${Buffer.from('admin:w0rd-secret').toString('base64')}`],
      },
    );
    const shown = JSON.stringify(evidence);
    for (const secret of ['tok/abc', 'tok%2Fabc', 'tok\\\\/abc', 'w0rd-secret'])
      expect(shown).not.toContain(secret);
  });

  it('takes credentials out of a Location header and of an error quoting a URL, whatever the header names’ case', () => {
    const evidence = evidenceOf(
      observation({
        httpStatus: null,
        body: null,
        headers: { Location: 'https://u:p4ss@elsewhere.example/', 'Set-Cookie': 'a=b' },
        error: { code: 'REDIRECT_LOOP', message: 'redirect loop back to https://u:p4ss@elsewhere.example/' },
      }),
      context,
    );
    expect(evidence.headers).toEqual({ location: 'https://elsewhere.example/', 'set-cookie': '[redacted]' });
    expect(evidence.error?.message).toBe('redirect loop back to https://elsewhere.example/');
  });

  it('blanks a cookie header’s values listed one by one, and HTML-, JSON- and URL-escaped forms of a password', () => {
    const password = 'p&ss/w0rd<x> y';
    const listed = [
      'session => S3cr3tSess; csrf => Csrf0Tok',
      'p&amp;ss/w0rd&lt;x&gt; y',
      'p\\u0026ss\\/w0rd\\u003cx\\u003e y',
      encodeURIComponent(password).toLowerCase(),
      encodeURIComponent(password).replaceAll('%20', '+'),
    ].join('\n');
    const evidence = evidenceOf(
      observation({ headers: { 'content-type': 'text/html' }, body: Buffer.from(listed) }),
      {
        ...context,
        secretValues: [
          'session=S3cr3tSess; csrf=Csrf0Tok',
          `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
        ],
      },
    );
    const text = evidence.body?.kind === 'text' ? evidence.body.text : '';
    for (const secret of ['S3cr3tSess', 'Csrf0Tok', 'w0rd']) expect(text).not.toContain(secret);
  });

  it('takes credentials out of every header’s URLs and of a password holding a slash in an error', () => {
    const evidence = evidenceOf(
      observation({
        httpStatus: null,
        body: null,
        headers: { refresh: '0; url=https://u:pw@h.example/', link: '<https://u:pw@h.example/>; rel=next' },
        error: {
          code: 'INVALID_REDIRECT',
          message: 'redirect to an invalid URL: https://user:pa/ss@h:badport/',
        },
      }),
      context,
    );
    expect(JSON.stringify(evidence)).not.toMatch(/pw@|pa\/ss/);
    expect(evidence.headers.refresh).toBe('0; url=https://h.example/');
  });
});
