/**
 * Site health (issue 43): what a crawl and a Lighthouse run cost. Parts (`--parts`, all by default),
 * each a function of its own printing its own table:
 *
 * - `crawl`: `crawlSite` (libs/crawl) over the generated site of test/support/generated-site.ts
 *   served by a child process (bench/support/generated-site-process.ts: the TLS server's work is
 *   not the crawler's): `--max-pages` page URLs (the home, the content pages and the broken or
 *   redirecting links a crawl fetches as pages; the traps of the crawl test left out, so the whole
 *   site fits the crawl), 5,000 links, 100 planted broken links, 20 mixed-content resources, a
 *   redirect loop, a robots.txt that keeps webmon out of /private/. Crawled with maxPages
 *   `--max-pages`, the crawl test's probe options (the guard exempting 127.0.0.1 only) and its
 *   limits (the site is local: the default 8 requests a second would take minutes). Wall time
 *   (bound: under 60 s), pages crawled, links checked, requests made, the findings against the
 *   planted sets, this process's extra RSS (peak minus before, sampled every 50 ms; target: under
 *   300 MiB) and its CPU (process.cpuUsage); the site's process's CPU beside.
 * - `lighthouse`: `runLighthouse` (libs/lighthouse) of a small local page on Debian's Chromium
 *   behind the guard, one warm-up run (it loads Lighthouse) then `--runs` runs of each preset,
 *   mobile and desktop in turn. Per run: wall time, Chromium's start, this process's CPU
 *   (Lighthouse, its guard proxy, the page's server), the Chromium processes' CPU (from /proc every
 *   100 ms) and their peak PSS and summed RSS (every 500 ms), the performance score; medians per preset.
 * - `lag`: a real API and worker, `--websites` websites checked every `--interval` s, and the
 *   generated site's crawl (hourly) and a Lighthouse check (mobile and desktop) made through the
 *   API, in the worker's site lane `--site-concurrency` wide (WORKER_LANE_SITE_CONCURRENCY; 2 so
 *   both run at once): HTTP schedule lag p50/p99/max over `--seconds` with neither running, then
 *   over as long while both run (bound: p99 under 250 ms), the runs' wall times as the API reports
 *   them, the worker's CPU and memory (bench/support/site-health-lag.ts).
 *
 * Prints the machine's cores and load average before and after each part.
 * Usage: npm run bench:site-health [-- --parts crawl,lighthouse,lag --max-pages 500 --runs 3
 *   --websites 1000 --interval 10 --seconds 60 --warmup 30 --site-concurrency 2 --runtime tsx|dist]
 * CHROMIUM_PATH: the browser (default /usr/bin/chromium). BENCH_WORKER_LOGS=info: the worker's log.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  type CrawlFinding,
  type CrawlLimits,
  type CrawlResult,
  crawlSettingsSchema,
  crawlSite,
} from '../libs/crawl/index.js';
import { type LighthousePreset, type LighthouseRun, runLighthouse } from '../libs/lighthouse/index.js';
import { TlsContexts } from '../libs/probe/index.js';
import { resolveTestHosts } from '../test/support/generated-site.js';
import { planSite } from '../test/support/generated-site-plan.js';
import { parseRuntime } from './support/app-runtime.js';
import { withOwnedProcesses } from './support/bench-databases.js';
import { type ChromiumUsage, sampleChromium } from './support/chromium-usage.js';
import { startLighthousePage } from './support/lighthouse-page.js';
import { compared, findingKey, fittedSite, pageUrlsOf, plantedKeys } from './support/planted-findings.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';
import { MiB } from './support/process-tree.js';
import { siteHealthLagPart } from './support/site-health-lag.js';
import { startSiteProcess } from './support/site-process.js';

const PARTS = ['crawl', 'lighthouse', 'lag'] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: PARTS.join(',') },
    'max-pages': { type: 'string', default: '500' },
    runs: { type: 'string', default: '3' },
    websites: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '30' },
    'site-concurrency': { type: 'string', default: '2' },
    runtime: { type: 'string', default: 'tsx' },
  },
});
const parts = values.parts.split(',') as Part[];
const maxPages = Number(values['max-pages']);
const runs = Number(values.runs);
const lagOptions = {
  websites: Number(values.websites),
  interval: Number(values.interval),
  seconds: Number(values.seconds),
  warmupSeconds: Number(values.warmup),
  siteConcurrency: Number(values['site-concurrency']),
};
if (
  ![maxPages, runs, ...Object.values(lagOptions)].every((n) => Number.isInteger(n) && n > 0) ||
  maxPages < 200 ||
  lagOptions.interval < 10 ||
  parts.some((part) => !PARTS.includes(part))
)
  throw new Error(
    `--max-pages must be an integer of 200 or more, --runs, --websites, --seconds, --warmup, --site-concurrency positive integers, --interval at least 10, --parts of ${PARTS.join(',')}`,
  );
const runtime = parseRuntime(values.runtime);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const USER_AGENT = 'webmon/bench (website monitoring)';
const say = (message: string) => console.log(`[bench] ${message}`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const median = (numbers: number[]) =>
  percentile(
    [...numbers].sort((a, b) => a - b),
    50,
  );
const row = (name: string, text: string) => console.log(`   ${name.padEnd(28)} ${text}`);

function header(title: string): void {
  console.log('');
  console.log(`== ${title}`);
  console.log(`   ${cpus().length} cores, load average ${load()} (before)`);
}

/** Samples this process's RSS every `everyMs` until stopped: its peak, and how late the timer came. */
function sampleOwnRss(everyMs: number) {
  const before = process.memoryUsage.rss();
  let peak = before;
  let samples = 0;
  let last = performance.now();
  let longestGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage.rss());
    samples++;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return { before, peak, samples, longestGapMs };
    },
  };
}

