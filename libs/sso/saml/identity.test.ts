import { describe, expect, it } from 'vitest';
import { identityOfAssertion } from './identity.js';

const ENTRA_GROUPS = 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups';

describe('identityOfAssertion', () => {
  it('takes an e-mail NameID as the e-mail, groups from the usual attributes, the rest as claims', () => {
    expect(
      identityOfAssertion({
        nameID: 'Ada@Agency.Example',
        nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
        attributes: {
          groups: ['monitoring-admins', 'everyone'],
          [ENTRA_GROUPS]: 'f3b1c0de-guid',
          department: 'ops',
          displayName: 'Ada Lovelace',
          complex: { nested: ['x'] },
        },
      }),
    ).toEqual({
      subject: 'Ada@Agency.Example',
      email: 'ada@agency.example',
      name: 'Ada Lovelace',
      groups: ['monitoring-admins', 'everyone', 'f3b1c0de-guid'],
      claims: { department: 'ops', displayName: 'Ada Lovelace' },
    });
  });

  it('reads the e-mail from an attribute when the NameID is opaque, and a name from given name and surname', () => {
    const identity = identityOfAssertion({
      nameID: 'a1b2c3',
      nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: {
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': ' Grace@Agency.Example ',
        givenName: 'Grace',
        sn: 'Hopper',
        memberOf: 'cn=ops,dc=agency',
      },
    });
    expect(identity).toMatchObject({
      subject: 'a1b2c3',
      email: 'grace@agency.example',
      name: 'Grace Hopper',
      groups: ['cn=ops,dc=agency'],
    });
  });

  it('reads groups only from the attribute the provider names, which then is no claim', () => {
    const identity = identityOfAssertion(
      {
        nameID: 'x@agency.example',
        nameIDFormat: null,
        attributes: { groups: ['a'], roles: ['admins', 'ops'] },
      },
      'roles',
    );
    expect(identity.groups).toEqual(['admins', 'ops']);
    expect(identity.claims).toEqual({ groups: ['a'] });
  });

  it('has no e-mail when neither the NameID nor an attribute holds one', () => {
    expect(
      identityOfAssertion({ nameID: 'opaque', nameIDFormat: null, attributes: { mail: 'not an address' } })
        .email,
    ).toBeNull();
  });
});
