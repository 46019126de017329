import type { FieldError } from '../errors/index.js';
import type { SealedSecret, SecretBox } from '../secrets/index.js';

/** Headers whose values are credentials whatever the user says: always sealed, never returned. */
export const ALWAYS_SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
]);

/** A header's sealed value is bound to its website and (lower-case) name. */
export const secretHeaderContext = (websiteId: number, name: string) =>
  `websites/${websiteId}/secretHeaders/${name.toLowerCase()}`;
export const requestBodyContext = (websiteId: number) => `websites/${websiteId}/requestBody`;

export type HeaderPairs = Array<{ name: string; value: string }>;
export type SealedHeaders = Array<{ name: string; value: SealedSecret }>;

/** The parts of the request a website sends that are stored sealed (absent on older documents). */
export interface SecretRequestFields {
  secretHeaders?: SealedHeaders;
  requestBodySealed?: SealedSecret | null;
}

/** What a create or update says about the request's headers and body. */
export interface RequestInput {
  customHeaders?: Record<string, string> | undefined;
  secretHeaders?: Record<string, string | null> | undefined;
  requestBody?: string | null | undefined;
  requestBodySecret?: boolean | undefined;
}

export interface StoredRequest {
  customHeaders: HeaderPairs;
  secretHeaders: SealedHeaders;
  requestBody: string | null;
  requestBodySealed: SealedSecret | null;
}

/**
 * The headers and body after `input`, with every secret part sealed: the values of
 * Authorization, Proxy-Authorization and Cookie and of the headers sent in `secretHeaders`, and the
 * body while `requestBodySecret` holds. Secret parts are write-only: omitted (also in a full
 * update, since a client cannot send back what it cannot read) they are kept; `null` removes one.
 */
export function applyRequestInput(args: {
  websiteId: number;
  current: StoredRequest;
  input: RequestInput;
  /** A full update: clear headers and body not sent return to their defaults. */
  full: boolean;
  secrets: SecretBox;
}): { stored: StoredRequest; problems: FieldError[] } {
  const { websiteId, current, input, secrets } = args;
  const problems: FieldError[] = [];
  const seal = (name: string, value: string) => ({
    name,
    value: secrets.seal(value, secretHeaderContext(websiteId, name)),
  });

  const secret = new Map(current.secretHeaders.map((header) => [header.name.toLowerCase(), header]));
  for (const [name, value] of Object.entries(input.secretHeaders ?? {})) {
    if (value === null) secret.delete(name.toLowerCase());
    else secret.set(name.toLowerCase(), seal(name, value));
  }
  const sent = input.customHeaders ? Object.entries(input.customHeaders) : args.full ? [] : null;
  const clearPairs: HeaderPairs = [];
  for (const [name, value] of sent ?? current.customHeaders.map((h) => [h.name, h.value] as const)) {
    const lower = name.toLowerCase();
    // A credential header (also one stored in clear before they were sealed) is sealed.
    if (ALWAYS_SECRET_HEADERS.has(lower)) secret.set(lower, seal(name, value));
    else if (!secret.has(lower)) clearPairs.push({ name, value });
    else if (sent)
      problems.push({
        path: `customHeaders.${name}`,
        message: `${name} is a secret header of this website; remove it with secretHeaders: {"${name}": null} first`,
      });
  }

  let requestBody = current.requestBody;
  let requestBodySealed = current.requestBodySealed;
  const keepSecret = input.requestBodySecret ?? requestBodySealed !== null;
  if (input.requestBody === null) {
    requestBody = null;
    requestBodySealed = null;
  } else if (input.requestBody !== undefined) {
    requestBody = keepSecret ? null : input.requestBody;
    requestBodySealed = keepSecret ? secrets.seal(input.requestBody, requestBodyContext(websiteId)) : null;
  } else if (input.requestBodySecret === true && requestBody !== null) {
    requestBodySealed = secrets.seal(requestBody, requestBodyContext(websiteId));
    requestBody = null;
  } else if (input.requestBodySecret === false && requestBodySealed !== null) {
    problems.push({ path: 'requestBody', message: 'send the body again to store it in clear' });
  } else if (args.full && requestBodySealed === null) {
    requestBody = null;
  }
  return {
    stored: {
      customHeaders: clearPairs,
      secretHeaders: [...secret.values()],
      requestBody,
      requestBodySealed,
    },
    problems,
  };
}

/**
 * The request's headers and body in clear, for the probe only, and which of them are secrets (the
 * probe keeps those with the website's origin across redirects).
 */
export function openRequest(
  website: { id: number; customHeaders: HeaderPairs; requestBody: string | null } & SecretRequestFields,
  secrets: SecretBox,
): {
  headers: Record<string, string>;
  body: string | null;
  originBound: { headers: string[]; body: boolean };
} {
  const headers = Object.fromEntries(website.customHeaders.map(({ name, value }) => [name, value]));
  for (const { name, value } of website.secretHeaders ?? [])
    headers[name] = secrets.open(value, secretHeaderContext(website.id, name));
  const body = website.requestBodySealed
    ? secrets.open(website.requestBodySealed, requestBodyContext(website.id))
    : website.requestBody;
  const originBound = {
    headers: (website.secretHeaders ?? []).map((header) => header.name),
    body: (website.requestBodySealed ?? null) !== null,
  };
  return { headers, body, originBound };
}
