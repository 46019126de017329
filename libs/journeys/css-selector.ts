/**
 * A syntax check of CSS selectors as Playwright's `css=` engine takes them: Selectors Level 4
 * (lists, combinators, attributes, pseudo-classes with their arguments, pseudo-elements) and
 * Playwright's own pseudo-classes (`:has-text()`, `:visible`, `:near()` …). It does not match
 * anything; it refuses when written what the browser would refuse when the step runs. Namespaces
 * (`svg|rect`) are not taken: an HTML page has no use for them.
 */

/** How a pseudo-class takes its argument (`plain`: none). */
type PseudoArgument =
  | 'plain'
  | 'selectors'
  | 'relative'
  | 'anb'
  | 'anbOf'
  | 'text'
  | 'textPattern'
  | 'nthMatch'
  | 'near'
  | 'languages'
  | 'ident';

/** Pseudo-classes without an argument: Selectors 4's, CSS 2's pseudo-elements (one colon), Playwright's last. */
const PLAIN_PSEUDO_CLASSES =
  `active any-link autofill blank buffering checked current default defined disabled
  empty enabled first first-child first-of-type focus focus-visible focus-within fullscreen future hover in-range
  indeterminate invalid last-child last-of-type left link local-link modal muted only-child only-of-type open
  optional out-of-range past paused picture-in-picture placeholder-shown playing popover-open read-only read-write
  required right root scope seeking stalled target target-within user-invalid user-valid valid visited
  volume-locked before after first-line first-letter visible light`.split(/\s+/);

const PSEUDO_CLASSES: Record<string, PseudoArgument> = {
  ...Object.fromEntries(PLAIN_PSEUDO_CLASSES.map((name) => [name, 'plain' as const])),
  is: 'selectors',
  where: 'selectors',
  not: 'selectors',
  matches: 'selectors',
  host: 'selectors',
  'host-context': 'selectors',
  has: 'relative',
  'nth-child': 'anbOf',
  'nth-last-child': 'anbOf',
  'nth-of-type': 'anb',
  'nth-last-of-type': 'anb',
  'nth-col': 'anb',
  'nth-last-col': 'anb',
  lang: 'languages',
  dir: 'ident',
  state: 'ident',
  // Playwright's.
  'has-text': 'text',
  text: 'text',
  'text-is': 'text',
  'text-matches': 'textPattern',
  'nth-match': 'nthMatch',
  'left-of': 'near',
  'right-of': 'near',
  above: 'near',
  below: 'near',
  near: 'near',
};

/** `host` is both: `:host` and `:host(.dark)`. */
const ARGUMENT_OPTIONAL = new Set(['host']);

const PSEUDO_ELEMENTS = new Set(
  `after backdrop before cue file-selector-button first-letter first-line grammar-error highlight marker part
  placeholder selection slotted spelling-error target-text view-transition`.split(/\s+/),
);

/** an+b as CSS Syntax reads it: odd, even, 3, -n+2, 2n + 1. */
const AN_PLUS_B = /\s*(?:odd|even|[+-]?\d*n(?:\s*[+-]\s*\d+)?|[+-]?\d+)\s*/iy;
const NUMBER = /\s*\d+\s*/y;
const ATTRIBUTE_MATCHER = /[~|^$*]?=/y;
/** CSS's white space (not Unicode's: a no-break space is part of a name). */
const SPACE = /^[ \t\n\r\f]$/;

class SelectorSyntaxError extends Error {}

/** A reader over one selector: each method consumes what it names or throws where it cannot. */
class SelectorReader {
  private at = 0;

  constructor(private readonly source: string) {}

  read(): void {
    this.selectorList(false);
    if (!this.ended()) this.unexpected();
  }

  private ended = () => this.at >= this.source.length;
  private peek = (offset = 0) => this.source[this.at + offset] ?? '';

  private fail(message: string): never {
    throw new SelectorSyntaxError(message);
  }

  private unexpected(): never {
    if (this.ended()) this.fail('it ends where more should follow');
    this.fail(`unexpected ${JSON.stringify(this.peek())} at character ${this.at + 1}`);
  }

