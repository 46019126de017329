import { escapeXml } from '../../connectors/index.js';
import type { AuthnRequestForm } from './service-provider.js';

/**
 * The page that sends an AuthnRequest by HTTP-POST: a form to the IdP, submitted by a script the
 * page's CSP allows by its nonce alone (no inline handler), with a button for a browser without
 * scripts. The fields are escaped: the IdP's URL comes from metadata an admin pasted.
 */
export function authnRequestPage(form: AuthnRequestForm, nonce: string): string {
  const inputs = Object.entries(form.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeXml(name)}" value="${escapeXml(value)}">`)
    .join('');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head><body>',
    `<form method="post" action="${escapeXml(form.action)}">${inputs}`,
    '<p>Taking you to your identity provider… <button type="submit">Continue</button></p></form>',
    `<script nonce="${escapeXml(nonce)}">document.forms[0].submit()</script>`,
    '</body></html>',
  ].join('');
}

/** The page's policy: nothing loads but its own script; it may not be framed. */
export const authnRequestPagePolicy = (nonce: string) => [
  "default-src 'none'",
  `script-src 'nonce-${nonce}'`,
];
