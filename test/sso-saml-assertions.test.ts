import { createVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authnRequest,
  parseIdpMetadata,
  SamlRefusal,
  type SamlSpSettings,
  serviceProviderMetadata,
  validateResponse,
} from '../libs/sso/saml/index.js';
import { issue } from './support/pki-forge.js';
import { SamlTestIdp } from './support/saml-idp.js';

/**
 * Our SAML service provider against a real IdP (samlify on 127.0.0.1): what it signs and encrypts
 * is taken, what is unsigned, altered, late, for another audience or recipient is not. The whole
 * sign-in through the API is test/sso-saml.test.ts.
 */

const ENTITY_ID = 'http://127.0.0.1:1/api/auth/sso/7/metadata';
const ACS = 'http://127.0.0.1:1/api/auth/sso/7/acs';

let idp: SamlTestIdp;
let settings: SamlSpSettings;

const decoded = (response: string) => Buffer.from(response, 'base64').toString('utf8');
const encoded = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

async function refusal(response: string): Promise<SamlRefusal> {
  const error = await validateResponse(settings, response).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SamlRefusal);
  return error as SamlRefusal;
}

beforeAll(async () => {
  idp = await SamlTestIdp.start();
  const keys = issue({ commonName: 'webmon SP test' });
  // Metadata in: the IdP's, as its admin would give it.
  const metadata = parseIdpMetadata(idp.metadataXml);
  settings = {
    idp: metadata,
    spEntityId: ENTITY_ID,
    acsUrl: ACS,
    keys: { certificate: keys.cert, privateKey: keys.key },
    groupsAttribute: null,
  };
  // Metadata out: ours, as the IdP reads it.
  idp.trust(serviceProviderMetadata({ entityId: ENTITY_ID, acsUrl: ACS, encryptionCert: keys.cert }));
  idp.person = {
    nameId: 'ada@agency.example',
    displayName: 'Ada Lovelace',
    groups: ['monitoring-admins', 'everyone'],
    attributes: { department: 'ops' },
  };
});

afterAll(async () => {
  await idp?.close();
});

describe('SAML metadata in and out', () => {
  it("reads the IdP's entity id, sign-in endpoint and signing certificate from its metadata", () => {
    expect(settings.idp).toMatchObject({
      entityId: idp.entityId,
      ssoUrl: `${idp.url}/sso`,
      ssoBinding: 'redirect',
      wantsSignedRequests: false,
      warnings: [],
    });
    expect(settings.idp.certificates.map((certificate) => certificate.pem.replace(/\s/g, ''))).toEqual([
      idp.certificate.replace(/\s/g, ''),
    ]);
  });

  it('writes SP metadata that a SAML library reads back: our entity id, ACS and that assertions must be signed', () => {
    const xml = serviceProviderMetadata({
      entityId: ENTITY_ID,
      acsUrl: ACS,
      encryptionCert: settings.keys.certificate,
    });
    idp.trust(xml);
    // samlify read it in trust(): the response it makes goes to our ACS for our audience.
    return idp.answer({ inResponseTo: null }).then((response) => {
      const xmlResponse = decoded(response);
      expect(xmlResponse).toContain(`Destination="${ACS}"`);
      expect(xmlResponse).toContain(`<saml:Audience>${ENTITY_ID}</saml:Audience>`);
      expect(xmlResponse).toMatch(/<saml:Assertion[^>]*>.*<ds:Signature/);
    });
  });
});

