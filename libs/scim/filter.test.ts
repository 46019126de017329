import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index.js';
import { GROUP_ATTRIBUTES, USER_ATTRIBUTES } from './attributes.js';
import { matches, parseFilter } from './filter.js';

const ada = {
  id: '12',
  externalId: 'AdaL',
  userName: 'Ada@Agency.example',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  active: true,
  emails: [
    { value: 'ada@agency.example', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
  meta: { created: '2026-11-30T08:00:00.000Z' },
};

const userMatches = (filter: string) => matches(parseFilter(filter, USER_ATTRIBUTES), ada);

/** The scimType and detail a refused filter answers. */
function refusal(filter: string, attributes = USER_ATTRIBUTES) {
  try {
    parseFilter(filter, attributes);
  } catch (error) {
    if (error instanceof DomainError) return { scimType: error.code, detail: error.detail };
    throw error;
  }
  throw new Error(`accepted: ${filter}`);
}

describe('SCIM filters', () => {
  it('reads what Entra ID and Okta send', () => {
    expect(userMatches('userName eq "ada@agency.example"')).toBe(true);
    expect(userMatches('userName eq "grace@agency.example"')).toBe(false);
    expect(userMatches('externalId eq "AdaL"')).toBe(true);
    // externalId is case-exact, userName is not.
    expect(userMatches('externalId eq "adal"')).toBe(false);
    expect(userMatches('emails[type eq "work"].value eq "ADA@agency.example"')).toBe(true);
    expect(userMatches('emails[type eq "home"].value eq "ada@agency.example"')).toBe(false);
    expect(userMatches('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ada@agency.example"')).toBe(
      true,
    );
    expect(
      matches(parseFilter('displayName eq "Ops \\"night\\" team"', GROUP_ATTRIBUTES), {
        displayName: 'Ops "night" team',
      }),
    ).toBe(true);
  });

  it('has the grammar: operators in any case, and/or/not with precedence, parentheses, pr', () => {
    expect(userMatches('userName EQ "ada@agency.example" AND active eq true')).toBe(true);
    expect(userMatches('userName sw "ada" and name.familyName co "love"')).toBe(true);
    expect(userMatches('externalId eq "x" or externalId eq "AdaL" and active eq false')).toBe(false);
    expect(userMatches('(externalId eq "x" or externalId eq "AdaL") and active eq true')).toBe(true);
    expect(userMatches('not (active eq true)')).toBe(false);
    expect(userMatches('displayName pr')).toBe(false);
    expect(userMatches('emails pr and emails.type eq "home"')).toBe(true);
    expect(userMatches('meta.created gt "2026-11-01T00:00:00Z"')).toBe(true);
    expect(userMatches('userName ne "ada@agency.example"')).toBe(false);
  });

  it('refuses what it cannot read with invalidFilter, saying where', () => {
    expect(refusal('userName eq')).toEqual({
      scimType: 'invalidFilter',
      detail: 'filter: expected a value at the end',
    });
    expect(refusal('title eq "CEO"')).toMatchObject({ detail: 'filter: no attribute "title" to filter by' });
    expect(refusal('userName like "ada"')).toMatchObject({ scimType: 'invalidFilter' });
    expect(refusal('userName eq ada')).toMatchObject({ detail: expect.stringContaining('double quotes') });
    expect(refusal('userName eq "ada')).toMatchObject({ detail: 'filter: the string at 13 is not closed' });
    expect(refusal('(userName eq "a"')).toMatchObject({ detail: 'filter: expected ")" at the end' });
    expect(refusal('userName eq "a" extra')).toMatchObject({ detail: 'filter: unexpected "extra" at 17' });
    expect(refusal('userName[value eq "a"]')).toMatchObject({ scimType: 'invalidFilter' });
    expect(refusal('members[nope eq "1"]', GROUP_ATTRIBUTES)).toMatchObject({ scimType: 'invalidFilter' });
    expect(refusal('')).toMatchObject({ detail: 'filter: the filter is empty' });
    expect(refusal(`${'not ('.repeat(30)}active eq true${')'.repeat(30)}`)).toMatchObject({
      detail: 'filter: nested deeper than 20',
    });
  });
});
