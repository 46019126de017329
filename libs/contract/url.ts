import { z } from 'zod';

/**
 * An absolute http(s) URL without credentials (they belong in a header or a write-only secret);
 * `credentialsHint` says where they go instead.
 */
export function absoluteHttpUrl(credentialsHint: string) {
  return z
    .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })
    .max(2048)
    .refine((value) => {
      // zod runs this even when the URL check above failed.
      const parsed = URL.canParse(value) ? new URL(value) : null;
      return !parsed || (parsed.username === '' && parsed.password === '');
    }, `must not contain credentials; ${credentialsHint}`);
}
