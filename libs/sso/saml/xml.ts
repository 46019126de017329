import { DOMParser } from '@xmldom/xmldom';

/**
 * XML from outside (an IdP's metadata) parsed with the DOM parser that @node-saml, xml-crypto and
 * xml-encryption already use for SAML responses, so one parser's quirks are known, not two.
 */

export const MAX_XML_BYTES = 1024 * 1024;

export const NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
} as const;

/**
 * Parses `xml` or throws an Error whose message says what is wrong. A document type declaration is
 * refused outright: SAML never needs one, and refusing it rules out external entities (XXE) and
 * entity expansion bombs whatever the parser would do with them.
 */
export function parseXml(xml: string): Document {
  if (Buffer.byteLength(xml, 'utf8') > MAX_XML_BYTES)
    throw new Error(`is larger than ${MAX_XML_BYTES / 1024} KiB`);
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml))
    throw new Error('holds a document type declaration (DOCTYPE or ENTITY), which SAML never needs');
  const problems: string[] = [];
  const report = (message: string) => problems.push(message.replace(/^\[xmldom \w+\]\s*/, '').trim());
  const document = new DOMParser({
    errorHandler: { warning: () => {}, error: report, fatalError: report },
  }).parseFromString(xml, 'text/xml');
  if (problems.length > 0 || !document?.documentElement)
    throw new Error(`is not well-formed XML (${problems[0]?.split('\n')[0] ?? 'no root element'})`);
  return document;
}

/** The element children of `parent` in `namespace` named `localName` (direct children only). */
export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.namespaceURI === namespace && element.localName === localName) found.push(element);
  }
  return found;
}

/** Every descendant of `parent` in `namespace` named `localName`, in document order. */
export function descendants(parent: Element | Document, namespace: string, localName: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(namespace, localName));
}
