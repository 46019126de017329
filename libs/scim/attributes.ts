/**
 * The attributes of SCIM's User and Group as webmon serves them (RFC 7643 §4.1, §4.2): one table
 * that filters and PATCH paths are resolved against and that `/Schemas` is written from.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

export type AttributeType = 'string' | 'boolean' | 'dateTime' | 'reference' | 'complex';

export interface Attribute {
  name: string;
  type: AttributeType;
  multiValued?: true;
  /** Compared as written (`externalId`, ids); else case-insensitively (`userName`, e-mails). */
  caseExact?: true;
  required?: true;
  /** Set by webmon alone: a client writing it is refused (`mutability`). */
  readOnly?: true;
  uniqueness?: 'server';
  description: string;
  subAttributes?: readonly Attribute[];
}

const id: Attribute = {
  name: 'id',
  type: 'string',
  caseExact: true,
  readOnly: true,
  uniqueness: 'server',
  description: "webmon's identifier of the resource",
};
const externalId: Attribute = {
  name: 'externalId',
  type: 'string',
  caseExact: true,
  description: "The provisioning client's identifier of the resource",
};
const meta: Attribute = {
  name: 'meta',
  type: 'complex',
  readOnly: true,
  description: 'Resource metadata',
  subAttributes: [
    { name: 'resourceType', type: 'string', caseExact: true, readOnly: true, description: 'User or Group' },
    { name: 'created', type: 'dateTime', readOnly: true, description: 'When it was made' },
    { name: 'lastModified', type: 'dateTime', readOnly: true, description: 'When it last changed' },
    { name: 'location', type: 'reference', readOnly: true, description: 'Its URI' },
  ],
};
const member = (readOnly: boolean, what: string): Attribute => ({
  name: 'value',
  type: 'string',
  caseExact: true,
  ...(readOnly ? { readOnly: true as const } : {}),
  description: `The ${what}'s id`,
});

export const USER_ATTRIBUTES: readonly Attribute[] = [
  id,
  externalId,
  {
    name: 'userName',
    type: 'string',
    required: true,
    uniqueness: 'server',
    description: "The person's e-mail address, with which they sign in (unique across webmon)",
  },
  {
    name: 'name',
    type: 'complex',
    description: "The person's name",
    subAttributes: [
      { name: 'formatted', type: 'string', description: 'The full name' },
      { name: 'givenName', type: 'string', description: 'Given name' },
      { name: 'familyName', type: 'string', description: 'Family name' },
    ],
  },
  { name: 'displayName', type: 'string', description: 'The name webmon shows' },
  {
    name: 'active',
    type: 'boolean',
    description: 'false deactivates the person: their sessions end at once and their tokens are revoked',
  },
  {
    name: 'emails',
    type: 'complex',
    multiValued: true,
    description: 'E-mail addresses (webmon signs the person in with userName)',
    subAttributes: [
      { name: 'value', type: 'string', description: 'The address' },
      { name: 'type', type: 'string', description: 'work, home or other' },
      { name: 'primary', type: 'boolean', description: 'The primary address' },
    ],
  },
  {
    name: 'groups',
    type: 'complex',
    multiValued: true,
    readOnly: true,
    description: 'The groups the person is in (change them through Groups)',
    subAttributes: [
      member(true, 'group'),
      { name: 'display', type: 'string', readOnly: true, description: "The group's displayName" },
    ],
  },
  meta,
];

export const GROUP_ATTRIBUTES: readonly Attribute[] = [
  id,
  externalId,
  {
    name: 'displayName',
    type: 'string',
    required: true,
    uniqueness: 'server',
    description: "The group's name, as role mapping rules name it",
  },
  {
    name: 'members',
    type: 'complex',
    multiValued: true,
    description: 'The people in the group',
    subAttributes: [
      member(false, 'user'),
      { name: 'display', type: 'string', readOnly: true, description: "The person's displayName" },
    ],
  },
  meta,
];

/** The attribute named `name` (case-insensitively, RFC 7643 §2.1) among `attributes`. */
export function attributeNamed(attributes: readonly Attribute[], name: string): Attribute | undefined {
  const wanted = name.toLowerCase();
  return attributes.find((attribute) => attribute.name.toLowerCase() === wanted);
}

/** A resource schema as `GET /Schemas` lists it (RFC 7643 §7), with the defaults spelled out. */
export function schemaDocument(schemaId: string, name: string, attributes: readonly Attribute[]) {
  const describe = (attribute: Attribute): Record<string, unknown> => ({
    name: attribute.name,
    type: attribute.type,
    multiValued: attribute.multiValued ?? false,
    description: attribute.description,
    required: attribute.required ?? false,
    caseExact: attribute.caseExact ?? false,
    mutability: attribute.readOnly ? 'readOnly' : 'readWrite',
    returned: attribute.name === 'id' ? 'always' : 'default',
    uniqueness: attribute.uniqueness ?? 'none',
    ...(attribute.subAttributes ? { subAttributes: attribute.subAttributes.map(describe) } : {}),
  });
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: schemaId,
    name,
    description: `${name} as webmon keeps it`,
    attributes: attributes.map(describe),
    meta: { resourceType: 'Schema', location: `/scim/v2/Schemas/${schemaId}` },
  };
}
