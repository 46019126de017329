import { runLighthouse } from '../../lighthouse/index.js';
import type { ProbeOptions } from '../../probe/index.js';
import { defaultCheckConfig, WEBSITE_DEFAULTS } from '../../websites/index.js';
import type { MonitorVerdict } from '../verdict.js';
import { MONITOR_KINDS } from './index.js';
import type { JourneyRunning } from './probe-kind.js';

/**
 * The conformance suite's way through the kinds that are not one `check` (conformance.test.ts):
 * DNS, whose verdict reads a memory, and HTTP, whose runner (libs/monitoring's CheckRunner) is not
 * the monitors'. Each goes through its registry entry's probe, verdict and evidence.
 */

/** What a check answered, as the suite judges every kind. */
export interface Checked {
  verdict: Pick<MonitorVerdict, 'status' | 'code'>;
  address: string | null;
  timings: { totalMs?: number | null };
  evidence: unknown;
}

/** A new DNS check (nothing learned yet), asking `resolvers`. */
export async function checkDns(
  settings: Record<string, unknown>,
  resolvers: readonly string[],
  timeoutMs: number,
): Promise<Checked> {
  const dns = MONITOR_KINDS.dns;
  const parsed = dns.settings.parse(settings);
  const check = { ...parsed, host: parsed.host ?? '', learned: null, pendingChange: null };
  const answer = await dns.probe(check, { resolvers, timeoutMs });
  return {
    verdict: dns.verdict(check, answer, answer.startedAt),
    address: null,
    timings: { totalMs: answer.durationMs },
    evidence: dns.evidence(answer),
  };
}

/** A website's check as CheckRunner makes it: the request from its settings, its default check configuration. */
export async function checkHttp(
  settings: Record<string, unknown>,
  options: ProbeOptions,
  timeoutMs: number,
): Promise<Checked> {
  const http = MONITOR_KINDS.http;
  const website = { ...WEBSITE_DEFAULTS, secretHeaders: {}, ...http.settings.partial().parse(settings) };
  const secretHeaders = Object.entries(website.secretHeaders).flatMap(([name, value]) =>
    value === null ? [] : [[name, value] as const],
  );
  const { location: _location, ...answer } = await http.probe(
    {
      url: website.url ?? '',
      method: website.httpMethod,
      headers: { ...website.customHeaders, ...Object.fromEntries(secretHeaders) },
      body: website.requestBody,
      followRedirects: website.followRedirects,
      maxRedirects: website.maxRedirects,
      cookieHandling: website.cookieHandling,
      clientCertificate: null,
      timeoutMs,
      maxBodyBytes: 64 * 1024,
    },
    options,
  );
  const observation = { ...answer, httpsRedirect: null, domain: null };
  const config = defaultCheckConfig(website.url ?? '', () => true);
  const alerting = {
    responseTimeThresholdMs: timeoutMs,
    sslExpiryWarningDays: 14,
    domainExpiryWarningDays: 30,
  };
  const { status } = http.verdict(observation, { config, alerting, now: new Date() });
  return {
    verdict: { status, code: observation.error?.code ?? null },
    address: observation.address ?? null,
    timings: { totalMs: observation.timings.total },
    evidence: http.evidence(observation, {
      region: 'conformance',
      nodeId: null,
      secretHeaders: secretHeaders.map(([name]) => name),
      secretValues: secretHeaders.map(([, value]) => value),
    }),
  };
}

/** A browser journey played by `journeys` behind a guard of `options`, as a worker plays it. */
export async function checkBrowser(
  journeys: JourneyRunning,
  settings: Record<string, unknown>,
  options: ProbeOptions,
  timeoutMs: number,
): Promise<Checked> {
  const browser = MONITOR_KINDS.browser;
  return browser.check(browser.settings.parse(settings), {
    probe: options,
    timeoutMs,
    alerting: { sslExpiryWarningDays: 14 },
    journeys,
  });
}

/** A Lighthouse check run by this process's Lighthouse (Debian's chromium) behind a guard of `options`. */
export async function checkLighthouse(
  settings: Record<string, unknown>,
  options: ProbeOptions,
  timeoutMs: number,
): Promise<Checked> {
  const lighthouse = MONITOR_KINDS.lighthouse;
  return lighthouse.check(lighthouse.settings.parse(settings), {
    probe: options,
    timeoutMs,
    alerting: { sslExpiryWarningDays: 14 },
    lighthouse: (input, guard) =>
      runLighthouse(input, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        guard,
        userAgent: guard.userAgent,
      }),
  });
}
