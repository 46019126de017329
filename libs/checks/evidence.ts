import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { MIN_MASKED_CHARS, maskSecrets, secretForms } from '../placeholders/index.js';
import type { Observation } from './observation.js';

/** Header values never kept in a result or its evidence (they can carry sessions and credentials). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'set-cookie',
  'cookie',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
]);
/** How much of a body evidence keeps, as bytes before decoding. */
export const EVIDENCE_BODY_BYTES = 16 * 1024;
const REDACTED = '[redacted]';
/** Bodies shown as text: text, JSON, XML and JavaScript (and a body without a type that has no NUL byte). */
const TEXT_TYPE =
  /^(text\/|application\/(.+[+])?(json|xml|javascript|ecmascript|x-www-form-urlencoded)\b)|[+](json|xml)\b/i;

/** A check's phase durations in milliseconds, as results and evidence show them. */
export const timingsSchema = z.object({
  dns: z.number(),
  connect: z.number(),
  tls: z.number(),
  ttfb: z.number(),
  download: z.number(),
  total: z.number(),
});

export const evidenceSchema = z
  .object({
    at: z.iso.datetime().describe('When the failing check started'),
    region: z.string(),
    nodeId: z.string().nullable().describe('The monitoring node that made the check'),
    url: z.string().describe('The URL checked (without credentials)'),
    finalUrl: z.string().describe('Where the redirects ended'),
    statusLine: z
      .string()
      .nullable()
      .describe('The answer’s status, e.g. "503 Service Unavailable"; null without one'),
    headers: z
      .record(z.string(), z.string())
      .describe(
        'The answer’s headers, names lower-cased; cookies, credentials and the website’s secret headers redacted',
      ),
    body: z
      .discriminatedUnion('kind', [
        z.object({
          kind: z.literal('text'),
          text: z.string().describe('The first 16 KB, decoded by the declared charset (UTF-8 without one)'),
          charset: z.string(),
          bytes: z.number().int().min(0).describe('Bytes of the body (decoded from its content coding)'),
          truncated: z.boolean().describe('The text is cut: the body is longer'),
        }),
        z.object({
          kind: z.literal('binary'),
          contentType: z.string(),
          bytes: z.number().int().min(0),
        }),
        z.object({
          kind: z.literal('omitted'),
          bytes: z.number().int().min(0),
          reason: z.string().describe('Why the body is not kept (one a website, region and 5 minutes)'),
        }),
      ])
      .nullable()
      .describe('Null when no answer came'),
    address: z.string().nullable().describe('The address the last request went to'),
    redirects: z
      .array(z.object({ url: z.string(), status: z.number().int(), location: z.string() }))
      .describe('Each redirect followed: where, its status and where it sent'),
    tls: z
      .object({
        issuer: z.string(),
        subject: z.string(),
        validFrom: z.iso.datetime(),
        validTo: z.iso.datetime(),
        chainTrusted: z.boolean(),
        chainError: z.string().nullable(),
        hostnameMatches: z.boolean(),
        protocol: z.string().nullable().describe('e.g. TLSv1.3'),
        cipher: z.string().nullable().describe('e.g. TLS_AES_256_GCM_SHA384'),
      })
      .nullable(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe('Why no answer came (DNS, CONNECT, TLS, TIMEOUT …)'),
    timings: timingsSchema,
  })
  .meta({ id: 'Evidence', description: 'What a failing check saw: the answer, or why there was none' });
export type Evidence = z.infer<typeof evidenceSchema>;

/**
 * Credentials out of any URL in a text (`https://user:pass@host`, a password may hold a `/`): after a
 * scheme, everything up to an `@` goes (an `@` later in a path takes the path with it: shown short).
 */
const withoutCredentials = (text: string) => text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s@]*@/gi, '$1');

/** The charset a `Content-Type` declares, if the platform can decode it. */
function declaredCharset(contentType: string | undefined): string | null {
  const declared = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  if (!declared) return null;
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    return null;
  }
}

/**
 * The text with any ending that begins a secret blanked (a secret cut in two by the 16 KB cut):
 * only the places where a secret's first character stands are tried.
 */
function withoutSecretStart(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) {
    const first = secret[0] as string;
    const from = Math.max(0, text.length - secret.length + 1);
    for (let at = text.indexOf(first, from); at !== -1; at = text.indexOf(first, at + 1)) {
      const tail = text.length - at;
      if (tail >= MIN_MASKED_CHARS && secret.startsWith(text.slice(at)))
        return `${text.slice(0, at)}${REDACTED}`;
    }
  }
  return text;
}

