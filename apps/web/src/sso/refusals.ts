/**
 * What the sign-in page says for each reason a single sign-on was refused (`?sso-error=`): what
 * happened and whom to ask, never more than the reason code carries. Pure: unit-tested.
 */
const SENTENCES: Record<string, string> = {
  'provider-unknown':
    'This sign-in link names no identity provider that is set up: ask your admin for the right one.',
  'provider-disabled':
    'Signing in with this provider is turned off: ask your admin to turn it on, or sign in another way.',
  'provider-unreachable':
    'Your identity provider could not be reached: try again in a minute; if it goes on, ask your admin to test the provider’s connection.',
  'provider-error':
    'Your identity provider refused the sign-in: ask your admin to check the provider’s settings (client id, secret, redirect URL).',
  'sign-in-cancelled':
    'The sign-in was cancelled at your identity provider: start again with the button below.',
  'sign-in-expired': 'That sign-in took too long or was used already: start again with the button below.',
  'token-invalid':
    'Your identity provider’s answer could not be verified: try again; if it goes on, ask your admin to test the provider’s connection.',
  'assertion-invalid':
    'Your identity provider’s answer could not be verified: try again; if it goes on, ask your admin to test the provider’s connection.',
  'assertion-replayed':
    'That answer of your identity provider was used already (a sign-in is good once): start again with the button below.',
  'idp-initiated-not-allowed':
    'Signing in from your identity provider’s app portal is off for this provider: start again with the button below; your admin can allow sign-ins that start at the provider.',
  'email-missing':
    'Your identity provider sent no verified e-mail address: ask your admin to release the e-mail claim to webmon.',
  'email-domain-not-allowed':
    'Your e-mail address’s domain may not sign in with this provider: ask your admin to add it to the provider’s allowed domains.',
  'email-taken': 'Your e-mail address belongs to an account of another organization: ask your admin.',
  'account-linked-elsewhere':
    'Your account signs in through another identity provider: use that one, or ask your admin to link this provider.',
  'not-this-customers-account':
    'This identity provider signs in its customer’s people only, and your account is not one of them: sign in the way your account does, or ask your admin.',
  'no-role':
    'Your identity provider gave you no role in webmon: ask your admin to add you to a group the provider’s role mapping names.',
  'ambiguous-customer':
    'Your groups make you a client of more than one customer: ask your admin to leave you in one customer’s group.',
  'account-disabled': 'Your account is deactivated: ask your admin to activate it.',
  'link-expired': 'Linking your account took too long: sign in with your provider again.',
};

export function refusalSentence(reason: string | undefined | null): string | null {
  if (!reason) return null;
  return SENTENCES[reason] ?? 'Single sign-on did not work: try again, or ask your admin.';
}

/**
 * Refusals that another try may get past (the sentence says to start or try again): the sign-in
 * page offers the provider's button for them. The others need the admin first.
 */
const RETRYABLE = new Set([
  'provider-unreachable',
  'sign-in-cancelled',
  'sign-in-expired',
  'token-invalid',
  'assertion-invalid',
  'assertion-replayed',
  'idp-initiated-not-allowed',
  'link-expired',
]);

export function offersRetry(reason: string | undefined | null): boolean {
  return !!reason && RETRYABLE.has(reason);
}
