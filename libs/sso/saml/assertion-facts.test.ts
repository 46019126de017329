import { describe, expect, it } from 'vitest';
import { assertionFacts } from './assertion-facts.js';

const ACS = 'https://webmon.example/api/auth/sso/7/acs';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const NOW = new Date('2026-06-01T12:00:00Z');

/** An assertion as @node-saml parses it (xml2js, prefixes stripped). */
const assertion = (
  data: Record<string, string>,
  conditions: Record<string, string> = {},
  method = BEARER,
) => ({
  Assertion: {
    $: { ID: '_a1', IssueInstant: '2026-06-01T11:59:00Z' },
    Subject: [{ SubjectConfirmation: [{ $: { Method: method }, SubjectConfirmationData: [{ $: data }] }] }],
    Conditions: [{ $: conditions }],
  },
});

const context = { acsUrl: ACS, responseInResponseTo: null, now: NOW, skewMs: 60_000 };

describe('assertionFacts', () => {
  it('gives the id, the earliest end and the request answered', () => {
    expect(
      assertionFacts(
        assertion(
          { Recipient: ACS, NotOnOrAfter: '2026-06-01T12:05:00Z', InResponseTo: '_r1' },
          { NotOnOrAfter: '2026-06-01T12:03:00Z' },
        ),
        { ...context, responseInResponseTo: '_r1' },
      ),
    ).toEqual({ assertionId: '_a1', expiresAt: new Date('2026-06-01T12:03:00Z'), inResponseTo: '_r1' });
  });

  it('answers no request when neither the assertion nor the response names one (IdP-initiated)', () => {
    expect(
      assertionFacts(assertion({ Recipient: ACS, NotOnOrAfter: '2026-06-01T12:05:00Z' }), context),
    ).toMatchObject({ inResponseTo: null });
  });

  it('takes the request answered from the signed assertion only, never from the Response around it', () => {
    // A captured unsolicited assertion wrapped in a Response naming the attacker's own request.
    expect(
      assertionFacts(assertion({ Recipient: ACS, NotOnOrAfter: '2026-06-01T12:05:00Z' }), {
        ...context,
        responseInResponseTo: '_attackers-request',
      }),
    ).toMatchObject({ inResponseTo: null });
  });

  it('refuses another Recipient, no bearer confirmation, an expired one and two different InResponseTo', () => {
    const problem = (parsed: unknown, extra = {}) =>
      (assertionFacts(parsed, { ...context, ...extra }) as { problem?: string }).problem;
    expect(
      problem(assertion({ Recipient: 'https://evil.example/acs', NotOnOrAfter: '2026-06-01T12:05:00Z' })),
    ).toMatch(/Recipient/);
    expect(
      problem(
        assertion(
          { Recipient: ACS, NotOnOrAfter: '2026-06-01T12:05:00Z' },
          {},
          'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key',
        ),
      ),
    ).toMatch(/no bearer/);
    expect(problem(assertion({ Recipient: ACS, NotOnOrAfter: '2026-06-01T11:58:59Z' }))).toMatch(/expired/);
    expect(problem(assertion({ Recipient: ACS }))).toMatch(/expired/);
    // Within the clock skew it still holds; NotBefore in the future beyond it does not.
    expect(problem(assertion({ Recipient: ACS, NotOnOrAfter: '2026-06-01T11:59:30Z' }))).toBeUndefined();
    expect(
      problem(
        assertion({
          Recipient: ACS,
          NotBefore: '2026-06-01T12:02:00Z',
          NotOnOrAfter: '2026-06-01T12:05:00Z',
        }),
      ),
    ).toMatch(/expired/);
    expect(
      problem(assertion({ Recipient: ACS, NotOnOrAfter: '2026-06-01T12:05:00Z', InResponseTo: '_r1' }), {
        responseInResponseTo: '_r2',
      }),
    ).toMatch(/InResponseTo differs/);
    expect(problem({ Assertion: { $: {} } })).toMatch(/no ID/);
  });
});
