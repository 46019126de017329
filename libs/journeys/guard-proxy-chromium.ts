import type { BrowserContextOptions, LaunchOptions } from 'playwright-core';
import type { GuardProxy } from './guard-proxy.js';

/**
 * Subtracts Chromium's implicit bypass rules, by which localhost, 127.0.0.0/8, [::1], 169.254.0.0/16
 * and fe80::/10 would go direct: those are what the guard is for. Playwright adds it by default,
 * unless an environment variable says otherwise; named here so nothing can undo it.
 */
const PROXY_EVERYTHING = '<-loopback>';

/**
 * The browser-wide proxy, for a context made without the run's: a name that never resolves
 * (`.invalid`, RFC 6761, and the resolver rules below refuse the lookup anyway), so such a context
 * loads nothing instead of going direct.
 */
const NO_RUN_PROXY = 'http://unguarded-context.invalid';

/** Chromium's flags, each closing a way around the context's proxy. */
export const GUARDED_CHROMIUM_ARGS: readonly string[] = [
  // HTTP/3 runs over UDP, which an HTTP proxy does not carry. Chromium already keeps proxied
  // requests (and WebTransport) off QUIC; off altogether, so no Alt-Svc upgrade can try it.
  '--disable-quic',
  // WebRTC sends UDP only through a proxy that relays it (this one does not) and its TCP (TURN)
  // through the proxy, judged as any CONNECT; no local address is gathered or disclosed. (Not
  // --force-webrtc-ip-handling-policy, often quoted: with it Debian's Chromium 156 still gathers.)
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Behind an HTTP proxy the browser resolves no destination; with this it resolves nothing at all
  // but the proxy's address, so a request that went around the proxy, a DNS prefetch or a
  // DNS-over-HTTPS lookup fails before it leaves (no --disable-features for DoH needed: a second
  // --disable-features would replace Playwright's own list).
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

/**
 * How the worker launches Debian's chromium for journeys (never a downloaded browser): the
 * guarding flags, `extraArgs` after them (e.g. --no-sandbox as root), and a browser-wide proxy
 * that fails closed. Playwright's own defaults stay: they already turn off background networking,
 * component updates and sync.
 */
export function guardedLaunchOptions(
  executablePath: string,
  extraArgs: readonly string[] = [],
): LaunchOptions {
  return {
    executablePath,
    args: [...GUARDED_CHROMIUM_ARGS, ...extraArgs],
    proxy: { server: NO_RUN_PROXY, bypass: PROXY_EVERYTHING },
  };
}

/** The part of a run's `browser.newContext(…)` that keeps its requests behind `proxy`. */
export type GuardedContextOptions = Required<
  Pick<BrowserContextOptions, 'proxy' | 'acceptDownloads' | 'serviceWorkers'>
>;

/**
 * A run's context options: its own guarding proxy and credential (Playwright answers the proxy's
 * 407 with them, for this context only), for documents, subresources, fetch/XHR, redirects,
 * WebSockets and popups alike.
 */
export function guardedContextOptions(
  proxy: Pick<GuardProxy, 'server' | 'username' | 'password'>,
): GuardedContextOptions {
  return {
    proxy: {
      server: proxy.server,
      username: proxy.username,
      password: proxy.password,
      bypass: PROXY_EVERYTHING,
    },
    // Nothing a page offers is written to the worker's disk.
    acceptDownloads: false,
    // A fresh context has none, and a journey measures a first visit; one registered mid-run would
    // fetch outside Playwright's request events, so the run could not name what it loaded.
    serviceWorkers: 'block',
  };
}
