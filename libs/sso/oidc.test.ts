import { describe, expect, it } from 'vitest';
import { plainHttpAllowed } from './guarded-fetch.js';
import { identityOf } from './oidc.js';

describe('identityOf', () => {
  it('reads the standard claims and keeps the others for claim rules', () => {
    expect(
      identityOf({
        sub: 'abc',
        email: ' Ada@Agency.Example ',
        email_verified: true,
        name: 'Ada',
        groups: ['ops', 7],
        department: 'ops',
      }),
    ).toEqual({
      subject: 'abc',
      email: 'ada@agency.example',
      name: 'Ada',
      groups: ['ops', '7'],
      claims: { department: 'ops', email_verified: true },
    });
  });

  it('takes no e-mail the provider says it has not verified, and one group as a list', () => {
    const identity = identityOf({ sub: 's', email: 'x@y.example', email_verified: false, groups: 'solo' });
    expect(identity.email).toBeNull();
    expect(identity.groups).toEqual(['solo']);
  });
});

describe('plainHttpAllowed', () => {
  const guard = { allowPrivateTargets: false, exemptAddresses: [{ address: '127.0.0.1', port: 8080 }] };
  it('allows http only to an address the operator exempted, or in a lab', () => {
    expect(plainHttpAllowed(new URL('https://idp.example'), guard)).toBe(true);
    expect(plainHttpAllowed(new URL('http://127.0.0.1:8080/'), guard)).toBe(true);
    expect(plainHttpAllowed(new URL('http://127.0.0.1:8081/'), guard)).toBe(false);
    expect(plainHttpAllowed(new URL('http://idp.example/'), guard)).toBe(false);
    expect(plainHttpAllowed(new URL('http://93.184.216.34/'), guard)).toBe(false);
    expect(plainHttpAllowed(new URL('http://idp.example/'), { ...guard, allowPrivateTargets: true })).toBe(
      true,
    );
  });
});
