/**
 * The plan of the generated site (test/support/generated-site.ts): which page links to what, drawn
 * from a seed, and the exact sets planted in it (broken links with their pages, mixed content).
 * Pure: the servers serve what it says.
 */

/** Where the generated site's servers listen (known once they do). */
export interface SiteOrigins {
  /** The site itself: https://site.test:<port>. */
  https: string;
  /** The same site over plain HTTP (the mixed-content resources): http://site.test:<port>. */
  http: string;
  /** A server on 127.0.0.2 that must never be reached (it counts what reaches it). */
  private: string;
  /** Accepts and never answers (timeouts). */
  slow: string;
  /** A port nothing listens on. */
  refused: string;
  /** HTTPS with a certificate no one trusts. */
  untrusted: string;
  /** Another host, linked to but never crawled. */
  external: string;
}

export type PlannedElement =
  | 'a'
  | 'img'
  | 'script'
  | 'link'
  | 'iframe'
  | 'source'
  | 'video'
  | 'audio'
  | 'form';

export interface Mention {
  page: string;
  element: PlannedElement;
  text: string | null;
}

/** What a broken link is expected to come out as: an HTTP status or an error code. */
export type BrokenAs = { status: number } | { error: string };

export interface SitePlan {
  origins: SiteOrigins;
  /** Every page's HTML, by path (the home, /p/<n>). */
  pages: Map<string, string>;
  /** Every URL the pages name, with where (a URL on several pages, or several times on one, is listed each time). */
  mentions: Map<string, Mention[]>;
  /** The planted broken links: URL → how they break. */
  broken: Map<string, BrokenAs>;
  /** The planted mixed content: URL → active or passive. */
  mixed: Map<string, 'active' | 'passive'>;
  /** Links under /private/ (robots.txt forbids them to webmon). */
  privateLinks: string[];
  /** Links to the external host. */
  externalLinks: string[];
  /** Link elements in all the pages. */
  linkCount: number;
}

export interface PlanOptions {
  seed: number;
  pages: number;
  links: number;
  /**
   * The home links to the crawl's bounds too: an endless calendar, an over-size page, a gzip bomb
   * and a chain of ten redirects (default true). Without them every page of the site fits a crawl
   * of as many pages (the bench's site).
   */
  traps?: boolean;
}

/** mulberry32: a small deterministic generator, so one seed always gives one site. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** One element naming `url`, as HTML. */
function render(element: PlannedElement, url: string, text: string | null): string {
  const u = escapeHtml(url);
  switch (element) {
    case 'a':
      return `<a href="${u}">${escapeHtml(text ?? '')}</a>`;
    case 'img':
      return `<img src="${u}" alt="${escapeHtml(text ?? '')}">`;
    case 'script':
      return `<script src="${u}"></script>`;
    case 'link':
      return `<link rel="${text === 'icon' ? 'icon' : 'stylesheet'}" href="${u}">`;
    case 'iframe':
      return `<iframe src="${u}"></iframe>`;
    case 'source':
      return `<video><source src="${u}"></video>`;
    case 'video':
      return `<video poster="${u}"></video>`;
    case 'audio':
      return `<audio src="${u}"></audio>`;
    case 'form':
      return `<form action="${u}" method="post"><button>Send</button></form>`;
  }
}

