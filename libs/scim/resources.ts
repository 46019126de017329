import { z } from 'zod';
import { emailAddress, lineText } from '../contract/index.js';
import { GROUP_SCHEMA, LIST_SCHEMA, USER_SCHEMA } from './attributes.js';
import type { ScimGroup, ScimPerson } from './scim-store.js';

/**
 * SCIM's User and Group as clients write them (POST, PUT, and a resource after a PATCH) and as
 * webmon answers them. Attributes webmon does not keep are let through and ignored (RFC 7644 §3.3
 * leaves them to the service provider): Entra ID and Okta send titles, addresses and extensions.
 */

/** `true`, `false`, or Entra's `"True"`/`"False"`. */
const scimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i, 'must be true or false')
    .transform((value) => value.toLowerCase() === 'true'),
]);

const text = (max: number) => lineText(max).nullable().optional();

export const scimUserInput = z
  .looseObject({
    schemas: z.array(z.string()).optional(),
    userName: z
      .string()
      .trim()
      .pipe(emailAddress())
      .transform((address) => address.toLowerCase())
      .describe("The person's e-mail address: they sign in with it"),
    externalId: text(256),
    name: z
      .looseObject({ formatted: text(256), givenName: text(128), familyName: text(128) })
      .nullable()
      .optional(),
    displayName: text(256),
    active: scimBoolean.optional().describe('false deactivates the person (default true)'),
    emails: z
      .array(
        z.looseObject({
          value: z.string().max(254),
          type: text(32),
          primary: scimBoolean.optional(),
        }),
      )
      .max(20)
      .nullable()
      .optional(),
  })
  .meta({ id: 'ScimUserInput' });
export type ScimUserInput = z.output<typeof scimUserInput>;

export const scimGroupInput = z
  .looseObject({
    schemas: z.array(z.string()).optional(),
    displayName: lineText(256).min(1).describe('As role mapping rules name the group'),
    externalId: text(256),
    members: z
      .array(z.looseObject({ value: z.string().regex(/^\d{1,15}$/, "must be a webmon user's id") }))
      .max(10_000)
      .nullable()
      .optional(),
  })
  .meta({ id: 'ScimGroupInput' });
export type ScimGroupInput = z.output<typeof scimGroupInput>;

const meta = z.object({
  resourceType: z.enum(['User', 'Group']),
  created: z.iso.datetime(),
  lastModified: z.iso.datetime(),
  location: z.string(),
});

export const scimUserResource = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.string().optional(),
  userName: z.string(),
  name: z.object({
    formatted: z.string(),
    givenName: z.string().optional(),
    familyName: z.string().optional(),
  }),
  displayName: z.string(),
  active: z.boolean(),
  emails: z.array(
    z.object({ value: z.string(), type: z.string().optional(), primary: z.boolean().optional() }),
  ),
  groups: z.array(z.object({ value: z.string(), display: z.string(), $ref: z.string() })),
  meta,
});
export type ScimUserResource = z.output<typeof scimUserResource>;

export const scimGroupResource = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.string().optional(),
  displayName: z.string(),
  members: z.array(z.object({ value: z.string(), display: z.string(), $ref: z.string() })),
  meta,
});
export type ScimGroupResource = z.output<typeof scimGroupResource>;

/** As answered: `attributes` and `excludedAttributes` may leave out all but `schemas` and `id`. */
export const scimUserView = scimUserResource
  .partial()
  .required({ schemas: true, id: true })
  .meta({ id: 'ScimUser' });
export const scimGroupView = scimGroupResource
  .partial()
  .required({ schemas: true, id: true })
  .meta({ id: 'ScimGroup' });

/**
 * The resource with only the attributes asked for (`attributes`), or without those refused
 * (`excludedAttributes`), RFC 7644 §3.4.2.5: top-level names, case-insensitive; `schemas` and
 * `id` always stay.
 */
export function project<T extends Record<string, unknown>>(
  resource: T,
  attributes: readonly string[] | null,
  excluded: readonly string[] | null,
): T {
  const top = (names: readonly string[]) =>
    new Set(
      names.map((name) =>
        (name.toLowerCase().startsWith('urn:') ? name.slice(name.lastIndexOf(':') + 1) : name)
          .split('.')[0]
          ?.toLowerCase(),
      ),
    );
  const kept = attributes && top(attributes);
  const dropped = excluded && top(excluded);
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => {
      if (key === 'schemas' || key === 'id') return true;
      if (kept) return kept.has(key.toLowerCase());
      return !dropped?.has(key.toLowerCase());
    }),
  ) as T;
}

export const listResponse = <T extends z.ZodType>(resource: T, id: string) =>
  z
    .object({
      schemas: z.array(z.string()),
      totalResults: z.number().int(),
      startIndex: z.number().int(),
      itemsPerPage: z.number().int(),
      Resources: z.array(resource),
    })
    .meta({ id });

/** What a person is to webmon's users, for their SCIM representation. */
export interface PersonFacts {
  id: number;
  email: string;
  name: string;
  createdAt: Date;
  disabledAt?: Date | null | undefined;
}

export function userResource(
  user: PersonFacts,
  person: ScimPerson | null,
  groups: readonly ScimGroup[],
  base: string,
): ScimUserResource {
  const givenName = person?.givenName ?? undefined;
  const familyName = person?.familyName ?? undefined;
  const emails = person?.emails.length ? person.emails : [{ value: user.email, type: 'work', primary: true }];
  return {
    schemas: [USER_SCHEMA],
    id: String(user.id),
    ...(person?.externalId ? { externalId: person.externalId } : {}),
    userName: user.email,
    name: {
      formatted: person?.formatted ?? user.name,
      ...(givenName ? { givenName } : {}),
      ...(familyName ? { familyName } : {}),
    },
    displayName: user.name,
    active: !user.disabledAt,
    emails: emails.map((email) => ({
      value: email.value,
      ...(email.type ? { type: email.type } : {}),
      ...(email.primary !== undefined ? { primary: email.primary } : {}),
    })),
    groups: groups
      .filter((group) => group.members.includes(user.id))
      .map((group) => ({
        value: String(group.id),
        display: group.displayName,
        $ref: `${base}/Groups/${group.id}`,
      })),
    meta: {
      resourceType: 'User',
      created: user.createdAt.toISOString(),
      lastModified: (person?.updatedAt ?? user.createdAt).toISOString(),
      location: `${base}/Users/${user.id}`,
    },
  };
}

export function groupResource(
  group: ScimGroup,
  names: ReadonlyMap<number, string>,
  base: string,
): ScimGroupResource {
  return {
    schemas: [GROUP_SCHEMA],
    id: String(group.id),
    ...(group.externalId ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    // A member removed through the users API since is no member.
    members: group.members
      .filter((id) => names.has(id))
      .map((id) => ({
        value: String(id),
        display: names.get(id) ?? '',
        $ref: `${base}/Users/${id}`,
      })),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${base}/Groups/${group.id}`,
    },
  };
}

/** A page of resources (RFC 7644 §3.4.2.4): `startIndex` from 1, `count` 0 for the total alone. */
export function listPage<T>(resources: readonly T[], startIndex: number, count: number) {
  const page = resources.slice(startIndex - 1, startIndex - 1 + count);
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page,
  };
}

/** The name webmon shows for a person, from what SCIM said (a person's name is 1 to 100 characters). */
export function personNameOf(input: ScimUserInput): string {
  const parts = [input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ');
  const name =
    input.displayName || input.name?.formatted || parts || input.userName.split('@')[0] || input.userName;
  return name.slice(0, 100).trim() || input.userName.slice(0, 100);
}
