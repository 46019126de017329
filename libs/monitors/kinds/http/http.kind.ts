import { evaluate, evidenceOf } from '../../../checks/index.js';
import { probeHttp } from '../../../probe/index.js';
import { createWebsiteBody } from '../../../websites/index.js';
import type { IntervalKindEntry } from '../kind-entry.js';

/**
 * A website's own HTTP check: the website is the monitor (one per website, so no per-website limit;
 * the package's `maxWebsites` bounds websites), its request fields are its settings and its check
 * configuration (`…/check-config`, each switch under its own package feature) what the verdict
 * reads. libs/monitoring's CheckRunner runs it in the http lane: these are the parts it uses.
 */
export const httpKind = {
  kind: 'http',
  noun: 'HTTP check',
  description:
    "The website's URL requested as configured (method, headers, body, redirects, mTLS) from each region, through the SSRF guard and the pinned address: down on no answer or a failing check (status, keyword, size, assertions, certificate, HTTPS redirect), degraded on a warning (response time, an expiring certificate or domain).",
  feature: null,
  limit: null,
  lane: 'http',
  trigger: 'interval',
  settings: createWebsiteBody,
  probe: probeHttp,
  verdict: evaluate,
  evidence: evidenceOf,
} satisfies IntervalKindEntry;