/** The site for `origins`: N pages in a tree (page n links to 2n+1 and 2n+2) plus random links up to M. */
export function planSite(origins: SiteOrigins, options: PlanOptions): SitePlan {
  const next = random(options.seed);
  const pick = (count: number) => Math.floor(next() * count);
  const site = origins.https;
  const pagePath = (n: number) => `/p/${n}`;
  const body = new Map<string, string[]>([['/', []]]);
  for (let n = 0; n < options.pages; n++) body.set(pagePath(n), []);
  const mentions = new Map<string, Mention[]>();
  let linkCount = 0;
  /** Names `url` on the page at `path` (`html`: how, when not the element alone; '' when already written). */
  const place = (path: string, element: PlannedElement, url: string, text: string | null, html?: string) => {
    if (html !== '') body.get(path)?.push(html ?? render(element, url, text));
    const absolute = new URL(url, site).href;
    const known = mentions.get(absolute) ?? [];
    known.push({ page: new URL(path, site).href, element, text: element === 'link' ? null : text });
    mentions.set(absolute, known);
    linkCount++;
  };
  const randomPage = () => pagePath(pick(options.pages));
  /** Places a link on 1 to 3 random pages. */
  const scatter = (element: PlannedElement, url: string, text: string | null) => {
    for (let times = 1 + pick(3); times > 0; times--) place(randomPage(), element, url, text);
  };

  /** The home's links to the crawl's bounds, left out with `traps: false`. */
  const traps = new Set(['/calendar/2024-01', '/big', '/bomb', '/chain10/0']);
  for (const [url, text] of [
    ['/p/0', 'Start here'],
    ['/calendar/2024-01', 'Calendar'],
    ['/big', 'A big page'],
    ['/bomb', 'Archive'],
    ['/moved/1', 'Old address'],
    ['/chain10/0', 'Ten redirects'],
  ] as const)
    if (options.traps !== false || !traps.has(url)) place('/', 'a', url, text);
  for (let n = 0; n < options.pages; n++) {
    const path = pagePath(n);
    place(path, 'link', '/assets/site.css', null);
    place(path, 'script', '/assets/app.js', null);
    place(path, 'img', `/assets/img-${n % 50}.png`, `Picture ${n % 50}`);
    for (const child of [2 * n + 1, 2 * n + 2])
      if (child < options.pages) place(path, 'a', pagePath(child), `Page ${child}`);
  }

  const broken = new Map<string, BrokenAs>();
  const plant = (url: string, as: BrokenAs, element: PlannedElement, text: string | null) => {
    broken.set(new URL(url, site).href, as);
    scatter(element, url, text);
  };
  for (let k = 0; k < 85; k++) {
    if (k % 7 === 3) plant(`/missing/image-${k}.png`, { status: 404 }, 'img', `Missing image ${k}`);
    else plant(`/missing/page-${k}`, { status: 404 }, 'a', `Broken link ${k}`);
  }
  plant('/missing/app-old.js', { status: 404 }, 'script', null);
  // A broken candidate of a srcset, beside a working one.
  const srcsetPage = randomPage();
  const hero = '/missing/hero-2x.png';
  broken.set(new URL(hero, site).href, { status: 404 });
  place(
    srcsetPage,
    'img',
    '/assets/hero.png',
    'Hero',
    `<img src="/assets/hero.png" srcset="/assets/hero.png 1x, ${hero} 2x" alt="Hero">`,
  );
  place(srcsetPage, 'img', hero, 'Hero', '');
  for (let k = 0; k < 3; k++) plant(`/error/${k}`, { status: 500 }, 'a', `Server error ${k}`);
  plant('http://nowhere.invalid/', { error: 'dns' }, 'a', 'A host that does not exist');
  plant(`${origins.slow}/`, { error: 'timeout' }, 'a', 'A host that never answers');
  plant(`${origins.refused}/`, { error: 'connection-refused' }, 'a', 'A closed port');
  plant(`${origins.untrusted}/`, { error: 'tls' }, 'a', 'An untrusted certificate');
  plant('/loop/a', { error: 'redirect-loop' }, 'a', 'Round and round');
  plant('/chain/0', { error: 'too-many-redirects' }, 'a', 'Eleven redirects');
  plant('http://10.0.0.5/', { error: 'blocked' }, 'a', 'Intranet');
  plant('http://169.254.169.254/latest/meta-data/', { error: 'blocked' }, 'a', 'Cloud metadata');
  plant(`${origins.private}/direct`, { error: 'blocked' }, 'a', 'Internal report');
  plant('/go/private', { error: 'blocked' }, 'a', 'A redirect inside');

  const mixed = new Map<string, 'active' | 'passive'>();
  const mix = (
    name: string,
    element: PlannedElement,
    use: 'active' | 'passive',
    text: string | null = null,
  ) => {
    const url = `${origins.http}/assets/mixed-${name}`;
    mixed.set(url, use);
    scatter(element, url, text);
  };
  for (let k = 0; k < 4; k++) mix(`${k}.js`, 'script', 'active');
  for (let k = 0; k < 3; k++) mix(`${k}.css`, 'link', 'active', 'stylesheet');
  for (let k = 0; k < 2; k++) mix(`frame-${k}.html`, 'iframe', 'active');
  mix('subscribe', 'form', 'active');
  for (let k = 0; k < 5; k++) mix(`${k}.png`, 'img', 'passive', `Plain picture ${k}`);
  mix('poster.jpg', 'video', 'passive');
  mix('sound.mp3', 'audio', 'passive');
  mix('clip.webm', 'source', 'passive');
  mix('favicon.ico', 'link', 'passive', 'icon');
  const mixedSrcset = `${origins.http}/assets/mixed-wide.png`;
  mixed.set(mixedSrcset, 'passive');
  const widePage = randomPage();
  place(
    widePage,
    'img',
    '/assets/wide.png',
    'Wide',
    `<img src="/assets/wide.png" srcset="${mixedSrcset} 2x" alt="Wide">`,
  );
  place(widePage, 'img', mixedSrcset, 'Wide', '');

  const privateLinks = Array.from({ length: 5 }, (_, k) => `/private/report-${k}`);
  for (const url of privateLinks) scatter('a', url, 'Staff only');
  const externalLinks = Array.from({ length: 10 }, (_, k) => `${origins.external}/partner-${k}`);
  for (const url of externalLinks) scatter('a', url, 'Our partner');
  for (let k = 0; k < 5; k++) scatter('a', `/moved/${k}`, `Old page ${k}`);

  while (linkCount < options.links) {
    const target = pick(options.pages);
    place(randomPage(), 'a', pagePath(target), `See page ${target}`);
  }
  const pages = new Map<string, string>();
  for (const [path, parts] of body)
    pages.set(
      path,
      `<!doctype html><html><head><title>${path}</title></head><body>${parts.join('\n')}</body></html>`,
    );
  return {
    origins,
    pages,
    mentions,
    broken,
    mixed,
    privateLinks: privateLinks.map((path) => new URL(path, site).href),
    externalLinks,
    linkCount,
  };
}
