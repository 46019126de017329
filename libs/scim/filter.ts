import { type Attribute, attributeNamed } from './attributes.js';
import { scimInvalid } from './scim-error.js';

/**
 * SCIM filters (RFC 7644 §3.4.2.2) parsed by a small recursive-descent grammar and evaluated
 * against a resource's representation; pure. Entra ID's `emails[type eq "work"].value eq "…"` (a
 * value path followed by a sub-attribute) is read as the filter of the emails whose type is work.
 *
 *   filter  = or
 *   or      = and *("or" and)
 *   and     = unary *("and" unary)
 *   unary   = "not" "(" filter ")" / "(" filter ")" / attrExp
 *   attrExp = path "pr" / path compareOp value
 *   path    = [URN ":"] attr ["." sub] / [URN ":"] attr "[" filter "]" ["." sub]
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
const COMPARE_OPS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

export interface AttributePath {
  /** The top-level attribute, as the table spells it. */
  attribute: Attribute;
  /** The sub-attribute of a complex one, as the table spells it. */
  sub: Attribute | null;
  /** A multi-valued attribute's element filter (`emails[type eq "work"]`). */
  filter: Filter | null;
}

export type Literal = string | number | boolean | null;

export type Filter =
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  | { kind: 'present'; path: AttributePath }
  | { kind: 'compare'; path: AttributePath; op: CompareOp; value: Literal };

type Token =
  | { type: 'word'; text: string; at: number }
  | { type: 'string'; text: string; at: number }
  | { type: '(' | ')' | '[' | ']'; at: number };

const MAX_FILTER_LENGTH = 1000;
const MAX_DEPTH = 20;

/** A filter's fault is `invalidFilter`; a PATCH path's (parsed by the same grammar) `invalidPath`. */
const bad = (message: string, parameter: string) =>
  scimInvalid(parameter === 'path' ? 'invalidPath' : 'invalidFilter', parameter, message);

function tokenize(text: string, parameter: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === ' ' || char === '\t') {
      i++;
    } else if (char === '(' || char === ')' || char === '[' || char === ']') {
      tokens.push({ type: char, at: i });
      i++;
    } else if (char === '"') {
      // A JSON string: its escapes as JSON reads them.
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) throw bad(`the string at ${i + 1} is not closed`, parameter);
      try {
        tokens.push({ type: 'string', text: JSON.parse(text.slice(i, end + 1)) as string, at: i });
      } catch {
        throw bad(`the string at ${i + 1} has an invalid escape`, parameter);
      }
      i = end + 1;
    } else {
      const match = /^[A-Za-z0-9_:.$+-]+/.exec(text.slice(i));
      if (!match) throw bad(`unexpected "${char}" at ${i + 1}`, parameter);
      tokens.push({ type: 'word', text: match[0], at: i });
      i += match[0].length;
    }
  }
  return tokens;
}

/** `urn:…:User:name.givenName` → `name.givenName`: the schema URN is the resource's own. */
function withoutUrn(name: string): string {
  return name.toLowerCase().startsWith('urn:') ? name.slice(name.lastIndexOf(':') + 1) : name;
}

class Parser {
  private index = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly attributes: readonly Attribute[],
    private readonly parameter: string,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private fail(message: string): never {
    throw bad(message, this.parameter);
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token?.type === 'word' && token.text.toLowerCase() === word;
  }

  private expect(type: '(' | ')' | '[' | ']'): void {
    const token = this.peek();
    if (token?.type !== type) this.fail(`expected "${type}"${token ? ` at ${token.at + 1}` : ' at the end'}`);
    this.index++;
  }

  parseAll(): Filter {
    if (this.tokens.length === 0) this.fail('the filter is empty');
    const filter = this.or(0);
    this.end();
    return filter;
  }

  end(): void {
    const rest = this.peek();
    if (rest)
      this.fail(`unexpected ${rest.type === 'word' ? `"${rest.text}"` : rest.type} at ${rest.at + 1}`);
  }

  private or(depth: number): Filter {
    let left = this.and(depth);
    while (this.isWord('or')) {
      this.index++;
      left = { kind: 'or', left, right: this.and(depth) };
    }
    return left;
  }

  private and(depth: number): Filter {
    let left = this.unary(depth);
    while (this.isWord('and')) {
      this.index++;
      left = { kind: 'and', left, right: this.unary(depth) };
    }
    return left;
  }

