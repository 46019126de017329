import { describe, expect, it } from 'vitest';
import { hostOfHeader, isAgencyHost, parseDomainHost } from './host-name.js';

const agency = ['monitor.agency.example', 'status.agency.example'];

describe('parseDomainHost', () => {
  it.each([
    ['status.client.example', 'status.client.example'],
    ['  Status.Client.Example.  ', 'status.client.example'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['STATUS.bücher.example.', 'status.xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
  ])('%j is stored as %s', (input, host) => {
    expect(parseDomainHost(input, agency)).toEqual({ host });
  });

  it.each([
    ['', 'is required'],
    ['*.client.example', 'wildcard'],
    ['192.0.2.1', 'IP address'],
    ['[2001:db8::1]', 'IP address'],
    ['2001:db8::1', 'IP address'],
    ['1.2.3', 'IP address'],
    ['https://status.client.example', 'no scheme'],
    ['status.client.example:8443', 'no scheme'],
    ['status.client.example/page', 'no scheme'],
    ['client', 'full host name'],
    ['-bad.example', 'not a valid host name'],
    ['bad_label.example', 'not a valid host name'],
    [`${'a'.repeat(64)}.example`, 'not a valid host name'],
    ['localhost', 'own host'],
    ['app.localhost', 'own host'],
    ['Monitor.Agency.Example', 'own host'],
    ['status.agency.example.', 'own host'],
  ])('%j is refused (%s)', (input, words) => {
    const parsed = parseDomainHost(input, agency);
    expect(parsed.host).toBeUndefined();
    expect(parsed.problem).toContain(words);
  });
});

describe('hostOfHeader', () => {
  it.each([
    ['Status.Client.Example:8443', 'status.client.example'],
    ['status.client.example.', 'status.client.example'],
    ['status.client.example', 'status.client.example'],
    ['[::1]:8080', '::1'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['', null],
    [undefined, null],
  ])('%j names %j', (header, host) => {
    expect(hostOfHeader(header)).toBe(host);
  });
});

describe('isAgencyHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['localhost', true],
    ['web.localhost', true],
    ['monitor.agency.example', true],
    // A service name (a proxy that does not keep Host): no page domain has a single label.
    ['api', true],
    ['status.client.example', false],
  ])('%s: %s', (host, agencyOwn) => {
    expect(isAgencyHost(host, agency)).toBe(agencyOwn);
  });
});
