import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
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
    timings: z.object({
      dns: z.number(),
      connect: z.number(),
      tls: z.number(),
      ttfb: z.number(),
      download: z.number(),
      total: z.number(),
    }),
  })
  .meta({ id: 'Evidence', description: 'What a failing check saw: the answer, or why there was none' });
export type Evidence = z.infer<typeof evidenceSchema>;

/** A URL without the credentials it may carry (`https://user:pass@host/`). */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

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

function bodyEvidence(observation: Observation): Evidence['body'] {
  const { body, headers } = observation;
  if (!body) return null;
  const contentType = headers['content-type'] ?? '';
  const bytes = observation.sizeBytes ?? body.length;
  const looksText = contentType ? TEXT_TYPE.test(contentType) : !body.subarray(0, 1024).includes(0);
  if (!looksText) return { kind: 'binary', contentType: contentType || 'unknown', bytes };
  const charset = declaredCharset(contentType) ?? 'utf-8';
  const kept = body.subarray(0, EVIDENCE_BODY_BYTES);
  // `stream` holds back a character cut in two at the end rather than showing U+FFFD for it.
  const text = new TextDecoder(charset).decode(kept, { stream: kept.length < body.length });
  return {
    kind: 'text',
    text,
    charset,
    bytes,
    truncated: body.length > kept.length || observation.bodyTruncated,
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
  context: { region: string; nodeId: string | null; secretHeaders: readonly string[] },
): Evidence {
  const redacted = new Set([
    ...CREDENTIAL_HEADERS,
    ...context.secretHeaders.map((name) => name.toLowerCase()),
  ]);
  const headers = Object.fromEntries(
    Object.entries(observation.headers).map(([name, value]) => [name, redacted.has(name) ? REDACTED : value]),
  );
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
    body: bodyEvidence(observation),
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
    error: error && { code: error.code, message: error.message },
    timings: { ...observation.timings },
  };
}
