import { type ParseError, parse } from '@babel/parser';

/**
 * Reading a Playwright test's source without running it: Babel's parser (JavaScript and
 * TypeScript alike, positions kept), call chains as `page.getByRole(…).nth(1).click(…)` reads,
 * and the literal values codegen writes. Nothing here evaluates code: an argument that is not a
 * literal is refused as a value, not computed.
 */

type Program = ReturnType<typeof parse>['program'];
export type Statement = Program['body'][number];
type ExpressionStatement = Extract<Statement, { type: 'ExpressionStatement' }>;
export type Expression = ExpressionStatement['expression'];
type CallExpression = Extract<Expression, { type: 'CallExpression' }>;
/** An argument as written: an expression, a spread (`...devices['Pixel 7']`) or a placeholder. */
export type Argument = CallExpression['arguments'][number];
type ObjectExpression = Extract<Expression, { type: 'ObjectExpression' }>;
type ObjectMember = ObjectExpression['properties'][number];
export type FunctionExpression = Extract<
  Expression,
  { type: 'ArrowFunctionExpression' | 'FunctionExpression' }
>;

/** Why a statement does not convert, thrown where it is found and caught per statement. */
export class NotConverted extends Error {}

export function refuse(reason: string): never {
  throw new NotConverted(reason);
}

/** The program, or the syntax errors that stop it from being read (with their 1-based lines). */
export function parseRecording(
  code: string,
): { program: Program; errors: [] } | { program: null; errors: Array<{ line: number; message: string }> } {
  const syntaxError = (error: ParseError | SyntaxError) => ({
    line: 'loc' in error ? error.loc.line : 1,
    message: error.message.replace(/\s*\(\d+:\d+\)$/, ''),
  });
  try {
    const file = parse(code, {
      sourceType: 'unambiguous',
      plugins: ['typescript'],
      errorRecovery: true,
      allowAwaitOutsideFunction: true,
    });
    if (file.errors?.length) return { program: null, errors: file.errors.map(syntaxError) };
    return { program: file.program, errors: [] };
  } catch (error) {
    if (error instanceof SyntaxError) return { program: null, errors: [syntaxError(error)] };
    throw error;
  }
}

/** The expression without what does not change its value: `await`, parentheses, TypeScript's `as` and `!`. */
export function unwrap(node: Expression): Expression {
  switch (node.type) {
    case 'AwaitExpression':
      return node.argument ? unwrap(node.argument) : node;
    case 'ParenthesizedExpression':
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'TSTypeAssertion':
      return unwrap(node.expression);
    default:
      return node;
  }
}

/** One link of a chain: `.nth(1)` (a call, its arguments) or `.keyboard` (a property, null). */
export interface ChainLink {
  name: string;
  args: Argument[] | null;
}

/** `expect(x).not.toBeVisible()` as its root (`expect`, called with x) and its links (`not`, `toBeVisible()`). */
export interface CallChain {
  root: string;
  rootArgs: Argument[] | null;
  links: ChainLink[];
}

/** The chain of property reads and calls an expression is, from a name; null if it is something else. */
export function chainOf(expression: Expression): CallChain | null {
  const links: ChainLink[] = [];
  let node = unwrap(expression);
  for (;;) {
    let args: Argument[] | null = null;
    if (node.type === 'CallExpression') {
      args = node.arguments;
      node = unwrap(node.callee as Expression);
    }
    if (node.type === 'Identifier') return { root: node.name, rootArgs: args, links: links.reverse() };
    if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
      links.push({ name: node.property.name, args });
      node = unwrap(node.object);
      continue;
    }
    return null;
  }
}

const asExpression = (argument: Argument | undefined): Expression | null =>
  argument && argument.type !== 'SpreadElement' && argument.type !== 'ArgumentPlaceholder'
    ? unwrap(argument)
    : null;

/** A string as written ('…', "…" or `…` without `${}`), else null. */
export function stringOf(argument: Argument | undefined): string | null {
  const node = asExpression(argument);
  if (node?.type === 'StringLiteral') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? null;
  return null;
}

export function numberOf(argument: Argument | undefined): number | null {
  const node = asExpression(argument);
  if (node?.type === 'NumericLiteral') return node.value;
  if (node?.type === 'UnaryExpression' && node.operator === '-' && node.argument.type === 'NumericLiteral')
    return -node.argument.value;
  return null;
}

export function booleanOf(argument: Argument | undefined): boolean | null {
  const node = asExpression(argument);
  return node?.type === 'BooleanLiteral' ? node.value : null;
}

export function regexOf(argument: Argument | undefined): { pattern: string; flags: string } | null {
  const node = asExpression(argument);
  return node?.type === 'RegExpLiteral' ? { pattern: node.pattern, flags: node.flags } : null;
}

/** An array of strings as written, else null. */
export function stringsOf(argument: Argument | undefined): string[] | null {
  const node = asExpression(argument);
  if (node?.type !== 'ArrayExpression') return null;
  const strings = node.elements.map((element) => (element ? stringOf(element) : null));
  return strings.every((value): value is string => value !== null) ? strings : null;
}

/** The function an argument is (`async ({ page }) => {…}`), else null. */
export function functionOf(argument: Argument | undefined): FunctionExpression | null {
  const node = asExpression(argument);
  return node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionExpression' ? node : null;
}

/** An object literal's properties by name, and its spreads; null if it is not one or has methods or computed keys. */
export function objectOf(
  argument: Argument | undefined,
): { properties: Map<string, Argument>; spreads: Expression[] } | null {
  const node = asExpression(argument);
  if (node?.type !== 'ObjectExpression') return null;
  const properties = new Map<string, Argument>();
  const spreads: Expression[] = [];
  for (const member of node.properties as ObjectMember[]) {
    if (member.type === 'SpreadElement') spreads.push(unwrap(member.argument));
    else if (member.type === 'ObjectProperty' && !member.computed) {
      const key = member.key.type === 'Identifier' ? member.key.name : stringOf(member.key as Argument);
      if (key === null) return null;
      properties.set(key, member.value as Argument);
    } else return null;
  }
  return { properties, spreads };
}

/**
 * The options object a call ends with, each key one of `known` (else the statement is refused:
 * an option we cannot honour, `force` or `modifiers`, would make the step do something else).
 */
export function optionsOf(argument: Argument | undefined, known: readonly string[]): Map<string, Argument> {
  if (argument === undefined) return new Map();
  const object = objectOf(argument);
  if (!object || object.spreads.length) return refuse('its options are not an object literal');
  for (const key of object.properties.keys())
    if (!known.includes(key)) refuse(`the option ${key} does not convert`);
  return object.properties;
}

/** `{ timeout: 5000 }` as a step's `timeoutMs`. */
export function timeoutOf(options: Map<string, Argument>): { timeoutMs?: number } {
  if (!options.has('timeout')) return {};
  const timeout = numberOf(options.get('timeout'));
  return timeout === null ? refuse('its timeout is not a number') : { timeoutMs: timeout };
}
