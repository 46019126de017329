import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index.js';
import { GROUP_ATTRIBUTES, GROUP_SCHEMA, USER_ATTRIBUTES, USER_SCHEMA } from './attributes.js';
import { applyPatch, type PatchOperation, patchBody } from './patch.js';

const user = {
  schemas: [USER_SCHEMA],
  id: '12',
  userName: 'ada@agency.example',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  displayName: 'Ada Lovelace',
  active: true,
  emails: [{ value: 'ada@agency.example', type: 'work', primary: true }],
  groups: [],
  meta: { resourceType: 'User' },
};
const group = {
  schemas: [GROUP_SCHEMA],
  id: '3',
  displayName: 'Ops',
  members: [{ value: '12' }, { value: '13' }],
};

/** The operations as a client sends them, read by the body's schema. */
const ops = (operations: unknown[]): PatchOperation[] =>
  patchBody.parse({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations })
    .Operations;
const patchUser = (operations: unknown[]) => applyPatch(user, ops(operations), USER_ATTRIBUTES, USER_SCHEMA);
const patchGroup = (operations: unknown[]) =>
  applyPatch(group, ops(operations), GROUP_ATTRIBUTES, GROUP_SCHEMA);

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { scimType: error.code, detail: error.detail };
    throw error;
  }
  throw new Error('accepted');
}

describe('SCIM PATCH as the providers send it', () => {
  it("Entra ID: Replace with a path, string booleans, the work e-mail's value", () => {
    expect(patchUser([{ op: 'Replace', path: 'active', value: 'False' }])).toMatchObject({ active: false });
    expect(
      patchUser([
        { op: 'Replace', path: 'displayName', value: 'Ada King' },
        { op: 'Replace', path: 'name.familyName', value: 'King' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ada.king@agency.example' },
        { op: 'Add', path: 'emails[type eq "home"].value', value: 'ada@home.example' },
        { op: 'Add', path: 'title', value: 'Countess' },
        {
          op: 'Add',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'R&D',
        },
      ]),
    ).toEqual({
      ...user,
      displayName: 'Ada King',
      name: { givenName: 'Ada', familyName: 'King' },
      emails: [
        { value: 'ada.king@agency.example', type: 'work', primary: true },
        { type: 'home', value: 'ada@home.example' },
      ],
    });
  });

  it('Okta and Entra without a path: a value object of attributes, dotted or under the URN', () => {
    expect(patchUser([{ op: 'replace', value: { active: false } }])).toMatchObject({ active: false });
    expect(
      patchUser([
        { op: 'Replace', value: { 'name.givenName': 'Augusta', displayName: 'Augusta Ada', active: 'True' } },
      ]),
    ).toMatchObject({
      name: { givenName: 'Augusta', familyName: 'Lovelace' },
      displayName: 'Augusta Ada',
      active: true,
    });
    expect(patchUser([{ op: 'replace', value: { [USER_SCHEMA]: { active: false } } }])).toMatchObject({
      active: false,
    });
  });

  it('remove, and add merging into a complex attribute', () => {
    expect(patchUser([{ op: 'remove', path: 'name.givenName' }]).name).toEqual({ familyName: 'Lovelace' });
    expect(patchUser([{ op: 'add', path: 'name', value: { formatted: 'Ada L.' } }]).name).toEqual({
      givenName: 'Ada',
      familyName: 'Lovelace',
      formatted: 'Ada L.',
    });
    expect(patchUser([{ op: 'remove', path: 'emails[type eq "work"]' }]).emails).toEqual([]);
  });

  it("Groups: Entra's members add and remove with values, a filtered remove, replace", () => {
    expect(
      patchGroup([{ op: 'Add', path: 'members', value: [{ value: '14' }, { value: '12' }] }]).members,
    ).toEqual([{ value: '12' }, { value: '13' }, { value: '14' }]);
    expect(patchGroup([{ op: 'Remove', path: 'members', value: [{ value: '12' }] }]).members).toEqual([
      { value: '13' },
    ]);
    expect(patchGroup([{ op: 'remove', path: 'members[value eq "13"]' }]).members).toEqual([{ value: '12' }]);
    expect(patchGroup([{ op: 'replace', path: 'members', value: [{ value: '20' }] }]).members).toEqual([
      { value: '20' },
    ]);
    expect(patchGroup([{ op: 'replace', value: { displayName: 'Ops night' } }]).displayName).toBe(
      'Ops night',
    );
  });

  it('refuses read-only attributes, bad ops and paths, naming them', () => {
    expect(refusal(() => patchUser([{ op: 'replace', path: 'id', value: '99' }]))).toEqual({
      scimType: 'mutability',
      detail: 'id: is read-only: webmon sets it',
    });
    expect(refusal(() => patchUser([{ op: 'add', path: 'groups', value: [{ value: '3' }] }]))).toMatchObject({
      scimType: 'mutability',
    });
    expect(refusal(() => patchUser([{ op: 'remove' }]))).toMatchObject({ scimType: 'noTarget' });
    expect(refusal(() => patchUser([{ op: 'replace', value: 'x' }]))).toMatchObject({
      scimType: 'invalidSyntax',
    });
    expect(
      refusal(() => patchUser([{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }])),
    ).toMatchObject({ scimType: 'invalidPath' });
    expect(() => ops([{ op: 'move', path: 'active' }])).toThrow(/add, replace or remove/);
  });
});
