// What a check of a website looks at: the checks its package allows, and the probe it makes.
import type { CheckConfig, Observation } from '../checks/index.js';
import { includesFeature, type PackageDocument } from '../packages/index.js';
import { type ProbeOptions, type ProbeRequest, probeHttp } from '../probe/index.js';
import type { SecretBox } from '../secrets/index.js';
import { CHECK_FEATURES, mtlsKeyContext, openRequest, type WebsiteDocument } from '../websites/index.js';
import type { SentRequest } from './failure-evidence.js';

/** Looks up when a domain expires (RDAP, then WHOIS). */
export type DomainExpiryLookup = (hostname: string) => Promise<Observation['domain']>;

const MIN_BODY_CAP = 10 * 1024 * 1024;

/** Checks the package no longer includes are off, whatever the stored configuration says. */
export function withinPackage(config: CheckConfig, pkg: PackageDocument): CheckConfig {
  const limited = { ...config };
  for (const [key, feature] of Object.entries(CHECK_FEATURES) as Array<
    [keyof typeof CHECK_FEATURES, (typeof CHECK_FEATURES)[keyof typeof CHECK_FEATURES]]
  >) {
    if (!includesFeature(pkg, feature)) limited[key] = false;
  }
  if (!includesFeature(pkg, 'assertions')) limited.assertions = [];
  return limited;
}

/**
 * What the HTTPS redirect check asks, without following: an `https://` website's host and path over
 * plain HTTP on its standard port (80: a visitor typing the bare name), or an `http://` website's
 * own URL.
 */
export function plainHttpUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return parsed.href;
  parsed.protocol = 'http:';
  parsed.port = '';
  return parsed.href;
}

/** What the check saw, and the request it sent (its secrets opened: evidence blanks them). */
export async function observeWebsite(
  website: WebsiteDocument,
  config: CheckConfig,
  deps: { secrets: SecretBox; probe: ProbeOptions; domainExpiry: DomainExpiryLookup },
): Promise<{ observation: Observation; sent: SentRequest }> {
  // Secret headers and body are opened here, for the probe and the evidence, and nowhere else.
  const { headers, body, originBound } = openRequest(website, deps.secrets);
  const request: ProbeRequest = {
    url: website.url,
    method: website.httpMethod,
    headers,
    body,
    originBound,
    followRedirects: website.followRedirects,
    maxRedirects: website.maxRedirects,
    cookieHandling: website.cookieHandling,
    clientCertificate:
      website.mtlsEnabled && website.mtlsClientCert && website.mtlsClientKey
        ? {
            cert: website.mtlsClientCert,
            key: deps.secrets.open(website.mtlsClientKey, mtlsKeyContext(website.id)),
          }
        : null,
    timeoutMs: website.timeoutSeconds * 1000,
    maxBodyBytes: Math.max(config.maxPageSize ?? 0, MIN_BODY_CAP),
  };
  const plainHttp = async () => {
    const answer = await probeHttp(
      {
        ...request,
        url: plainHttpUrl(website.url),
        method: 'GET',
        body: null,
        followRedirects: false,
        clientCertificate: null,
        maxBodyBytes: 64 * 1024,
      },
      deps.probe,
    );
    return { status: answer.httpStatus, location: answer.location, error: answer.error };
  };
  const [main, httpsRedirect, domain] = await Promise.all([
    probeHttp(request, deps.probe),
    config.checkHttpsRedirectEnabled ? plainHttp() : Promise.resolve(null),
    config.checkDomainExpiryEnabled
      ? deps.domainExpiry(new URL(website.url).hostname)
      : Promise.resolve(null),
  ]);
  const { location: _location, ...observation } = main;
  return { observation: { ...observation, httpsRedirect, domain }, sent: { headers, body } };
}
