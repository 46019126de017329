import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors/index.js';
import { parseIdpMetadata, serviceProviderMetadata } from './metadata.js';

// Self-signed test certificates made once (node-forge, RSA 1024): CN=idp.example, valid 2024-01-01 to 2034-01-01,
// and CN=old.example, valid 2020-01-01 to 2021-01-01 (expired). Fixed so the tests are pure.
const CURRENT =
  'MIIBoDCCAQmgAwIBAgIBATANBgkqhkiG9w0BAQsFADAWMRQwEgYDVQQDEwtpZHAuZXhhbXBsZTAeFw0yNDAxMDEwMDAwMDBaFw0zNDAxMDEwMDAwMDBaMBYxFDASBgNVBAMTC2lkcC5leGFtcGxlMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC4EhLmUwNthpjrqj1XPl+sRoBnOvocsusyU1ATf31qEDNZnE4D2FzSxK1k4lGzOYSzyebU5P7/6dt6LlZr0njsrNlJHyZN8kOK9UX09VAcPyfB6m/gpHrAHSA3YLDuILL8kP3JA45A/8XFCmEouEg8xJhPu8Rgyu+YbdGJdSWhbwIDAQABMA0GCSqGSIb3DQEBCwUAA4GBAFo/doaCXxTm/VImush/xu4RI2DBmtXeVjDWy6YfeBkxMPrnmbit2MOV/KCtqxW7hdiJOFatO79wrv84GGeC5c0WDBReP2CElDlHnErmd80VRRSxLNnvF34OE2X/Cd+KWFaDefd5Za44D8arAFJVCGm05hBO1ySZKm/8/NtZk7lD';
const EXPIRED =
  'MIIBoDCCAQmgAwIBAgIBATANBgkqhkiG9w0BAQsFADAWMRQwEgYDVQQDEwtvbGQuZXhhbXBsZTAeFw0yMDAxMDEwMDAwMDBaFw0yMTAxMDEwMDAwMDBaMBYxFDASBgNVBAMTC29sZC5leGFtcGxlMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDAY8bkI0/gV7N9i1pgBgfT4uZTYJEo1SZpq236rs98X+IZrDCz0PHsJY3BzeIdVhFcXq2Bo7Rqjc5EQ3zkVKFaBhAVIBFbNLI6olMz12v33WLUMbXvkodQAQJq8HOQan4mbyxcflFJHYHyh6TzuoyJcMbRvGtZto6TFl0Tr/1rwwIDAQABMA0GCSqGSIb3DQEBCwUAA4GBAFs4buV3M14qbkPCVVrU4nkk0bCRPd1xAbXoAc0jf4ADl8f0rDyWod5Xn2zBRB8zDxYcACYZHU2h31i/yBbryk81r5B9DJlmrtbjaS0XR1VIexy4jpRdpLz5S3U/WFwxOYTM3ggOThCn2DUD9T2eIEK4dVWVt6MzU9/21FzcP7Ia';

const key = (certificate: string, use = 'signing') =>
  `<md:KeyDescriptor use="${use}"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>
${certificate.match(/.{1,64}/g)?.join('\n')}
</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

const metadata = ({
  keys = key(CURRENT),
  services = `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example/sso/post"/>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso/redirect"/>
