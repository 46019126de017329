import { describe, expect, it } from 'vitest';
import { type DnsAnswer, judgeVerification, recordsToCreate } from './verification.js';

const host = 'status.client.example';
const token = 'webmon-domain-verification=abc123';
const statusPagesHost = 'status.agency.example';
const answered = (...values: string[]): DnsAnswer => ({ values, error: null });
const failed = (code: string, message = code): DnsAnswer => ({ values: [], error: { code, message } });

describe('recordsToCreate', () => {
  it('offers a CNAME to the status host and a TXT record with the token', () => {
    expect(recordsToCreate(host, token, statusPagesHost)).toEqual([
      { type: 'CNAME', name: host, value: statusPagesHost },
      { type: 'TXT', name: `_webmon-challenge.${host}`, value: token },
    ]);
  });
  it('offers the TXT record alone without a status host', () => {
    expect(recordsToCreate(host, token)).toEqual([
      { type: 'TXT', name: `_webmon-challenge.${host}`, value: token },
    ]);
  });
});

describe('judgeVerification', () => {
  it.each<[string, { cname: DnsAnswer | null; txt: DnsAnswer }, string | undefined, boolean, string]>([
    [
      'a CNAME to the status host',
      { cname: answered('status.agency.example'), txt: failed('NXDOMAIN') },
      statusPagesHost,
      true,
      'is a CNAME to',
    ],
    [
      'a CNAME written with a dot and capitals',
      { cname: answered('Status.Agency.Example.'), txt: failed('NXDOMAIN') },
      statusPagesHost,
      true,
      'is a CNAME to',
    ],
    [
      'the token in TXT',
      { cname: failed('NODATA'), txt: answered('other', token) },
      statusPagesHost,
      true,
      'holds the token',
    ],
    [
      'the token in TXT without a status host',
      { cname: null, txt: answered(token) },
      undefined,
      true,
      'holds the token',
    ],
    [
      'a CNAME elsewhere',
      { cname: answered('elsewhere.example'), txt: failed('NXDOMAIN') },
      statusPagesHost,
      false,
      'CNAME found: elsewhere.example',
    ],
    [
      'a CNAME to the status host when none is configured',
      { cname: null, txt: failed('NXDOMAIN') },
      undefined,
      false,
      'no TXT record',
    ],
    [
      'a token that differs',
      { cname: failed('NODATA'), txt: answered(`${token}x`) },
      statusPagesHost,
      false,
      'TXT found',
    ],
    [
      'an unanswered question',
      { cname: failed('TIMEOUT', 'TIMEOUT: no answer'), txt: failed('SERVFAIL', 'SERVFAIL: failed') },
      statusPagesHost,
      false,
      'went unanswered (SERVFAIL: failed)',
    ],
  ])('%s', (_, answers, target, verified, words) => {
    const decision = judgeVerification(host, answers, { token, statusPagesHost: target });
    expect(decision.verified).toBe(verified);
    expect(decision.outcome).toContain(words);
  });
});
