/**
 * What our checks need of a signed assertion, beyond what @node-saml checks (signature, audience,
 * Conditions' window): its id and end (against replay), that its bearer confirmation was meant for
 * our ACS (Recipient) and still holds, and the request it answers. Pure: the parsed assertion in,
 * facts or a problem out, unit-tested without an IdP.
 */

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

export interface AssertionFacts {
  assertionId: string;
  /** Until when the assertion may be presented (it is remembered that long against replay). */
  expiresAt: Date;
  /** The AuthnRequest it answers; null when the IdP started the sign-in. */
  inResponseTo: string | null;
}

export interface FactsContext {
  acsUrl: string;
  /** The Response element's InResponseTo (outside the assertion's signature): only checked against the assertion's. */
  responseInResponseTo: string | null;
  now: Date;
  skewMs: number;
}

/** A node of xml2js' output (tag prefixes stripped, as @node-saml parses). */
type Node = { $?: Record<string, string | undefined> } & Record<string, unknown>;

const children = (node: Node | undefined, name: string): Node[] => {
  const value = node?.[name];
  return Array.isArray(value) ? (value as Node[]) : [];
};

const time = (text: string | undefined): number | null => {
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
};

export function assertionFacts(parsed: unknown, context: FactsContext): AssertionFacts | { problem: string } {
  const assertion = (parsed as { Assertion?: Node } | null)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) return { problem: 'The assertion has no ID' };
  const now = context.now.getTime();
  const confirmations = children(assertion, 'Subject')
    .flatMap((subject) => children(subject, 'SubjectConfirmation'))
    .filter((confirmation) => confirmation.$?.Method === BEARER)
    .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'));
  if (confirmations.length === 0) return { problem: 'The assertion has no bearer subject confirmation' };
  const forUs = confirmations.filter((data) => data.$?.Recipient === context.acsUrl);
  if (forUs.length === 0) return { problem: `The assertion's Recipient is not ${context.acsUrl}` };
  const current = forUs.find((data) => {
    const notOnOrAfter = time(data.$?.NotOnOrAfter);
    const notBefore = time(data.$?.NotBefore);
    return (
      notOnOrAfter !== null &&
      now - context.skewMs < notOnOrAfter &&
      (notBefore === null || now + context.skewMs >= notBefore)
    );
  });
  if (!current) return { problem: 'The assertion has expired (or has no NotOnOrAfter)' };
  const ends = [
    time(current.$?.NotOnOrAfter),
    ...children(assertion, 'Conditions').map((conditions) => time(conditions.$?.NotOnOrAfter)),
  ].filter((end): end is number => end !== null);
  const signedInResponseTo = current.$?.InResponseTo || null;
  if (
    signedInResponseTo !== null &&
    context.responseInResponseTo !== null &&
    signedInResponseTo !== context.responseInResponseTo
  )
    return { problem: "The response's InResponseTo differs from its assertion's" };
  return {
    assertionId,
    expiresAt: new Date(Math.min(...ends)),
    // Only the assertion's own (signed) InResponseTo says which request it answers: the Response
    // element's is outside the signature, and taking it would let a captured unsolicited assertion
    // be wrapped to answer the attacker's own request (SAML 2.0 profiles, 4.1.4.2, puts it here).
    inResponseTo: signedInResponseTo,
  };
}