  private skipSpace(): boolean {
    const start = this.at;
    while (SPACE.test(this.peek())) this.at++;
    return this.at > start;
  }

  private expect(character: string): void {
    if (this.peek() !== character) this.unexpected();
    this.at++;
  }

  private sticky(pattern: RegExp): boolean {
    pattern.lastIndex = this.at;
    if (!pattern.test(this.source)) return false;
    this.at = pattern.lastIndex;
    return true;
  }

  private selectorList(relative: boolean, stopAtNumber = false): void {
    for (;;) {
      this.skipSpace();
      this.complexSelector(relative);
      this.skipSpace();
      if (this.peek() !== ',') return;
      // `:nth-match(li, 2)` and `:near(a, 120)`: the list ends at a number.
      if (stopAtNumber && /^,\s*\d/.test(this.source.slice(this.at))) return;
      this.at++;
    }
  }

  private complexSelector(relative: boolean): void {
    if (relative && /[>+~]/.test(this.peek())) {
      this.at++;
      this.skipSpace();
    }
    this.compoundSelector();
    for (;;) {
      const spaced = this.skipSpace();
      const next = this.peek();
      if (next === '>' || next === '+' || next === '~') {
        this.at++;
        this.skipSpace();
        this.compoundSelector();
      } else if (this.ended() || next === ',' || next === ')') return;
      else if (spaced) this.compoundSelector();
      else this.unexpected();
    }
  }

  private compoundSelector(): void {
    const start = this.at;
    if (this.peek() === '*') this.at++;
    else if (this.startsIdent()) this.ident();
    for (;;) {
      const next = this.peek();
      if (next === '#' || next === '.') {
        this.at++;
        if (!this.startsIdent()) this.fail(`"${next}" must be followed by a name, at character ${this.at}`);
        this.ident();
      } else if (next === '[') this.attribute();
      else if (next === ':') this.pseudo();
      else break;
    }
    if (this.at === start) this.unexpected();
  }

  private startsIdent(): boolean {
    const [first, second, third] = [this.peek(), this.peek(1), this.peek(2)];
    const starts = (c: string, d: string) =>
      /[A-Za-z_\u0080-\uffff]/.test(c) || (c === '\\' && d !== '\n' && d !== '');
    if (first === '-') return second === '-' || starts(second, third);
    return starts(first, second);
  }

  private ident(): string {
    const start = this.at;
    while (!this.ended()) {
      const c = this.peek();
      if (c === '\\') this.escape();
      else if (/[A-Za-z0-9_\-\u0080-\uffff]/.test(c)) this.at++;
      else break;
    }
    return this.source.slice(start, this.at);
  }

  private escape(): void {
    this.at++;
    if (this.ended() || this.peek() === '\n')
      this.fail(`a "\\" must escape something, at character ${this.at}`);
    if (/[0-9a-fA-F]/.test(this.peek())) {
      let digits = 0;
      while (digits < 6 && /[0-9a-fA-F]/.test(this.peek())) {
        this.at++;
        digits++;
      }
      if (SPACE.test(this.peek())) this.at++;
    } else this.at++;
  }

  private string(): void {
    const quote = this.peek();
    const start = this.at + 1;
    this.at++;
    while (this.peek() !== quote) {
      if (this.ended()) this.fail(`the text in quotes from character ${start} is not closed`);
      if (this.peek() === '\n') this.fail(`the text in quotes from character ${start} must end on its line`);
      if (this.peek() === '\\') this.at++;
      this.at++;
    }
    this.at++;
  }

  private stringOrIdent(): void {
    if (this.peek() === '"' || this.peek() === "'") this.string();
    else if (this.startsIdent()) this.ident();
    else this.unexpected();
  }