<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/slo"/>`,
  prologue = '',
} = {}) => `<?xml version="1.0"?>${prologue}
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example/metadata">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keys}
    ${key(CURRENT, 'encryption')}
    ${services}
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

const NOW = new Date('2026-06-01T00:00:00Z');

function refusal(xml: string): string {
  try {
    parseIdpMetadata(xml, { now: NOW });
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).errors?.[0]?.path).toBe('metadataXml');
    return (error as DomainError).detail;
  }
  throw new Error('parsed');
}

describe('parseIdpMetadata', () => {
  it('reads the entity id, the redirect endpoint before the POST one, the logout URL and the signing certificates', () => {
    const parsed = parseIdpMetadata(metadata(), { now: NOW });
    expect(parsed).toMatchObject({
      entityId: 'https://idp.example/metadata',
      ssoUrl: 'https://idp.example/sso/redirect',
      ssoBinding: 'redirect',
      sloUrl: 'https://idp.example/slo',
      wantsSignedRequests: true,
      warnings: [],
    });
    // The encryption key of the same certificate is not a second signing certificate.
    expect(parsed.certificates).toHaveLength(1);
    expect(parsed.certificates[0]).toMatchObject({
      subject: 'CN=idp.example',
      notBefore: new Date('2024-01-01T00:00:00Z'),
      notAfter: new Date('2034-01-01T00:00:00Z'),
    });
    expect(parsed.certificates[0]?.pem).toMatch(/^-----BEGIN CERTIFICATE-----\nMIIB/);
  });

  it('takes the POST binding when there is no redirect one, and both certificates during a rollover', () => {
    const parsed = parseIdpMetadata(
      metadata({
        keys: key(CURRENT) + key(EXPIRED, ''),
        services:
          '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="http://127.0.0.1:9/sso"/>',
      }),
      { now: NOW },
    );
    expect(parsed).toMatchObject({ ssoUrl: 'http://127.0.0.1:9/sso', ssoBinding: 'post', sloUrl: null });
    expect(parsed.certificates.map((certificate) => certificate.subject)).toEqual([
      'CN=idp.example',
      'CN=old.example',
    ]);
    expect(parsed.warnings).toEqual([
      'The signing certificate CN=old.example expired on 2021-01-01T00:00:00.000Z',
    ]);
  });

  it('refuses external entities and any document type declaration (XXE, entity expansion)', () => {
    const xxe = metadata({
      prologue: '<!DOCTYPE md [<!ENTITY secret SYSTEM "file:///etc/passwd">]>',
    }).replace('https://idp.example/metadata', '&secret;');
    expect(refusal(xxe)).toMatch(/document type declaration/);
    expect(refusal(metadata({ prologue: '<!DOCTYPE md>' }))).toMatch(/document type declaration/);
  });

  it('refuses more than 1 MiB, XML that is not well-formed, and metadata without an IdP', () => {
    expect(refusal(metadata({ services: `<!--${'x'.repeat(1024 * 1024)}-->` }))).toMatch(
      /larger than 1024 KiB/,
    );
    expect(refusal('<md:EntityDescriptor')).toMatch(/not well-formed/);
    expect(refusal('<html><body>Sign in</body></html>')).toMatch(/holds no identity provider/);
    expect(refusal(metadata().replace(/IDPSSODescriptor/g, 'SPSSODescriptor'))).toMatch(
      /holds no identity provider/,
    );
  });

  it('refuses metadata without a signing certificate, with an unreadable one or without a sign-in endpoint', () => {
    expect(refusal(metadata({ keys: '' }))).toMatch(/names no signing certificate/);
    expect(refusal(metadata({ keys: key('bm90IGEgY2VydGlmaWNhdGU=') }))).toMatch(/cannot be read/);
    expect(
      refusal(
        metadata({
          services:
            '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="https://idp.example/soap"/>',
        }),
      ),
    ).toMatch(/no SingleSignOnService/);
    expect(
      refusal(
        metadata({
          services:
            '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="javascript:alert(1)"/>',
        }),
      ),
    ).toMatch(/not an http\(s\) URL/);
  });

  it('refuses a file of several identity providers rather than pick one', () => {
    const entity = metadata().replace(/^<\?xml version="1.0"\?>/, '');
    const several = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${entity}${entity}</md:EntitiesDescriptor>`;
    expect(refusal(several)).toMatch(/holds 2 identity providers/);
    const one = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${entity}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(one, { now: NOW }).entityId).toBe('https://idp.example/metadata');
  });
});

describe('serviceProviderMetadata', () => {
  it('says what an IdP needs (entity id, the POST ACS, signed assertions wanted, our keys), escaped', () => {
    const xml = serviceProviderMetadata({
      entityId: 'https://webmon.example/api/auth/sso/7/metadata?a=1&b="2"',
      acsUrl: 'https://webmon.example/api/auth/sso/7/acs',
      encryptionCert: `-----BEGIN CERTIFICATE-----\n${CURRENT}\n-----END CERTIFICATE-----`,
    });
    expect(xml).toContain(
      'entityID="https://webmon.example/api/auth/sso/7/metadata?a=1&amp;b=&quot;2&quot;"',
    );
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('AuthnRequestsSigned="false"');
    expect(xml).toContain(
      '<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://webmon.example/api/auth/sso/7/acs"',
    );
    expect(xml).toMatch(/<md:KeyDescriptor use="encryption">.*<ds:X509Certificate>MIIB/);
    expect(xml).not.toContain('use="signing"');
  });
});
