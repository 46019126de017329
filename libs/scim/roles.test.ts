import { describe, expect, it } from 'vitest';
import { currentGrant } from './roles.js';

describe("a SCIM token's authority: its maker's now", () => {
  it('is the lesser of its grant and its maker’s role today', () => {
    expect(currentGrant('owner', { role: 'owner' })).toEqual({ grant: 'owner' });
    expect(currentGrant('owner', { role: 'admin' })).toEqual({ grant: 'admin' });
    expect(currentGrant('admin', { role: 'owner' })).toEqual({ grant: 'admin' });
  });

  it('is none once the maker is gone, deactivated or neither owner nor admin', () => {
    expect(currentGrant('owner', null)).toEqual({ refused: 'maker-gone' });
    expect(currentGrant('owner', { role: 'owner', disabledAt: new Date() })).toEqual({
      refused: 'maker-deactivated',
    });
    expect(currentGrant('admin', { role: 'editor' })).toEqual({ refused: 'maker-not-admin' });
    expect(currentGrant('admin', { role: 'client' })).toEqual({ refused: 'maker-not-admin' });
  });
});