  private attribute(): void {
    this.at++;
    this.skipSpace();
    if (!this.startsIdent()) this.unexpected();
    this.ident();
    this.skipSpace();
    if (this.sticky(ATTRIBUTE_MATCHER)) {
      this.skipSpace();
      this.stringOrIdent();
      this.skipSpace();
      // `[lang=en i]`: one letter, i or s, for case.
      if (/[is]/i.test(this.peek()) && (SPACE.test(this.peek(1)) || this.peek(1) === ']')) {
        this.at++;
        this.skipSpace();
      }
    }
    this.expect(']');
  }

  private pseudo(): void {
    this.at++;
    const element = this.peek() === ':';
    if (element) this.at++;
    const start = this.at;
    if (!this.startsIdent()) this.unexpected();
    const name = this.ident().toLowerCase();
    const vendor = /^-(webkit|moz|ms|o)-/.test(name);
    const called = this.peek() === '(';
    if (vendor) {
      if (called) this.balanced();
      return;
    }
    if (element) {
      if (!PSEUDO_ELEMENTS.has(name))
        this.fail(`"::${name}" is not a pseudo-element, at character ${start - 1}`);
      if (called) this.balanced();
      return;
    }
    const argument = PSEUDO_CLASSES[name];
    if (!argument) this.fail(`":${name}" is not a pseudo-class, at character ${start}`);
    if (argument === 'plain' || (ARGUMENT_OPTIONAL.has(name) && !called)) {
      if (called && argument === 'plain')
        this.fail(`":${name}" takes no argument, at character ${this.at + 1}`);
      return;
    }
    if (!called) this.fail(`":${name}" needs an argument in parentheses, at character ${this.at + 1}`);
    this.at++;
    this.pseudoArgument(name, argument);
    this.skipSpace();
    this.expect(')');
  }

  private pseudoArgument(name: string, argument: Exclude<PseudoArgument, 'plain'>): void {
    switch (argument) {
      case 'selectors':
      case 'relative':
        this.selectorList(argument === 'relative');
        return;
      case 'anb':
      case 'anbOf':
        if (!this.sticky(AN_PLUS_B)) this.fail(`":${name}" needs a position such as 2, odd or 2n+1`);
        if (argument === 'anbOf' && /^of\s/i.test(this.source.slice(this.at))) {
          this.at += 2;
          this.selectorList(false);
        }
        return;
      case 'text':
        this.skipSpace();
        this.stringOrIdent();
        return;
      case 'textPattern':
        this.skipSpace();
        this.stringOrIdent();
        this.skipSpace();
        if (this.peek() === ',') {
          this.at++;
          this.skipSpace();
          this.stringOrIdent();
        }
        return;
      case 'nthMatch':
      case 'near':
        this.selectorList(false, true);
        if (this.peek() === ',') {
          this.at++;
          this.sticky(NUMBER);
        } else if (argument === 'nthMatch')
          this.fail(`":nth-match" needs a selector and a position, such as (li, 2)`);
        return;
      case 'languages':
        for (;;) {
          this.skipSpace();
          this.stringOrIdent();
          this.skipSpace();
          if (this.peek() !== ',') return;
          this.at++;
        }
      case 'ident':
        this.skipSpace();
        if (!this.startsIdent()) this.unexpected();
        this.ident();
    }
  }

  /** A vendor's or a pseudo-element's argument: anything with its brackets and quotes balanced. */
  private balanced(): void {
    const closing: string[] = [];
    do {
      const c = this.peek();
      if (this.ended()) this.fail('a "(" is not closed');
      if (c === '"' || c === "'") {
        this.string();
        continue;
      }
      if (c === '\\') this.escape();
      else {
        if (c === '(') closing.push(')');
        else if (c === '[') closing.push(']');
        else if (c === ')' || c === ']') {
          if (closing.pop() !== c) this.unexpected();
        }
        this.at++;
      }
    } while (closing.length > 0);
  }
}

/** Why `selector` is not a CSS selector Playwright's `css=` engine takes (in words), or null. */
export function cssSelectorProblem(selector: string): string | null {
  try {
    new SelectorReader(selector).read();
    return null;
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return `Must be a CSS selector: ${error.message}`;
    throw error;
  }
}
