import type { SsoIdentity } from '../role-mapping.js';

/**
 * What a verified SAML assertion says of a person, as an `SsoIdentity`: pure, so how Entra ID's,
 * Okta's and Google's attribute names are read is unit-tested alone.
 */

/** Where IdPs put group memberships when the provider names no attribute of its own. */
export const DEFAULT_GROUP_ATTRIBUTES = [
  'groups',
  'memberOf',
  'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  // eduPerson isMemberOf (Shibboleth, Grouper)
  'urn:oid:1.3.6.1.4.1.5923.1.5.1.1',
] as const;

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'cn',
];

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** What @node-saml hands over of a verified assertion. */
export interface AssertionContent {
  nameID: string;
  nameIDFormat: string | null;
  /** Attribute name → value(s); a value with child elements arrives as an object and is ignored. */
  attributes: Readonly<Record<string, unknown>>;
}

const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is string => typeof item === 'string' && item.trim() !== '',
  );

const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);

function firstOf(attributes: Readonly<Record<string, unknown>>, names: readonly string[]): string | null {
  for (const name of names) {
    const [value] = strings(attributes[name]);
    if (value) return value.trim();
  }
  return null;
}

/**
 * The person: subject = NameID; e-mail from an e-mail NameID, else the first e-mail attribute;
 * groups from `groupsAttribute` when the provider names one, else from the usual attributes;
 * every other attribute a claim (for claim rules).
 */
export function identityOfAssertion(
  content: AssertionContent,
  groupsAttribute: string | null = null,
): SsoIdentity {
  const { attributes } = content;
  const nameIdEmail =
    content.nameIDFormat === EMAIL_NAME_ID || looksLikeEmail(content.nameID) ? content.nameID : null;
  const email = [nameIdEmail, firstOf(attributes, EMAIL_ATTRIBUTES)]
    .map((candidate) => candidate?.trim().toLowerCase() ?? null)
    .find((candidate) => candidate !== null && looksLikeEmail(candidate));
  const groupNames: readonly string[] = groupsAttribute ? [groupsAttribute] : DEFAULT_GROUP_ATTRIBUTES;
  const groups = [...new Set(groupNames.flatMap((name) => strings(attributes[name])))];
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (groupNames.includes(name)) continue;
    const values = strings(value);
    if (values.length > 0) claims[name] = Array.isArray(value) ? values : values[0];
  }
  const given = firstOf(attributes, [
    'givenName',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  ]);
  const surname = firstOf(attributes, [
    'sn',
    'surname',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  ]);
  const name = firstOf(attributes, NAME_ATTRIBUTES) ?? ([given, surname].filter(Boolean).join(' ') || null);
  return { subject: content.nameID, email: email ?? null, name, groups, claims };
}
