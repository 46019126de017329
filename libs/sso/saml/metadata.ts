import { X509Certificate } from 'node:crypto';
import { DOMImplementation, XMLSerializer } from '@xmldom/xmldom';
import { invalidInput } from '../../errors/index.js';
import { childElements, descendants, NS, parseXml } from './xml.js';

/**
 * SAML metadata in (an IdP's, pasted or fetched by an admin) and out (ours, for the IdP's admin):
 * pure, so what an IdP's metadata yields and what ours says are unit-tested without a network.
 */

const BINDING = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;
export type SamlBinding = keyof typeof BINDING;

export interface IdpCertificate {
  /** PEM, as @node-saml's `idpCert` takes it. */
  pem: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
}

export interface IdpMetadata {
  entityId: string;
  /** Where AuthnRequests go; HTTP-Redirect preferred, else HTTP-POST. */
  ssoUrl: string;
  ssoBinding: SamlBinding;
  sloUrl: string | null;
  /** The IdP's signing certificates (several while it rolls its key over). */
  certificates: IdpCertificate[];
  wantsSignedRequests: boolean;
  /** What an admin should know that does not make the metadata unusable (an expired certificate). */
  warnings: string[];
}

export interface ParseOptions {
  /** The request field the XML came in, named in the error. */
  field?: string;
  now?: Date;
}

/** Parses an IdP's metadata, or throws an `invalid` DomainError naming `field` and what is wrong. */
export function parseIdpMetadata(xml: string, options: ParseOptions = {}): IdpMetadata {
  const field = options.field ?? 'metadataXml';
  const fail = (message: string) =>
    invalidInput(
      `The identity provider's metadata ${message}. Ask your identity provider's admin for its SAML 2.0 metadata XML.`,
      [{ path: field, message: `The metadata ${message}` }],
    );
  let document: Document;
  try {
    document = parseXml(xml);
  } catch (error) {
    throw fail((error as Error).message);
  }
  const idps = descendants(document, NS.metadata, 'EntityDescriptor').filter(
    (entity) => childElements(entity, NS.metadata, 'IDPSSODescriptor').length > 0,
  );
  if (idps.length === 0)
    throw fail('holds no identity provider (no EntityDescriptor with an IDPSSODescriptor)');
  if (idps.length > 1)
    throw fail(`holds ${idps.length} identity providers; give the metadata of the one to use`);
  const entity = idps[0] as Element;
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw fail('has no entityID');
  const descriptor = childElements(entity, NS.metadata, 'IDPSSODescriptor').find((candidate) =>
    (candidate.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(NS.protocol),
  );
  if (!descriptor) throw fail('does not say it supports SAML 2.0 (protocolSupportEnumeration)');

  const sso = endpoint(descriptor, 'SingleSignOnService');
  if (!sso) throw fail('has no SingleSignOnService with an HTTP-Redirect or HTTP-POST binding');
  if (!isHttpUrl(sso.url)) throw fail(`has a SingleSignOnService location that is not an http(s) URL`);
  const slo = endpoint(descriptor, 'SingleLogoutService');

  const certificates = signingCertificates(descriptor);
  if (certificates === 'unreadable') throw fail('has a signing certificate that cannot be read');
  if (certificates.length === 0) throw fail('names no signing certificate (KeyDescriptor use="signing")');
  const now = options.now ?? new Date();
  const warnings = certificates.flatMap((certificate) =>
    certificate.notAfter < now
      ? [`The signing certificate ${certificate.subject} expired on ${certificate.notAfter.toISOString()}`]
      : certificate.notBefore > now
        ? [
            `The signing certificate ${certificate.subject} is valid only from ${certificate.notBefore.toISOString()}`,
          ]
        : [],
  );
  return {
    entityId,
    ssoUrl: sso.url,
    ssoBinding: sso.binding,
    sloUrl: slo && isHttpUrl(slo.url) ? slo.url : null,
    certificates,
    wantsSignedRequests: descriptor.getAttribute('WantAuthnRequestsSigned') === 'true',
    warnings,
  };
}

function endpoint(descriptor: Element, name: string): { url: string; binding: SamlBinding } | null {
  const services = childElements(descriptor, NS.metadata, name);
  for (const binding of ['redirect', 'post'] as const) {
    const service = services.find((candidate) => candidate.getAttribute('Binding') === BINDING[binding]);
    const url = service?.getAttribute('Location')?.trim();
    if (url) return { url, binding };
  }
  return null;
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Certificates of KeyDescriptors for signing (or for any use, when `use` is absent), deduplicated. */
function signingCertificates(descriptor: Element): IdpCertificate[] | 'unreadable' {
  const found = new Map<string, IdpCertificate>();
  for (const key of childElements(descriptor, NS.metadata, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const element of descendants(key, NS.dsig, 'X509Certificate')) {
      const body = (element.textContent ?? '').replace(/\s+/g, '');
      const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
      let certificate: X509Certificate;
      try {
        certificate = new X509Certificate(pem);
      } catch {
        return 'unreadable';
      }
      found.set(certificate.fingerprint256, {
        pem,
        subject: certificate.subject.replace(/\n/g, ', '),
        notBefore: new Date(certificate.validFrom),
        notAfter: new Date(certificate.validTo),
      });
    }
  }
  return [...found.values()];
}

export interface ServiceProviderOptions {
  entityId: string;
  acsUrl: string;
  /** PEM of the certificate our AuthnRequests are signed with, when they are. */
  signingCert?: string | null;
  /** PEM of the certificate the IdP encrypts assertions to, when we hold its key. */
  encryptionCert?: string | null;
}

/** Our SP metadata, for the IdP's admin: signed assertions wanted, the ACS by HTTP-POST. */
export function serviceProviderMetadata(options: ServiceProviderOptions): string {
  const document = new DOMImplementation().createDocument(NS.metadata, 'md:EntityDescriptor', null);
  const root = document.documentElement as Element;
  root.setAttribute('entityID', options.entityId);
  const element = (parent: Element, name: string, attributes: Record<string, string> = {}) => {
    const child = document.createElementNS(NS.metadata, `md:${name}`);
    for (const [attribute, value] of Object.entries(attributes)) child.setAttribute(attribute, value);
    parent.appendChild(child);
    return child;
  };
  const sp = element(root, 'SPSSODescriptor', {
    AuthnRequestsSigned: options.signingCert ? 'true' : 'false',
    WantAssertionsSigned: 'true',
    protocolSupportEnumeration: NS.protocol,
  });
  for (const [use, pem] of [
    ['signing', options.signingCert],
    ['encryption', options.encryptionCert],
  ] as const) {
    if (!pem) continue;
    const keyInfo = document.createElementNS(NS.dsig, 'ds:KeyInfo');
    const data = document.createElementNS(NS.dsig, 'ds:X509Data');
    const certificate = document.createElementNS(NS.dsig, 'ds:X509Certificate');
    certificate.appendChild(document.createTextNode(pemBody(pem)));
    data.appendChild(certificate);
    keyInfo.appendChild(data);
    element(sp, 'KeyDescriptor', { use }).appendChild(keyInfo);
  }
  for (const format of [
    'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  ])
    element(sp, 'NameIDFormat').appendChild(document.createTextNode(format));
  element(sp, 'AssertionConsumerService', {
    Binding: BINDING.post,
    Location: options.acsUrl,
    index: '0',
    isDefault: 'true',
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(document)}`;
}

/** A PEM certificate's base64 body on one line, as metadata carries it. */
function pemBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
