import { CookieJar } from 'tough-cookie';
import { Client } from 'undici';
import type { Observation, ProbeError, RedirectHop, Timings, TlsObservation } from '../checks/index.js';
import { readDecodedBody } from './body-reader.js';
import {
  type ConnectorOptions,
  type HopConnection,
  newHopConnection,
  pinnedConnector,
} from './pinned-connector.js';
import { classifyProbeError, ProbeFailure } from './probe-error.js';

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

export interface ProbeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  followRedirects: boolean;
  maxRedirects: number;
  cookieHandling: 'jar' | 'none';
  /**
   * The jar `jar` handling keeps cookies in, when the caller shares one across requests (an API
   * flow's steps send what earlier steps were set); none: a new one for this request.
   */
  cookieJar?: CookieJar;
  clientCertificate: { cert: string; key: string } | null;
  timeoutMs: number;
  /** The decoded body is read up to this many bytes. */
  maxBodyBytes: number;
  /**
   * Credentials of this request that stay with its origin, like Authorization and Cookie: the
   * names of its secret headers, and whether its body is one. A redirect to another origin drops
   * them (a secret body goes nowhere else; the request goes on without it).
   */
  originBound?: { headers: readonly string[]; body: boolean };
}

export interface ProbeOptions extends Omit<ConnectorOptions, 'clientCertificate'> {
  userAgent: string;
}

export type HttpProbeResult = Omit<Observation, 'httpsRedirect' | 'domain'> & { location: string | null };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers a browser drops when a redirect leaves the origin. */
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** An answer's headers as assertions read them: repeated ones joined with ", " (undici lower-cases names). */
function answerHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function requestHeaders(
  custom: Record<string, string>,
  userAgent: string,
  cookie: string | null,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const names = new Set(Object.keys(custom).map((name) => name.toLowerCase()));
  if (!names.has('user-agent')) headers['user-agent'] = userAgent;
  if (!names.has('accept')) headers.accept = '*/*';
  if (!names.has('accept-encoding')) headers['accept-encoding'] = 'gzip, deflate, br';
  Object.assign(headers, custom);
  if (cookie) {
    const existing = Object.keys(headers).find((name) => name.toLowerCase() === 'cookie');
    if (existing) headers[existing] = `${headers[existing]}; ${cookie}`;
    else headers.cookie = cookie;
  }
  return headers;
}

/**
 * One check's HTTP exchange as a visitor meets it: a new connection for every hop, redirects
 * followed up to `maxRedirects` with each hop's address checked again, cookies carried across the
 * hops when `cookieHandling` is `jar`, the website's client certificate on its own requests only,
 * one deadline for everything, and the body read up to a cap. Failures come back classified in
 * `error`; this function does not throw for them.
 */
