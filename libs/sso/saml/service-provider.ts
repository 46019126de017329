import { randomBytes } from 'node:crypto';
import { type Profile, SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import type { SsoIdentity } from '../role-mapping.js';
import { type AssertionFacts, assertionFacts } from './assertion-facts.js';
import { type AssertionContent, identityOfAssertion } from './identity.js';
import type { IdpMetadata } from './metadata.js';
import type { SpKeyPair } from './sp-keys.js';
import { NS, parseXml } from './xml.js';

/**
 * Our side of one SAML provider through @node-saml/node-saml: the AuthnRequest, and a response's
 * signature (assertion signed, required), decryption, audience and validity window. What it leaves
 * to its caller is checked here: the assertion's issuer, its bearer confirmation's Recipient, the
 * response's Destination, and which request it answers (InResponseTo), from the signed assertion.
 */

/** How far the IdP's clock may be from ours on NotBefore / NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;

export interface SamlSpSettings {
  idp: IdpMetadata;
  /** Our entity id for this provider (the audience the IdP must name). */
  spEntityId: string;
  acsUrl: string;
  keys: SpKeyPair;
  /** The attribute carrying groups; null reads the usual ones. */
  groupsAttribute: string | null;
}

/** Why a response was not taken: the reason code for the person, the detail for the audit log. */
export class SamlRefusal extends Error {
  override name = 'SamlRefusal';
  constructor(
    readonly reason: 'assertion-invalid' | 'provider-error' | 'sign-in-cancelled',
    message: string,
  ) {
    super(message);
  }
}

function samlOf(settings: SamlSpSettings, requestId?: string): SAML {
  return new SAML({
    issuer: settings.spEntityId,
    audience: settings.spEntityId,
    callbackUrl: settings.acsUrl,
    entryPoint: settings.idp.ssoUrl,
    authnRequestBinding: settings.idp.ssoBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect',
    idpCert: settings.idp.certificates.map((certificate) => certificate.pem),
    // The assertion's own signature is what counts (Entra ID signs only it by default); a signed
    // response around an unsigned assertion is not enough.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    decryptionPvk: settings.keys.privateKey,
    ...(settings.idp.wantsSignedRequests
      ? { privateKey: settings.keys.privateKey, signatureAlgorithm: 'sha256' as const }
      : {}),
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // The HTTP-POST binding carries the request base64 alone; DEFLATE is the redirect binding's.
    skipRequestCompression: settings.idp.ssoBinding === 'post',
    // Checked against our own store, bound to the browser (node-saml's cache is per process).
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    // Asking for password authentication makes Entra ID refuse people who signed in otherwise.
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** An AuthnRequest by HTTP-POST: the form a browser posts to the IdP (see `authnRequestPage`). */
export interface AuthnRequestForm {
  action: string;
  fields: Record<string, string>;
}

export type AuthnRequest =
  | { requestId: string; redirectUrl: string }
  /** The IdP takes requests by POST only: the fields of a form posted to it. */
  | { requestId: string; form: AuthnRequestForm };

/** A fresh AuthnRequest; its id is the RelayState too, so the answer names the flow it ends. */
export async function authnRequest(settings: SamlSpSettings): Promise<AuthnRequest> {
  // An NCName (SAML ids may not start with a digit).
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const saml = samlOf(settings, requestId);
  if (settings.idp.ssoBinding === 'post') {
    // Signed in the XML itself when the IdP wants signed requests (the POST binding has no query to sign).
    const message = await saml.getAuthorizeMessageAsync(requestId);
    const fields = Object.fromEntries(Object.entries(message).map(([name, value]) => [name, String(value)]));
    return { requestId, form: { action: settings.idp.ssoUrl, fields } };
  }
  return { requestId, redirectUrl: await saml.getAuthorizeUrlAsync(requestId, undefined, {}) };
}

export interface ValidatedAssertion extends AssertionFacts {
  identity: SsoIdentity;
}

/** The person of a POSTed SAMLResponse, or a SamlRefusal saying why not. */
export async function validateResponse(
  settings: SamlSpSettings,
  samlResponse: string,
  now = new Date(),
): Promise<ValidatedAssertion> {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  let destination: string | null;
  try {
    // Our parser first: it refuses a DOCTYPE (no entities) before node-saml reads anything.
    const root = parseXml(xml).documentElement as Element;
    if (root.namespaceURI !== NS.protocol || root.localName !== 'Response')
      throw new Error('is not a SAML Response');
    destination = root.getAttribute('Destination') || null;
  } catch (error) {
    throw new SamlRefusal('assertion-invalid', `The SAMLResponse ${(error as Error).message}`);
  }
  if (destination !== null && destination !== settings.acsUrl)
    throw new SamlRefusal('assertion-invalid', `The response's Destination is ${destination.slice(0, 200)}`);
  let profile: Profile | null;
  try {
    ({ profile } = await samlOf(settings).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    if (error instanceof SamlStatusError)
      throw new SamlRefusal(
        /AuthnFailed|RequestDenied|NoPassive/.test(error.xmlStatus) ? 'sign-in-cancelled' : 'provider-error',
        error.message,
      );
    throw new SamlRefusal('assertion-invalid', (error as Error).message);
  }
  if (!profile?.getAssertion) throw new SamlRefusal('assertion-invalid', 'The response holds no assertion');
  if (profile.issuer !== settings.idp.entityId)
    throw new SamlRefusal('assertion-invalid', `The assertion's issuer is not ${settings.idp.entityId}`);
  const facts = assertionFacts(profile.getAssertion(), {
    acsUrl: settings.acsUrl,
    responseInResponseTo:
      typeof profile.inResponseTo === 'string' && profile.inResponseTo !== '' ? profile.inResponseTo : null,
    now,
    skewMs: CLOCK_SKEW_MS,
  });
  if ('problem' in facts) throw new SamlRefusal('assertion-invalid', facts.problem);
  const content: AssertionContent = {
    nameID: profile.nameID,
    nameIDFormat: profile.nameIDFormat ?? null,
    attributes: (profile.attributes as Record<string, unknown> | undefined) ?? {},
  };
  if (!content.nameID) throw new SamlRefusal('assertion-invalid', 'The assertion has no NameID');
  return { ...facts, identity: identityOfAssertion(content, settings.groupsAttribute) };
}