  private unary(depth: number): Filter {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH}`);
    if (this.isWord('not')) {
      this.index++;
      this.expect('(');
      const filter = this.or(depth + 1);
      this.expect(')');
      return { kind: 'not', filter };
    }
    if (this.peek()?.type === '(') {
      this.index++;
      const filter = this.or(depth + 1);
      this.expect(')');
      return filter;
    }
    const path = this.path(depth);
    const op = this.peek();
    if (op?.type !== 'word') this.fail(`expected an operator after ${this.spelled(path)}`);
    this.index++;
    const operator = op.text.toLowerCase();
    if (operator === 'pr') return { kind: 'present', path };
    if (!COMPARE_OPS.has(operator))
      this.fail(`unknown operator "${op.text}" (eq, ne, co, sw, ew, gt, ge, lt, le, pr)`);
    return { kind: 'compare', path, op: operator as CompareOp, value: this.literal() };
  }

  private literal(): Literal {
    const token = this.peek();
    if (!token) this.fail('expected a value at the end');
    this.index++;
    if (token.type === 'string') return token.text;
    if (token.type !== 'word') this.fail(`expected a value at ${token.at + 1}`);
    const word = token.text.toLowerCase();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (/^-?\d+(\.\d+)?$/.test(token.text)) return Number(token.text);
    return this.fail(`expected a value at ${token.at + 1} (strings are in double quotes)`);
  }

  private spelled(path: AttributePath): string {
    return path.sub ? `${path.attribute.name}.${path.sub.name}` : path.attribute.name;
  }

  /** An attribute path of the resource; an attribute it does not have is refused by name. */
  path(depth: number): AttributePath {
    const token = this.peek();
    if (token?.type !== 'word') this.fail(`expected an attribute${token ? ` at ${token.at + 1}` : ''}`);
    this.index++;
    const [name = '', subName, ...more] = withoutUrn(token.text).split('.');
    const attribute = attributeNamed(this.attributes, name);
    if (!attribute || more.length > 0) this.fail(`no attribute "${token.text}" to filter by`);
    let filter: Filter | null = null;
    let sub = subName === undefined ? null : this.subOf(attribute, subName, token.text);
    if (this.peek()?.type === '[') {
      if (!attribute.multiValued || sub) this.fail(`"${token.text}" takes no [filter]`);
      this.index++;
      filter = new Parser(this.tokens, attribute.subAttributes ?? [], this.parameter).nested(this, depth);
      this.expect(']');
      const after = this.peek();
      if (after?.type === 'word' && after.text.startsWith('.')) {
        this.index++;
        sub = this.subOf(attribute, after.text.slice(1), `${token.text}[…]${after.text}`);
      }
    }
    return { attribute, sub, filter };
  }

  private subOf(attribute: Attribute, name: string, spelled: string): Attribute {
    const sub = attributeNamed(attribute.subAttributes ?? [], name);
    if (!sub) this.fail(`no attribute "${spelled}" to filter by`);
    return sub;
  }

  /** A value filter inside `[…]`: parsed against the sub-attributes, sharing the outer tokens. */
  private nested(outer: Parser, depth: number): Filter {
    this.index = outer.index;
    const filter = this.or(depth + 1);
    outer.index = this.index;
    return filter;
  }
}

/** The filter in `text`, its attributes checked against `attributes`; 400 `invalidFilter` otherwise. */
export function parseFilter(text: string, attributes: readonly Attribute[], parameter = 'filter'): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw bad(`longer than ${MAX_FILTER_LENGTH} characters`, parameter);
  return new Parser(tokenize(text, parameter), attributes, parameter).parseAll();
}

/** A PATCH operation's `path` (RFC 7644 §3.5.2): an attribute path, with a value filter if any. */
export function parsePath(text: string, attributes: readonly Attribute[]): AttributePath {
  const parser = new Parser(tokenize(text, 'path'), attributes, 'path');
  const path = parser.path(0);
  parser.end();
  return path;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value of `name` in `object`, matched case-insensitively as SCIM's attribute names are. */
export function attributeValue(object: Json, name: string): unknown {
  const key = Object.keys(object).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : object[key];
}

function compare(actual: unknown, op: CompareOp, expected: Literal, attribute: Attribute): boolean {
  if (actual === undefined || actual === null) return op === 'ne' ? expected !== null : expected === null;
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    if (op !== 'eq' && op !== 'ne') return false;
    return (actual === expected) === (op === 'eq');
  }
  const fold = (value: unknown) => (attribute.caseExact ? String(value) : String(value).toLowerCase());
  const [a, b] = [fold(actual), fold(expected)];
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
  }
}

/** The values a path names in a resource: a multi-valued attribute's matching elements' (sub-)values. */
export function valuesAt(resource: Json, path: AttributePath): unknown[] {
  const top = attributeValue(resource, path.attribute.name);
  if (path.attribute.multiValued) {
    const elements = (Array.isArray(top) ? top : []).filter(
      (element) => !path.filter || (isObject(element) && matches(path.filter, element)),
    );
    // A multi-valued complex attribute compared as a whole compares its elements' `value`.
    const sub = path.sub?.name ?? (path.attribute.type === 'complex' ? 'value' : null);
    return sub
      ? elements.map((element) => (isObject(element) ? attributeValue(element, sub) : undefined))
      : elements;
  }
  if (path.sub) return [isObject(top) ? attributeValue(top, path.sub.name) : undefined];
  return [top];
}

/** Whether the resource (its representation) matches the filter. */
export function matches(filter: Filter, resource: Json): boolean {
  switch (filter.kind) {
    case 'and':
      return matches(filter.left, resource) && matches(filter.right, resource);
    case 'or':
      return matches(filter.left, resource) || matches(filter.right, resource);
    case 'not':
      return !matches(filter.filter, resource);
    case 'present':
      return valuesAt(resource, filter.path).some(
        (value) =>
          value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && !value.length),
      );
    case 'compare': {
      const attribute = filter.path.sub ?? filter.path.attribute;
      const values = valuesAt(resource, filter.path);
      if (filter.op === 'ne') return values.every((value) => compare(value, 'ne', filter.value, attribute));
      return values.some((value) => compare(value, filter.op, filter.value, attribute));
    }
  }
}