export async function probeHttp(request: ProbeRequest, options: ProbeOptions): Promise<HttpProbeResult> {
  const startedAt = new Date();
  const started = performance.now();
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, request.timeoutMs);
  const jar = request.cookieHandling === 'jar' ? (request.cookieJar ?? new CookieJar()) : null;
  const connectorOptions: ConnectorOptions = { ...options, clientCertificate: request.clientCertificate };
  const timings: Timings = { dns: 0, connect: 0, tls: 0, ttfb: 0, download: 0, total: 0 };
  const redirects: RedirectHop[] = [];
  const visited = new Set<string>();
  const hops: HopConnection[] = [];
  let firstTls: TlsObservation | null = null;
  let current = new URL(request.url);
  let method = request.method.toUpperCase();
  let body = request.body;
  const originBound = new Set([
    ...ORIGIN_BOUND_HEADERS,
    ...(request.originBound?.headers ?? []).map((name) => name.toLowerCase()),
  ]);
  let headers = { ...request.headers };
  let httpStatus: number | null = null;

  const timedHops = new Set<HopConnection>();
  const addConnectionTimings = (hop: HopConnection) => {
    timedHops.add(hop);
    timings.dns += hop.dnsMs;
    timings.connect += hop.connectMs;
    timings.tls += hop.tlsMs;
  };
  const finish = (fields: Partial<HttpProbeResult>): HttpProbeResult => {
    timings.total = performance.now() - started;
    for (const key of Object.keys(timings) as Array<keyof Timings>) timings[key] = roundMs(timings[key]);
    return {
      startedAt,
      url: request.url,
      finalUrl: current.href,
      httpStatus,
      headers: {},
      redirects,
      body: null,
      sizeBytes: null,
      bodyTruncated: false,
      timings,
      error: null,
      tls: firstTls,
      // The last hop's, where the answer (or the failure) came from.
      address: hops.at(-1)?.address ?? null,
      location: null,
      ...fields,
    };
  };

  try {
    for (;;) {
      visited.add(current.href);
      const hop = newHopConnection();
      hops.push(hop);
      // Closed gently once its answer was read whole; destroyed otherwise (destroying builds an error
      // with a stack, a measurable share of a check's CPU).
      let answered = false;
      const client = new Client(current.origin, {
        connect: pinnedConnector(connectorOptions, hop),
        headersTimeout: request.timeoutMs + 1000,
        bodyTimeout: request.timeoutMs + 1000,
      });
      try {
        const cookie = jar ? await jar.getCookieString(current.href) : null;
        const sentAt = performance.now();
        const response = await client.request({
          path: `${current.pathname}${current.search}`,
          method: method as 'GET',
          headers: requestHeaders(headers, options.userAgent, cookie || null),
          body: body ?? undefined,
          signal: abort.signal,
        });
        const headersAt = performance.now();
        httpStatus = response.statusCode;
        addConnectionTimings(hop);
        const ttfb = headersAt - (hop.readyAt ?? sentAt);
        timings.ttfb += ttfb;
        firstTls ??= hop.tls;
        if (jar) {
          const setCookie = response.headers['set-cookie'];
          for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
            await jar.setCookie(line, current.href, { ignoreError: true });
          }
        }
        const location = headerValue(response.headers.location) ?? null;

        if (request.followRedirects && REDIRECT_STATUSES.has(response.statusCode) && location) {
          await response.body.dump();
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            throw new ProbeFailure(
              'INVALID_REDIRECT',
              `redirect to an invalid URL: ${location.slice(0, 200)}`,
            );
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw new ProbeFailure('INVALID_REDIRECT', `redirect to a ${next.protocol} URL`);
          }
          redirects.push({
            url: current.href,
            status: response.statusCode,
            timings: {
              dns: roundMs(hop.dnsMs),
              connect: roundMs(hop.connectMs),
              tls: roundMs(hop.tlsMs),
              ttfb: roundMs(ttfb),
            },
          });
          if (visited.has(next.href))
            throw new ProbeFailure('REDIRECT_LOOP', `redirect loop back to ${next.href}`);
          if (redirects.length > request.maxRedirects) {
            throw new ProbeFailure('TOO_MANY_REDIRECTS', `more than ${request.maxRedirects} redirects`);
          }
          // As browsers do: 303 (and 301/302 after a POST) continue with GET and no body.
          if (
            response.statusCode === 303 ||
            ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
          ) {
            method = 'GET';
            body = null;
          }
          if (next.origin !== current.origin) {
            headers = Object.fromEntries(
              Object.entries(headers).filter(([name]) => !originBound.has(name.toLowerCase())),
            );
            if (request.originBound?.body) body = null;
          }
          current = next;
          continue;
        }

        const downloadStarted = performance.now();
        const read = await readDecodedBody(
          response.body,
          headerValue(response.headers['content-encoding']),
          request.maxBodyBytes,
        );
        timings.download = performance.now() - downloadStarted;
        answered = !read.truncated;
        return finish({
          headers: answerHeaders(response.headers),
          body: read.body,
          sizeBytes: read.sizeBytes,
          bodyTruncated: read.truncated,
          location,
        });
      } finally {
        await (answered ? client.close() : client.destroy()).catch(() => undefined);
      }
    }
  } catch (error) {
    const last = hops.at(-1);
    // The hop that failed took its time too (a refused client certificate comes after the handshake).
    if (last && !timedHops.has(last)) addConnectionTimings(last);
    const phase = last?.phase ?? 'request';
    const probeError: ProbeError = classifyProbeError(last?.tlsAlert ?? error, phase, timedOut);
    // A failure before the answer of the last hop means there is no answer to judge.
    if (
      probeError.code !== 'TOO_MANY_REDIRECTS' &&
      probeError.code !== 'REDIRECT_LOOP' &&
      probeError.code !== 'INVALID_REDIRECT'
    ) {
      httpStatus = null;
    }
    firstTls ??= hops.at(-1)?.tls ?? null;
    return finish({ error: probeError });
  } finally {
    clearTimeout(timer);
    // TLS sockets before the TCP sockets under them: the other order can crash Node 20 (a segfault
    // seen destroying a TCP socket and then its TLS socket right after the handshake).
    for (const socket of hops.flatMap((hop) => hop.sockets).reverse()) socket.destroy();
  }
}
