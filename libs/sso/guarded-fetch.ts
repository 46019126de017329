import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { guardedConnector, type ProbeOptions } from '../probe/index.js';
import { blockedReason, refusalUnder, type TargetGuard } from '../targets/index.js';

/** Bytes of a provider's answer read at most (discovery, JWKS, metadata, tokens are a few KB). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** A request to a provider that failed: unreachable, refused by the guard, too slow or too large. */
export class ProviderUnreachable extends Error {
  override name = 'ProviderUnreachable';
}

/** What openid-client and our own reads send (a subset of fetch's RequestInit). */
export interface ProviderRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | ReadableStream | null;
}

export type ProviderFetch = (url: string, init?: ProviderRequest) => Promise<Response>;

/**
 * `fetch` for identity providers (OIDC discovery, JWKS, the token endpoint, SAML metadata): an
 * admin typed their URLs, so every connection goes through the SSRF guard (with the operator's
 * exemptions), no redirect is followed and answers are bounded in time and size.
 */
export function providerFetch(probe: ProbeOptions, timeoutMs: number): ProviderFetch {
  const agent = new Agent({
    connect: guardedConnector(probe, {
      timeoutMs,
      refused: (error) => new ProviderUnreachable(error instanceof Error ? error.message : String(error)),
    }),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return async (url, init = {}) => {
    let answer: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      answer = await undiciFetch(url, {
        method: init.method,
        headers: { 'user-agent': probe.userAgent, ...init.headers },
        body: init.body,
        redirect: 'manual',
        dispatcher: agent,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      throw new ProviderUnreachable(
        `${new URL(url).host} could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
    const bytes = new Uint8Array(await readBounded(answer.body, url));
    // A Response of this process's own fetch, as openid-client checks it.
    return new Response(answer.status === 204 || answer.status === 304 ? null : bytes, {
      status: answer.status,
      headers: Object.fromEntries(answer.headers),
    });
  };
}

async function readBounded(body: AsyncIterable<Uint8Array> | null, url: string): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES)
      throw new ProviderUnreachable(`${new URL(url).host} answered more than ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether a provider URL may be plain http: only an IP address the operator exempted from the
 * guard (PROBE_EXEMPT_ADDRESSES, a provider on the private network or a test's), or anywhere when
 * ALLOW_PRIVATE_TARGETS says this is a lab. Elsewhere tokens and secrets travel over TLS only.
 */
export function plainHttpAllowed(url: URL, guard: TargetGuard): boolean {
  if (url.protocol !== 'http:' || guard.allowPrivateTargets) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || 80;
  // A private address the guard lets through is one the operator exempted.
  return (
    isIP(host) !== 0 && blockedReason(host) !== undefined && refusalUnder(guard, host, port) === undefined
  );
}