// ---------------------------------------------------------------- part 1: the crawl

/** The crawl test's politeness for a local site: 8 requests at once, no rate to speak of. */
const LOCAL_LIMITS: Partial<CrawlLimits> = {
  perHostConcurrency: 8,
  perHostPerSecond: 5_000,
  requestTimeoutMs: 3_000,
};
async function crawlPart(): Promise<void> {
  const options = fittedSite(maxPages);
  await withOwnedProcesses(async (own) => {
    const site = await startSiteProcess(own, options);
    const plan = planSite(site.ready.origins, options);
    if (plan.linkCount !== site.ready.linkCount) throw new Error('the site process planned another site');
    const pageUrls = pageUrlsOf(plan).size;
    header(
      `crawl: the generated site, ${pageUrls} page URLs (the home, ${options.pages} content pages, ${pageUrls - 1 - options.pages} broken or redirecting links fetched as pages), ${plan.linkCount} links; maxPages ${maxPages}`,
    );
    row(
      'limits',
      `${LOCAL_LIMITS.perHostConcurrency} requests at once per host, ${LOCAL_LIMITS.perHostPerSecond}/s, timeout ${LOCAL_LIMITS.requestTimeoutMs} ms (the crawl test's: the site is local)`,
    );
    const probe = {
      // Private targets stay refused: only the site's own address is exempt, as in the crawl test.
      allowPrivateTargets: false,
      exemptAddresses: [{ address: '127.0.0.1', exceptPorts: [] }],
      resolve: resolveTestHosts,
      tls: new TlsContexts([site.ready.ca]),
      userAgent: USER_AGENT,
    };
    const settings = crawlSettingsSchema.parse({ maxPages });
    const siteCpuBefore = cpuSecondsOf(site.pid);
    const memory = sampleOwnRss(50);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const result: CrawlResult = await crawlSite({
      startUrl: `${plan.origins.https}/`,
      settings,
      probe,
      limits: LOCAL_LIMITS,
    });
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const rss = memory.stop();
    const siteCpu = cpuSecondsOf(site.pid) - siteCpuBefore;
    const received = await site.requests();
    const { report } = result;
    const found = report.findings.map(findingKey);
    const planted = plantedKeys(plan);
    const count = (type: CrawlFinding['type'], keys: string[]) =>
      keys.filter((k) => k.startsWith(type)).length;
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;

    row(
      'wall time',
      `${seconds(wallMs)} s  (bound: under 60 s${wallMs < 60_000 ? '' : ': OVER'}; the planted link to a host that never answers waits out the ${LOCAL_LIMITS.requestTimeoutMs} ms timeout)`,
    );
    row(
      'outcome',
      `${report.outcome}${report.stoppedBy.length ? ` (stopped by ${report.stoppedBy.map((hit) => `${hit.bound} ×${hit.count}`).join(', ')})` : ''}`,
    );
    row('pages crawled', `${report.pages.length} (maxDepth ${settings.maxDepth})`);
    row('links checked', `${report.linksChecked} (URLs besides the pages)`);
    row(
      'requests made',
      `${report.requests}; the site's servers received ${received.byServer.https} (https) + ${received.byServer.http} (http) + ${received.byServer.external} (external host), 127.0.0.2 ${received.privateHits}`,
    );
    row(
      'findings',
      `broken links ${count('broken-link', found)} found / ${count('broken-link', planted)} planted, mixed content ${count('mixed-content', found)} / ${count('mixed-content', planted)}: ${compared(found, planted)}`,
    );
    row(
      'robots.txt',
      `${report.skipped.robots} URLs under /private/ not requested (${plan.privateLinks.length} planted)`,
    );
    row(
      'extra RSS (peak − before)',
      `${mib(rss.peak - rss.before)} MiB  (target: under 300 MiB${rss.peak - rss.before < 300 * MiB ? '' : ': OVER'}); before ${mib(rss.before)} MiB, peak ${mib(rss.peak)} MiB; ${rss.samples} samples every 50 ms, longest gap ${rss.longestGapMs.toFixed(0)} ms`,
    );
    row(
      'CPU (this process)',
      `${cpuSeconds.toFixed(2)} s: user ${(cpu.user / 1e6).toFixed(2)} + system ${(cpu.system / 1e6).toFixed(2)} (${((cpuSeconds / wallMs) * 100_000).toFixed(0)} % of a core over the wall time)`,
    );
    row("CPU (the site's process)", `${siteCpu.toFixed(2)} s (its servers, TLS included: not the crawler's)`);
  });
  console.log(`   load average ${load()} (after)`);
}

