import { describe, expect, it } from 'vitest';
import { authnRequestPage, authnRequestPagePolicy } from './post-binding.js';

describe('authnRequestPage', () => {
  it('escapes the IdP’s URL and the fields, and runs only the script of its nonce', () => {
    const page = authnRequestPage(
      {
        action: 'https://idp.example/sso?a=1&b="><script>x()</script>',
        fields: { SAMLRequest: 'PD94+/=', RelayState: '_ab"c' },
      },
      'n0nce',
    );
    expect(page).toContain(
      'action="https://idp.example/sso?a=1&amp;b=&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"',
    );
    expect(page).toContain('<input type="hidden" name="SAMLRequest" value="PD94+/=">');
    expect(page).toContain('value="_ab&quot;c"');
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toContain('<script nonce="n0nce">document.forms[0].submit()</script>');
    expect(page).toContain('<button type="submit">Continue</button>');
    expect(authnRequestPagePolicy('n0nce')).toEqual(["default-src 'none'", "script-src 'nonce-n0nce'"]);
  });
});