describe('SAML responses', () => {
  it('takes a signed assertion: the person, their groups and other attributes, and the request it answers', async () => {
    const request = await authnRequest(settings);
    expect('redirectUrl' in request && request.redirectUrl).toMatch(
      new RegExp(`^${idp.url}/sso\\?SAMLRequest=.+&RelayState=${request.requestId}$`),
    );
    const validated = await validateResponse(settings, await idp.answer({ inResponseTo: request.requestId }));
    expect(validated.inResponseTo).toBe(request.requestId);
    expect(validated.assertionId).toMatch(/^_[0-9a-f]{32}$/);
    expect(validated.expiresAt.getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    expect(validated.identity).toEqual({
      subject: 'ada@agency.example',
      email: 'ada@agency.example',
      name: 'Ada Lovelace',
      groups: ['monitoring-admins', 'everyone'],
      claims: { displayName: 'Ada Lovelace', department: 'ops' },
    });
  });

  it('signs the AuthnRequest with our key (RSA-SHA256, redirect binding) when the IdP wants signed requests', async () => {
    expect(await authnRequest(settings)).not.toHaveProperty(
      'redirectUrl',
      expect.stringContaining('Signature='),
    );
    const request = await authnRequest({ ...settings, idp: { ...settings.idp, wantsSignedRequests: true } });
    const url = new URL('redirectUrl' in request ? request.redirectUrl : '');
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    // What is signed: SAMLRequest, RelayState and SigAlg as they stand in the query (the binding's rule).
    const signed = url.search
      .slice(1)
      .split('&')
      .filter((part) => !part.startsWith('Signature='))
      .join('&');
    const verifier = createVerify('RSA-SHA256').update(signed);
    expect(
      verifier.verify(settings.keys.certificate, url.searchParams.get('Signature') ?? '', 'base64'),
    ).toBe(true);
  });

  it('takes an encrypted assertion, decrypted with our key', async () => {
    const response = await idp.answer({ inResponseTo: '_r1', encrypt: true });
    expect(decoded(response)).toContain('EncryptedAssertion');
    expect(decoded(response)).not.toContain('ada@agency.example');
    const validated = await validateResponse(settings, response);
    expect(validated.identity.email).toBe('ada@agency.example');
  });

  it('refuses an unsigned assertion, signed response around it or not', async () => {
    const responseSignedOnly = await idp.answer({ inResponseTo: '_r1', signAssertion: false });
    expect(decoded(responseSignedOnly)).toMatch(/<samlp:Response[^>]*>.*<ds:Signature.*<saml:Assertion/);
    expect((await refusal(responseSignedOnly)).reason).toBe('assertion-invalid');
    const unsigned = decoded(await idp.answer({ inResponseTo: '_r1' })).replace(
      /<ds:Signature[\s\S]*?<\/ds:Signature>/g,
      '',
    );
    expect(unsigned).not.toContain('Signature');
    expect((await refusal(encoded(unsigned))).message).toMatch(/signature/i);
  });

  it('refuses an assertion altered after signing: its NameID, a group', async () => {
    const signed = decoded(await idp.answer({ inResponseTo: '_r1' }));
    const otherPerson = signed.replaceAll('ada@agency.example', 'eve@agency.example');
    expect((await refusal(encoded(otherPerson))).message).toMatch(/signature/i);
    const moreGroups = signed.replace('>everyone<', '>monitoring-owners<');
    expect(moreGroups).not.toBe(signed);
    expect((await refusal(encoded(moreGroups))).message).toMatch(/signature/i);
  });

  it('refuses an assertion for another audience, another recipient, signed by another key, or expired', async () => {
    expect(
      (await refusal(await idp.answer({ inResponseTo: '_r1', audience: 'https://other.example/sp' })))
        .message,
    ).toMatch(/audience/i);
    expect(
      (await refusal(await idp.answer({ inResponseTo: '_r1', recipient: 'https://other.example/acs' })))
        .message,
    ).toMatch(/Recipient/);
    // Two minutes late: beyond the 60 s of clock skew allowed.
    expect(
      (await refusal(await idp.answer({ inResponseTo: '_r1', notOnOrAfter: new Date(Date.now() - 120_000) })))
        .message,
    ).toMatch(/expired/);
    const stranger = await SamlTestIdp.start();
    try {
      stranger.trust(serviceProviderMetadata({ entityId: ENTITY_ID, acsUrl: ACS }));
      const forged = decoded(await stranger.answer({ inResponseTo: '_r1' })).replaceAll(
        stranger.entityId,
        idp.entityId,
      );
      expect((await refusal(encoded(forged))).message).toMatch(/signature/i);
    } finally {
      await stranger.close();
    }
  });

  it('refuses what is not a SAML response, and a document type declaration before anything is read', async () => {
    expect((await refusal(encoded('<html/>'))).message).toMatch(/not a SAML Response/);
    const withDoctype = decoded(await idp.answer({ inResponseTo: '_r1' })).replace(
      '<samlp:Response',
      '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><samlp:Response',
    );
    expect((await refusal(encoded(withDoctype))).message).toMatch(/document type declaration/);
  });
});
