import type { ConfigProblem, ConfigValue } from './connector.js';
import { endpoint, text } from './message-parts.js';

/**
 * Where a provider's API is: `apiBaseUrl`, so a self-hosted gateway, a proxy or a test receiver can
 * stand in for the provider (requests go through the same SSRF guard as webhooks). Null: the
 * provider's public API.
 */
export const optionalApiBase = (publicBase: string, note = '') =>
  endpoint
    .nullable()
    .describe(
      `The API’s base URL; null: ${publicBase}${note}. A self-hosted gateway, proxy or test receiver stands in`,
    );

/** For self-hosted tools: the server's own URL, required. */
export const serverApiBase = (example: string) =>
  endpoint.describe(`Your server’s base URL, e.g. ${example}`);

/** The base the requests go to, without a trailing slash: `apiBaseUrl`, the former field's value, or `publicBase`. */
export function apiBase(
  config: Readonly<Record<string, ConfigValue>>,
  publicBase: string,
  formerField?: string,
): string {
  const base = text(config.apiBaseUrl) || (formerField ? text(config[formerField]) : '') || publicBase;
  return base.replace(/\/+$/, '');
}

/** A field `apiBaseUrl` replaces: still read, for API clients and channels stored before. */
export const formerApiBase = endpoint
  .nullable()
  .describe('Former name of apiBaseUrl, still read when apiBaseUrl is not set');

/**
 * `apiBaseUrl` and its former name disagree: one of them. The former field holding its old default
 * (every channel made before stored it) does not count.
 */
export function formerApiBaseProblems(
  config: Readonly<Record<string, unknown>>,
  field: string,
  formerDefault: string,
): ConfigProblem[] {
  const former = config[field];
  const base = config.apiBaseUrl;
  if (base == null || former == null || former === formerDefault || former === base) return [];
  return [
    {
      path: `config.${field}`,
      message: `is apiBaseUrl’s former name and says otherwise: give apiBaseUrl alone (send ${field}: null)`,
    },
  ];
}