// ---------------------------------------------------------------- part 2: Lighthouse

interface MeasuredRun {
  label: string;
  preset: LighthousePreset;
  run: LighthouseRun;
  wallMs: number;
  /** This process's CPU, the sampling's own time taken off. */
  nodeCpuSeconds: number;
  chromium: ChromiumUsage;
}

async function measuredRun(
  url: string,
  preset: LighthousePreset,
  label: string,
  guardPort: number,
): Promise<MeasuredRun> {
  const chromium = sampleChromium(100);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const run = await runLighthouse(
    { url, preset, deadlineMs: 60_000 },
    {
      executablePath: CHROMIUM,
      userAgent: USER_AGENT,
      guard: {
        allowPrivateTargets: false,
        exemptAddresses: [{ address: '127.0.0.1', port: guardPort }],
        resolve: resolveTestHosts,
      },
    },
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const usage = chromium.stop();
  return {
    label,
    preset,
    run,
    wallMs,
    nodeCpuSeconds: (cpu.user + cpu.system) / 1e6 - usage.samplerSeconds,
    chromium: usage,
  };
}

function printRuns(measured: MeasuredRun[]): void {
  const columns: Array<[string, number, (m: MeasuredRun) => string]> = [
    ['run', 16, (m) => m.label],
    ['outcome', 10, (m) => m.run.outcome],
    ['wall s', 7, (m) => seconds(m.wallMs)],
    ['launch s', 9, (m) => seconds(m.run.timings.launchMs)],
    ['node CPU s', 11, (m) => m.nodeCpuSeconds.toFixed(2)],
    ['sampler s', 10, (m) => m.chromium.samplerSeconds.toFixed(2)],
    ['Chromium CPU s', 15, (m) => m.chromium.cpuSeconds.toFixed(2)],
    ['procs', 6, (m) => String(m.chromium.processes)],
    ['PSS MiB', 8, (m) => mib(m.chromium.peakPss)],
    ['RSS MiB', 8, (m) => mib(m.chromium.peakRss)],
    ['perf', 5, (m) => String(m.run.figures?.scores.performance ?? '–')],
  ];
  const line = (cells: string[]) =>
    console.log(
      `   ${cells.map((cell, i) => (i === 0 ? cell.padEnd(columns[i]![1]) : cell.padStart(columns[i]![1]))).join(' ')}`,
    );
  line(columns.map(([name]) => name));
  for (const m of measured) line(columns.map(([, , cell]) => cell(m)));
}

async function lighthousePart(): Promise<void> {
  const page = await startLighthousePage();
  const port = page.port;
  const url = `http://page.test:${port}/`;
  header(
    `Lighthouse: a small local page, a warm-up run (it loads Lighthouse), then ${runs} runs of each preset in turn; ${CHROMIUM}`,
  );
  try {
    const measured = [await measuredRun(url, 'mobile', 'warm-up mobile', port)];
    for (let n = 1; n <= runs; n++)
      for (const preset of ['mobile', 'desktop'] as const)
        measured.push(await measuredRun(url, preset, `${preset} ${n}`, port));
    printRuns(measured);
    const failed = measured.filter((m) => m.run.outcome !== 'completed');
    if (failed.length)
      console.log(`   not completed: ${failed.map((m) => `${m.label}: ${m.run.error}`).join('; ')}`);
    for (const preset of ['mobile', 'desktop'] as const) {
      const of = measured.slice(1).filter((m) => m.preset === preset);
      const at = (pick: (m: MeasuredRun) => number) => median(of.map(pick));
      row(
        `median ${preset}`,
        `wall ${seconds(at((m) => m.wallMs))} s, node CPU ${at((m) => m.nodeCpuSeconds).toFixed(2)} s, Chromium CPU ${at((m) => m.chromium.cpuSeconds).toFixed(2)} s, Chromium PSS ${mib(at((m) => m.chromium.peakPss))} MiB (RSS summed ${mib(at((m) => m.chromium.peakRss))} MiB)`,
      );
    }
    console.log(
      "   node CPU: this process's (Lighthouse, its guard proxy, the page's server) less the sampler's own time (reading /proc). Chromium: its processes' own CPU from /proc every 100 ms (a process's last < 100 ms, and one living less, not seen), their PSS and RSS every 500 ms.",
    );
    console.log(
      `   this process's RSS after the runs: ${mib(process.memoryUsage.rss())} MiB (Lighthouse loaded)`,
    );
  } finally {
    page.close();
  }
  console.log(`   load average ${load()} (after)`);
}

// ---------------------------------------------------------------- main

say(`${cpus().length} cores; load average ${load()}; parts ${parts.join(', ')}`);
if (parts.includes('crawl')) await crawlPart();
if (parts.includes('lighthouse')) await lighthousePart();
if (parts.includes('lag'))
  await siteHealthLagPart({ ...lagOptions, maxPages, runtime, chromium: CHROMIUM, say });
