import { describe, expect, it } from 'vitest';
import { groupResource, listPage, personNameOf, project, scimUserInput, userResource } from './resources.js';

const input = (body: Record<string, unknown>) =>
  scimUserInput.parse({ userName: 'ada@agency.example', ...body });

describe('SCIM resources', () => {
  it("names a person from displayName, else the formatted name, else the parts, else the address's local part", () => {
    expect(personNameOf(input({ displayName: 'Ada L.', name: { formatted: 'Ada Lovelace' } }))).toBe(
      'Ada L.',
    );
    expect(personNameOf(input({ name: { formatted: 'Ada Lovelace', givenName: 'A' } }))).toBe('Ada Lovelace');
    expect(personNameOf(input({ name: { givenName: 'Ada', familyName: 'Lovelace' } }))).toBe('Ada Lovelace');
    expect(personNameOf(input({}))).toBe('ada');
    expect(personNameOf(input({ displayName: 'x'.repeat(150) }))).toHaveLength(100);
  });

  it('reads userName as a lowercased address and Entra’s string booleans', () => {
    expect(scimUserInput.parse({ userName: ' Ada@Agency.Example ', active: 'False' })).toMatchObject({
      userName: 'ada@agency.example',
      active: false,
    });
    expect(scimUserInput.safeParse({ userName: 'not an address' }).success).toBe(false);
  });

  it('represents a person with their groups and a work e-mail when SCIM stored none', () => {
    const user = {
      id: 7,
      email: 'ada@agency.example',
      name: 'Ada',
      createdAt: new Date(0),
      disabledAt: new Date(1),
    };
    const group = {
      organizationId: 1,
      id: 3,
      displayName: 'Ops',
      externalId: null,
      members: [7, 9],
      createdAt: new Date(0),
      updatedAt: new Date(0),
    };
    expect(userResource(user, null, [group], 'https://w.example/scim/v2')).toMatchObject({
      id: '7',
      active: false,
      emails: [{ value: 'ada@agency.example', type: 'work', primary: true }],
      groups: [{ value: '3', display: 'Ops', $ref: 'https://w.example/scim/v2/Groups/3' }],
      meta: { location: 'https://w.example/scim/v2/Users/7' },
    });
    // 9 was removed through the users API since: no member any more.
    expect(groupResource(group, new Map([[7, 'Ada']]), '').members).toEqual([
      { value: '7', display: 'Ada', $ref: '/Users/7' },
    ]);
  });

  it('keeps or drops the attributes asked for, schemas and id always', () => {
    const resource = { schemas: ['s'], id: '1', userName: 'a', emails: [], name: { givenName: 'A' } };
    expect(project(resource, ['userName', 'name.givenName'], null)).toEqual({
      schemas: ['s'],
      id: '1',
      userName: 'a',
      name: { givenName: 'A' },
    });
    expect(project(resource, null, ['EMAILS', 'id'])).toEqual({
      schemas: ['s'],
      id: '1',
      userName: 'a',
      name: { givenName: 'A' },
    });
  });

  it('pages from startIndex 1, count 0 answering the total alone', () => {
    expect(listPage(['a', 'b', 'c'], 2, 1)).toMatchObject({
      totalResults: 3,
      startIndex: 2,
      itemsPerPage: 1,
      Resources: ['b'],
    });
    expect(listPage(['a', 'b', 'c'], 1, 0)).toMatchObject({
      totalResults: 3,
      itemsPerPage: 0,
      Resources: [],
    });
    expect(listPage(['a'], 5, 10)).toMatchObject({ totalResults: 1, itemsPerPage: 0, Resources: [] });
  });
});
