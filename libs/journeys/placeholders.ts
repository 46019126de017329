import { secretForms } from '../placeholders/index.js';

/**
 * What a journey's run blanks: its secrets in every form HTTP evidence blanks them (libs/placeholders
 * fills and masks for journeys and API flows alike), and the header its basic auth sends.
 */

// The runner and the trace's masking blank their texts through here (`maskSecrets`).
export { maskSecrets } from '../placeholders/index.js';

/** UTF-8 then base64, as Chromium encodes basic auth's user and password. */
function base64Of(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The texts a run must blank wherever it writes (log lines, results, evidence, the trace): each
 * secret's value in every form `secretForms` lists (as typed, URL-encoded, JSON- and HTML-escaped,
 * a credential after its scheme, a cookie's pairs), and the `Authorization` value HTTP basic auth
 * sends. Longest first, so that a secret containing another is blanked whole.
 */
export function secretMasks(opened: {
  secrets: Readonly<Record<string, string>>;
  /** The journey's basic auth with its placeholders filled, when it has one. */
  basicAuth?: { username: string; password: string } | null;
}): string[] {
  const { basicAuth } = opened;
  const sent = basicAuth ? [`Basic ${base64Of(`${basicAuth.username}:${basicAuth.password}`)}`] : [];
  return secretForms([...Object.values(opened.secrets), ...sent]);
}
