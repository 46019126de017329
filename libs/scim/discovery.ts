import {
  GROUP_ATTRIBUTES,
  GROUP_SCHEMA,
  schemaDocument,
  USER_ATTRIBUTES,
  USER_SCHEMA,
} from './attributes.js';

/** Filtered lists answer at most this many resources a page. */
export const MAX_RESULTS = 200;
/** PATCH operations in one request at most. */
export const MAX_OPERATIONS = 1000;

/** What webmon's SCIM service does (RFC 7643 §5): PATCH and filters, no bulk, sort, ETags or password changes. */
export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description: 'A SCIM token of the organization (its settings, SCIM), as Authorization: Bearer',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  const type = (name: 'User' | 'Group', endpoint: string, schema: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: name,
    name,
    endpoint,
    description: name === 'User' ? 'A person of the organization' : 'A group of people, mapped to roles',
    schema,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${name}` },
  });
  return [type('User', '/Users', USER_SCHEMA), type('Group', '/Groups', GROUP_SCHEMA)];
}

export function schemas() {
  return [
    schemaDocument(USER_SCHEMA, 'User', USER_ATTRIBUTES),
    schemaDocument(GROUP_SCHEMA, 'Group', GROUP_ATTRIBUTES),
  ];
}