function bodyEvidence(observation: Observation, secrets: readonly string[]): Evidence['body'] {
  const { body, headers } = observation;
  if (!body) return null;
  const contentType = headers['content-type'] ?? '';
  const bytes = observation.sizeBytes ?? body.length;
  const looksText = contentType ? TEXT_TYPE.test(contentType) : !body.subarray(0, 1024).includes(0);
  if (!looksText) return { kind: 'binary', contentType: contentType || 'unknown', bytes };
  const charset = declaredCharset(contentType) ?? 'utf-8';
  const kept = body.subarray(0, EVIDENCE_BODY_BYTES);
  // `stream` holds back a character cut in two at the end rather than showing U+FFFD for it.
  const cut = kept.length < body.length;
  const text = new TextDecoder(charset).decode(kept, { stream: cut });
  return {
    kind: 'text',
    text: cut ? withoutSecretStart(text, secrets) : text,
    charset,
    bytes,
    truncated: cut || observation.bodyTruncated,
  };
}

/**
 * The evidence of a failing check, from what it observed: nothing a client user may not see (the
 * website's secret headers, cookies and credentials are redacted, URL credentials removed).
 * `secretHeaders`: names of the headers the website sends as secret (their answer namesakes are
 * redacted too: a server may echo them).
 */
export function evidenceOf(
  observation: Observation,
  context: {
    region: string;
    nodeId: string | null;
    secretHeaders: readonly string[];
    /** The secret headers' values: a server that echoes them back (a debug page) shows none of them. */
    secretValues: readonly string[];
  },
): Evidence {
  const redacted = new Set([
    ...CREDENTIAL_HEADERS,
    ...context.secretHeaders.map((name) => name.toLowerCase()),
  ]);
  const headers = Object.fromEntries(
    Object.entries(observation.headers).map(([name, value]) => {
      const lower = name.toLowerCase();
      if (redacted.has(lower)) return [lower, REDACTED];
      return [lower, withoutCredentials(value)];
    }),
  );
  const secrets = secretForms(context.secretValues);
  const evidence = seen(observation, context, headers, secrets);
  if (secrets.length === 0) return evidence;
  return JSON.parse(JSON.stringify(evidence), (_key, value: unknown) =>
    typeof value === 'string' ? maskSecrets(value, secrets) : value,
  ) as Evidence;
}

/** The evidence without its body (kept once a website, region and 5 minutes), saying so. */
export function withoutBody(evidence: Evidence, reason: string): Evidence {
  if (evidence.body === null || evidence.body.kind === 'omitted') return evidence;
  return { ...evidence, body: { kind: 'omitted', bytes: evidence.body.bytes, reason } };
}

function seen(
  observation: Observation,
  context: { region: string; nodeId: string | null },
  headers: Record<string, string>,
  secrets: readonly string[],
): Evidence {
  const hops = observation.redirects;
  const { tls, error, httpStatus } = observation;
  return {
    at: observation.startedAt.toISOString(),
    region: context.region,
    nodeId: context.nodeId,
    url: withoutCredentials(observation.url),
    finalUrl: withoutCredentials(observation.finalUrl),
    statusLine: httpStatus === null ? null : `${httpStatus} ${STATUS_CODES[httpStatus] ?? ''}`.trim(),
    headers,
    body: bodyEvidence(observation, secrets),
    address: observation.address ?? null,
    redirects: hops.map((hop, index) => ({
      url: withoutCredentials(hop.url),
      status: hop.status,
      location: withoutCredentials(hops[index + 1]?.url ?? observation.finalUrl),
    })),
    tls: tls && {
      issuer: tls.issuer,
      subject: tls.subject,
      validFrom: tls.validFrom.toISOString(),
      validTo: tls.validTo.toISOString(),
      chainTrusted: tls.chainTrusted,
      chainError: tls.chainError,
      hostnameMatches: tls.hostnameMatches,
      protocol: tls.protocol ?? null,
      cipher: tls.cipher ?? null,
    },
    // A probe's message can quote a URL a server redirected to, credentials and all.
    error: error && { code: error.code, message: withoutCredentials(error.message) },
    timings: { ...observation.timings },
  };
}
