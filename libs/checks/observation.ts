/** Phase durations of one request, in milliseconds (blackbox_exporter's split). */
export interface Timings {
  dns: number;
  connect: number;
  tls: number;
  ttfb: number;
  download: number;
  total: number;
}

export interface ProbeError {
  /** DNS, CONNECT, TLS, TIMEOUT, BLOCKED_TARGET, TOO_MANY_REDIRECTS, REDIRECT_LOOP, INVALID_REDIRECT, PROTOCOL, BODY_TOO_LARGE… */
  code: string;
  message: string;
}

export interface TlsObservation {
  validFrom: Date;
  validTo: Date;
  issuer: string;
  subject: string;
  /** Chain verified against the trusted roots. */
  chainTrusted: boolean;
  chainError: string | null;
  hostnameMatches: boolean;
  /** The negotiated protocol and cipher (e.g. TLSv1.3, TLS_AES_256_GCM_SHA384); absent where not seen. */
  protocol?: string | null;
  cipher?: string | null;
}

/** The connection and answer times of one request of a check (milliseconds). */
export interface HopTimings {
  dns: number;
  connect: number;
  tls: number;
  ttfb: number;
}

/** A request that answered with a redirect: where, what status, and how long each phase took. */
export interface RedirectHop {
  url: string;
  status: number;
  /** Absent on results stored before hops were timed. */
  timings?: HopTimings;
}

/** What one check run saw: the I/O is done; everything the checks need is here. */
export interface Observation {
  startedAt: Date;
  url: string;
  finalUrl: string;
  httpStatus: number | null;
  /** The final answer's headers, names lower-cased, repeated ones joined with ", " (none without an answer). */
  headers: Record<string, string>;
  redirects: RedirectHop[];
  /** The decoded body as read (capped), or null when there was no response. */
  body: Buffer | null;
  /** Bytes of the decoded body; when `bodyTruncated`, at least this many. */
  sizeBytes: number | null;
  bodyTruncated: boolean;
  timings: Timings;
  error: ProbeError | null;
  /** The address the last request went to (after the SSRF guard's check); absent where not seen. */
  address?: string | null;
  /** The certificate of the first https hop, when there was one. */
  tls: TlsObservation | null;
  /** The answer to `http://` of the same host, without following (only when that check is on). */
  httpsRedirect: { status: number | null; location: string | null; error: ProbeError | null } | null;
  /** The registrable domain's expiry (only when that check is on). */
  domain: { name: string; expiresAt: Date | null; error: string | null } | null;
}
