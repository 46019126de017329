import { Parser } from 'htmlparser2';

/** Elements whose URLs a crawl follows or checks. */
export const LINK_ELEMENTS = [
  'a',
  'area',
  'img',
  'script',
  'link',
  'iframe',
  'source',
  'video',
  'audio',
  'form',
  'object',
  'embed',
] as const;
export type LinkElement = (typeof LINK_ELEMENTS)[number];

/**
 * How a page uses a URL it names: `navigation` (a link a visitor follows), or a resource the page
 * loads, `active` (it can change the page: scripts, stylesheets, frames, plugins, form posts) or
 * `passive` (it is only shown: images, media, icons), as mixed content is classed.
 */
export type LinkUse = 'navigation' | 'active' | 'passive';

/** One URL a page names, as written (resolved later against the page's base). */
export interface LinkRef {
  raw: string;
  element: LinkElement;
  use: LinkUse;
  /** What a reader sees of it: a link's text (or its image's alt), an image's alt; null for the rest. */
  text: string | null;
}

export interface ExtractedLinks {
  refs: LinkRef[];
  /** The first `<base href>`, as written: every relative URL of the page resolves against it. */
  base: string | null;
  /** More refs than the bound were written: the rest were not kept. */
  truncated: boolean;
}

/** Text kept of a link's label. */
const MAX_TEXT_CHARS = 200;

/**
 * The URLs of a `srcset`, every candidate, by the HTML standard's parsing: a candidate is a URL up
 * to whitespace, then descriptors up to a comma outside parentheses; a URL ending in commas has no
 * descriptors (`a.png, b.png 2x` is two; `a.png,b.png 2x` one). Hand-written: the npm `srcset` package's loose pattern
 * splits URLs that hold commas and drops one-character URLs.
 */
export function srcsetUrls(value: string): string[] {
  const urls: string[] = [];
  const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
  let at = 0;
  while (at < value.length) {
    while (at < value.length && (isSpace(value[at]) || value[at] === ',')) at++;
    if (at >= value.length) break;
    const start = at;
    while (at < value.length && !isSpace(value[at])) at++;
    const url = value.slice(start, at);
    if (url.endsWith(',')) {
      urls.push(url.replace(/,+$/, ''));
      continue;
    }
    urls.push(url);
    let inParentheses = false;
    while (at < value.length) {
      const char = value[at++];
      if (char === '(') inParentheses = true;
      else if (char === ')') inParentheses = false;
      else if (char === ',' && !inParentheses) break;
    }
  }
  return urls.filter((url) => url.length > 0);
}

/** What a `<link>` is for, from its `rel` (and `as` for preloads); null: not one a crawl checks. */
function linkUse(attributes: Record<string, string>): LinkUse | null {
  const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
  if (rel.includes('stylesheet')) return 'active';
  if (rel.includes('preload')) {
    const as = (attributes.as ?? '').toLowerCase();
    if (as === 'style' || as === 'script') return 'active';
  }
  if (rel.some((token) => token === 'icon' || token.startsWith('apple-touch-icon'))) return 'passive';
  return null;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const clip = (text: string) =>
  text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS - 1)}…` : text;

/**
 * Collects the URLs an HTML page names as it streams in (`write` each decoded chunk, then `end`):
 * `a`/`area[href]`, `img[src]` and every `srcset` candidate, `script[src]`, `link[href]` for
 * stylesheets, icons and style or script preloads, `iframe[src]`, `source[src|srcset]`,
 * `video[src|poster]`, `audio[src]`, `form[action]`, `object[data]`, `embed[src]`. At most
 * `maxRefs` are kept (a hostile page cannot grow the crawl's memory through one page).
 */
export class LinkExtractor {
  private readonly refs: LinkRef[] = [];
  private base: string | null = null;
  private truncated = false;
  /** The open `<a>`/`<area>` whose text is being gathered. */
  private anchor: { ref: LinkRef; text: string } | null = null;
  private readonly parser: Parser;

  constructor(private readonly maxRefs: number) {
    this.parser = new Parser(
      {
        onopentag: (name, attributes) => this.open(name, attributes),
        ontext: (text) => {
          if (this.anchor && this.anchor.text.length < MAX_TEXT_CHARS * 2) this.anchor.text += text;
        },
        onclosetag: (name) => {
          if ((name === 'a' || name === 'area') && this.anchor) this.closeAnchor();
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
  }

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): ExtractedLinks {
    this.parser.end();
    if (this.anchor) this.closeAnchor();
    return { refs: this.refs, base: this.base, truncated: this.truncated };
  }

  private closeAnchor(): void {
    if (!this.anchor) return;
    const text = clip(collapse(this.anchor.text));
    this.anchor.ref.text = text || this.anchor.ref.text;
    this.anchor = null;
  }

  private add(
    raw: string | undefined,
    element: LinkElement,
    use: LinkUse,
    text: string | null,
  ): LinkRef | null {
    if (raw === undefined || raw.trim() === '') return null;
    if (this.refs.length >= this.maxRefs) {
      this.truncated = true;
      return null;
    }
    const ref: LinkRef = { raw, element, use, text };
    this.refs.push(ref);
    return ref;
  }

  private open(name: string, attributes: Record<string, string>): void {
    const alt = attributes.alt === undefined ? null : clip(collapse(attributes.alt));
    switch (name) {
      case 'base':
        if (this.base === null && attributes.href !== undefined) this.base = attributes.href;
        return;
      case 'a':
      case 'area': {
        if (this.anchor) this.closeAnchor();
        // Until its text is read, a link is named by its title or label (an icon-only link keeps it).
        const label = attributes['aria-label'] ?? attributes.title;
        const ref = this.add(attributes.href, name, 'navigation', label ? clip(collapse(label)) : alt);
        if (ref && name === 'a') this.anchor = { ref, text: '' };
        return;
      }
      case 'img':
        // An image inside a link names the link when the link has no text.
        if (this.anchor && alt) this.anchor.text += ` ${alt}`;
        this.add(attributes.src, 'img', 'passive', alt);
        for (const url of srcsetUrls(attributes.srcset ?? '')) this.add(url, 'img', 'passive', alt);
        return;
      case 'source':
        this.add(attributes.src, 'source', 'passive', null);
        for (const url of srcsetUrls(attributes.srcset ?? '')) this.add(url, 'source', 'passive', null);
        return;
      case 'video':
        this.add(attributes.src, 'video', 'passive', null);
        this.add(attributes.poster, 'video', 'passive', null);
        return;
      case 'audio':
        this.add(attributes.src, 'audio', 'passive', null);
        return;
      case 'script':
        this.add(attributes.src, 'script', 'active', null);
        return;
      case 'iframe':
        this.add(attributes.src, 'iframe', 'active', attributes.title ?? null);
        return;
      case 'form':
        this.add(attributes.action, 'form', 'active', null);
        return;
      case 'object':
        this.add(attributes.data, 'object', 'active', null);
        return;
      case 'embed':
        this.add(attributes.src, 'embed', 'active', null);
        return;
      case 'link': {
        const use = linkUse(attributes);
        if (use) this.add(attributes.href, 'link', use, null);
        return;
      }
    }
  }
}

/** The links of a whole page held as one string (tests, small documents). */
export function extractLinks(html: string, maxRefs = Number.POSITIVE_INFINITY): ExtractedLinks {
  const extractor = new LinkExtractor(maxRefs);
  extractor.write(html);
  return extractor.end();
}
