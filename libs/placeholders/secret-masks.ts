/**
 * What a secret may appear as in what a check or a journey saw, and blanking it: HTTP check
 * evidence, API flows' verdicts and evidence, and browser journeys' outputs share these forms, so a
 * secret hidden in one is hidden in all. Runs in the browser app too, so it uses no Node API.
 */

/** Shorter secrets and forms are not masked: blanking every "ab" would hide the text, not the secret. */
export const MIN_MASKED_CHARS = 4;

const REDACTED = '[redacted]';

/** Base64 (standard or URL-safe alphabet) decoded as UTF-8; empty when it is not base64. */
function decodedBase64(text: string): string {
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return '';
  }
}

/**
 * What secret values may appear as in an answer or a page, longest first (so that a secret holding
 * another is blanked whole): each value itself, its credential after an auth scheme (`Bearer
 * tok_…`: `tok_…`), a Basic pair decoded and its password, a cookie header's pairs and their
 * values, and each of those URL-encoded, JSON- and HTML-escaped (`escapedForms`).
 */
export function secretForms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    const parts = [value];
    const scheme = /^([A-Za-z][\w-]*)\s+(\S.*)$/.exec(value);
    if (scheme?.[1] && scheme[2]) {
      parts.push(scheme[2]);
      const decoded = scheme[1].toLowerCase() === 'basic' ? decodedBase64(scheme[2]) : '';
      if (decoded.includes(':')) parts.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
    }
    // A cookie header's pairs and values, as a debug page lists them one by one.
    for (const pair of value.split(';').map((piece) => piece.trim())) {
      const at = pair.indexOf('=');
      if (at > 0 && value.includes(';')) parts.push(pair, pair.slice(at + 1));
    }
    for (const part of parts) for (const form of escapedForms(part)) forms.add(form);
  }
  return [...forms].filter((form) => form.length >= MIN_MASKED_CHARS).sort((a, b) => b.length - a.length);
}

/** A value as encoders write it: URL-encoded (either case, `+` for spaces), JSON-escaped (with `\\/`, Go's `\\u0026`) and HTML-escaped. */
function escapedForms(part: string): string[] {
  const encoded = encodeURIComponent(part);
  const json = JSON.stringify(part).slice(1, -1);
  const goJson = json.replaceAll('&', '\\u0026').replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');
  const html = part
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
  return [
    part,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
    encoded.replaceAll('%20', '+'),
    part.replaceAll('/', '\\/'),
    json,
    json.replaceAll('/', '\\/'),
    goJson,
    goJson.replaceAll('/', '\\/'),
    html,
  ];
}

/** The text with each mask (from `secretForms`, longest first) replaced by "[redacted]". */
export function maskSecrets(text: string, masks: readonly string[]): string {
  let masked = text;
  for (const mask of masks) if (masked.includes(mask)) masked = masked.split(mask).join(REDACTED);
  return masked;
}
