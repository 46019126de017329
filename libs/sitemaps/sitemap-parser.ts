import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { ErrorLog } from './error-log.js';
import type { SitemapErrorCode } from './sitemap.schema.js';
import {
  changefreqProblem,
  lastmodProblem,
  locProblem,
  MAX_LOC_CHARS,
  priorityProblem,
  type ValueProblem,
} from './sitemap-values.js';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** The protocol's most entries in one file. */
export const MAX_ENTRIES = 50_000;
/** Characters of a field's text kept: enough to tell a `<loc>` is over its 2,048. */
const FIELD_TEXT_KEPT = MAX_LOC_CHARS + 1;

export type SitemapKind = 'urlset' | 'index';

/** The elements each kind's entries may hold (sitemap.xsd and siteindex.xsd). */
const SCHEMA = {
  urlset: { entry: 'url', fields: ['loc', 'lastmod', 'changefreq', 'priority'] },
  index: { entry: 'sitemap', fields: ['loc', 'lastmod'] },
} as const;
const ROOTS: Record<string, SitemapKind> = { urlset: 'urlset', sitemapindex: 'index' };

export interface SitemapFileContext {
  /** The file's URL, which every error names. */
  url: string;
  /** Hosts its `<loc>`s may be on (see `locProblem`). */
  allowedHosts: ReadonlySet<string>;
  /** What "in the future" is measured from. */
  now: Date;
}

interface Position {
  line: number;
  column: number;
}

interface OpenEntry extends Position {
  index: number;
  loc: string | null;
  hadLoc: boolean;
  seen: Set<string>;
}

interface OpenField extends Position {
  name: string;
  text: string;
}

/**
 * One sitemap file read as it arrives (bytes in, never a tree): it checks the XML is well formed
 * UTF-8 and follows the sitemaps.org schema, reports what is wrong to `errors` with its line,
 * column and entry, and hands each valid `<loc>` to `onLoc`. Elements of other namespaces (image,
 * video, news extensions) are allowed and skipped. After the first XML error it judges nothing
 * more (the `<loc>`s before it were handed on): `failed` tells the caller to stop feeding it.
 */
export class SitemapParser {
  kind: SitemapKind | null = null;
  entries = 0;
  failed = false;
  private readonly xml = new SaxesParser({ xmlns: true, position: true });
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private bytes = 0;
  private depth = 0;
  /** The depth of an element whose subtree is ignored (another namespace, or already reported). */
  private skipFrom: number | null = null;
  private entry: OpenEntry | null = null;
  private field: OpenField | null = null;

  constructor(
    private readonly file: SitemapFileContext,
    private readonly errors: ErrorLog,
    private readonly onLoc: (loc: string) => void,
  ) {
    this.xml.on('xmldecl', (decl) => {
      if (decl.encoding && decl.encoding.toLowerCase() !== 'utf-8')
        this.report('NOT_UTF8', `declares encoding ${decl.encoding}; sitemaps must be UTF-8`, this.here());
    });
    this.xml.on('opentag', (tag) => this.open(tag));
    this.xml.on('closetag', () => this.close());
    this.xml.on('error', (error) => {
      if (this.failed) return;
      this.failed = true;
      this.report(
        'NOT_WELL_FORMED',
        `not well-formed XML: ${error.message.replace(/^\d+:\d+: /, '')}`,
        this.here(),
      );
    });
  }

