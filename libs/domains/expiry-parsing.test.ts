import { describe, expect, it } from 'vitest';
import { rdapExpiry, whoisExpiry } from './expiry-parsing.js';

describe('rdapExpiry', () => {
  it('reads the expiration event', () => {
    const answer = {
      events: [
        { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
        { eventAction: 'expiration', eventDate: '2027-08-13T04:00:00Z' },
      ],
    };
    expect(rdapExpiry(answer)?.toISOString()).toBe('2027-08-13T04:00:00.000Z');
  });
  it.each([
    [{}],
    [null],
    [{ events: 'x' }],
    [{ events: [{ eventAction: 'expiration', eventDate: 'soon' }] }],
  ])('null for %j', (answer) => {
    expect(rdapExpiry(answer)).toBeNull();
  });
});

describe('whoisExpiry', () => {
  it.each([
    [
      'Domain Name: EXAMPLE.COM\r\nRegistry Expiry Date: 2027-08-13T04:00:00Z\r\n',
      '2027-08-13T04:00:00.000Z',
    ],
    ['Registrar Registration Expiration Date: 2026-12-01T00:00:00Z', '2026-12-01T00:00:00.000Z'],
    ['expires:      2027-01-31', '2027-01-31T00:00:00.000Z'],
    ['paid-till: 2027.05.06', '2027-05-06T00:00:00.000Z'],
  ])('%j → %s', (text, iso) => {
    expect(whoisExpiry(text)?.toISOString()).toBe(iso);
  });
  it('null when there is no date', () => {
    expect(whoisExpiry('No match for "NOPE.COM".')).toBeNull();
  });
});