  /** Feeds the next bytes of the file (UTF-8, already decompressed). */
  write(chunk: Uint8Array): void {
    if (this.failed) return;
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      this.failed = true;
      this.report(
        'NOT_UTF8',
        `not UTF-8: an invalid byte sequence within bytes ${this.bytes + 1}–${this.bytes + chunk.length}`,
        null,
      );
      return;
    }
    this.bytes += chunk.length;
    this.xml.write(text);
  }

  /**
   * Ends the file: when it was read whole, what an end reveals (unclosed elements, no entry);
   * when a bound cut it short, nothing more is judged.
   */
  end(readWhole: boolean): void {
    if (!readWhole || this.failed) return;
    try {
      this.xml.write(this.decoder.decode());
    } catch {
      this.failed = true;
      this.report('NOT_UTF8', 'not UTF-8: the file ends inside a character', null);
      return;
    }
    this.xml.close();
    if (!this.failed && this.kind && this.entries === 0)
      this.report('EMPTY_SITEMAP', `the <${this.rootName()}> has no <${SCHEMA[this.kind].entry}>`, null);
  }

  private rootName(): string {
    return this.kind === 'index' ? 'sitemapindex' : 'urlset';
  }

  private here(): Position {
    return { line: this.xml.line, column: this.xml.column };
  }

  private report(
    code: SitemapErrorCode,
    message: string,
    at: Position | null,
    entry = this.entry?.index ?? null,
  ) {
    this.errors.add({
      code,
      message,
      file: this.file.url,
      line: at?.line ?? null,
      column: at?.column ?? null,
      entry,
    });
  }

  private open(tag: SaxesTagNS): void {
    this.depth += 1;
    if (this.failed || this.skipFrom !== null) return;
    if (!this.takeIn(tag, this.here())) this.skipFrom = this.depth;
  }

  /** Takes an element in (the root, an entry, a field): false when its subtree is to be skipped. */
  private takeIn(tag: SaxesTagNS, at: Position): boolean {
    if (this.depth === 1) return this.takeInRoot(tag, at);
    if (!this.kind) return false;
    const schema = SCHEMA[this.kind];
    // Another namespace's element (an extension) is allowed anywhere but inside a field.
    if (tag.uri !== SITEMAP_NAMESPACE && this.depth <= 3) return false;
    if (this.depth === 2) {
      if (tag.local !== schema.entry) {
        this.report('UNKNOWN_ELEMENT', `<${tag.name}> is not allowed in <${this.rootName()}>`, at, null);
        return false;
      }
      this.entries += 1;
      this.entry = { ...at, index: this.entries, loc: null, hadLoc: false, seen: new Set() };
      if (this.entries === MAX_ENTRIES + 1)
        this.report(
          'TOO_MANY_URLS',
          `more than ${MAX_ENTRIES.toLocaleString('en')} <${schema.entry}> entries`,
          at,
        );
      return true;
    }
    const entry = this.entry;
    if (this.depth === 3 && entry) {
      if (!(schema.fields as readonly string[]).includes(tag.local)) {
        this.report('UNKNOWN_ELEMENT', `<${tag.name}> is not allowed in <${schema.entry}>`, at);
        return false;
      }
      if (entry.seen.has(tag.local)) {
        this.report('REPEATED_ELEMENT', `<${schema.entry}> has more than one <${tag.local}>`, at);
        return false;
      }
      entry.seen.add(tag.local);
      if (tag.local === 'loc') entry.hadLoc = true;
      this.setField({ ...at, name: tag.local, text: '' });
      return true;
    }
    this.report('UNKNOWN_ELEMENT', `<${tag.name}> is not allowed in <${this.field?.name ?? 'a field'}>`, at);
    // The field's value is not judged once it holds an element.
    this.setField(null);
    return false;
  }

  private takeInRoot(tag: SaxesTagNS, at: Position): boolean {
    const kind = ROOTS[tag.local];
    if (kind && tag.uri === SITEMAP_NAMESPACE) {
      this.kind = kind;
      return true;
    }
    if (kind)
      this.report(
        'WRONG_NAMESPACE',
        `<${tag.name}> is in ${tag.uri ? `the namespace ${tag.uri}` : 'no namespace'}, not ${SITEMAP_NAMESPACE}`,
        at,
      );
    else this.report('WRONG_ROOT', `the root element is <${tag.name}>, not <urlset> or <sitemapindex>`, at);
    return false;
  }

  /**
   * Listens to text only inside a field: saxes gathers no text while nobody listens, so 50 MB of
   * whitespace or text between entries is scanned, never held.
   */
  private setField(field: OpenField | null): void {
    this.field = field;
    if (field) {
      this.xml.on('text', this.onText);
      this.xml.on('cdata', this.onText);
    } else {
      this.xml.off('text');
      this.xml.off('cdata');
    }
  }

  private readonly onText = (text: string): void => {
    const field = this.field;
    if (this.failed || this.skipFrom !== null || !field) return;
    if (field.text.length < FIELD_TEXT_KEPT) field.text += text.slice(0, FIELD_TEXT_KEPT - field.text.length);
  };

  private close(): void {
    const depth = this.depth;
    this.depth -= 1;
    if (this.failed) return;
    if (this.skipFrom !== null) {
      if (depth === this.skipFrom) this.skipFrom = null;
      return;
    }
    if (depth === 3 && this.field) this.closeField(this.field);
    else if (depth === 2 && this.entry) this.closeEntry(this.entry);
  }

  private closeField(field: OpenField): void {
    this.setField(null);
    const entry = this.entry;
    if (!entry) return;
    const value = field.text.trim();
    let problem: ValueProblem | null = null;
    if (field.name === 'loc') {
      problem = locProblem(value, this.file.allowedHosts);
      if (!problem) entry.loc = value;
    } else if (field.name === 'lastmod') problem = lastmodProblem(value, this.file.now);
    else if (field.name === 'changefreq') problem = changefreqProblem(value);
    else if (field.name === 'priority') problem = priorityProblem(value);
    if (problem) this.report(problem.code, problem.message, field);
  }

  private closeEntry(entry: OpenEntry): void {
    this.entry = null;
    if (!entry.hadLoc) {
      const name = this.kind === 'index' ? 'sitemap' : 'url';
      this.report('MISSING_LOC', `<${name}> has no <loc>`, entry, entry.index);
      return;
    }
    if (entry.loc !== null) this.onLoc(entry.loc);
  }
}
