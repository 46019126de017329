import { journeyFields } from './journey-options.schema.js';
import { type JourneyStep, journeyStep, MAX_JOURNEY_STEPS } from './journey-steps.schema.js';
import {
  type Argument,
  type CallChain,
  chainOf,
  type Expression,
  type FunctionExpression,
  functionOf,
  NotConverted,
  numberOf,
  objectOf,
  parseRecording,
  refuse,
  type Statement,
  stringOf,
  unwrap,
} from './playwright-source.js';
import { type Draft, expectStep, pageStep } from './playwright-steps.js';
import type { ConvertedRecording, RecordedOptions, UnconvertedLine } from './recording.schema.js';

/**
 * A test written by `npx playwright codegen` (a Playwright Test file or the library script,
 * JavaScript or TypeScript) as a journey's steps, by parsing it, never running it. Each statement
 * becomes one step, is boilerplate (imports, launching the browser, closing it), or is returned
 * with its line and the reason it does not convert. A password typed into a field becomes
 * `{{secret.PASSWORD}}` with its value among the options' secrets, so it is sealed when saved.
 */

/** An unconverted statement is shown this long at most. */
const SHOWN_CHARS = 500;
/** A field whose value is a credential (its label, name, placeholder or selector says so). */
const SECRET_FIELD = /passw|passphrase|pwd|kennwort|mot de passe|contraseña|\bpin\b|secret/i;
const PHONES =
  /iPhone|Pixel|Galaxy S|Galaxy Note|Galaxy A|Nexus [456]|Moto|Nokia|BlackBerry|LG Optimus|Lumia/i;

class Conversion {
  readonly steps: JourneyStep[] = [];
  readonly options: RecordedOptions = {};
  readonly unconverted: UnconvertedLine[] = [];
  /**
   * Names the recording gives its page (`page` also when only a test's lines are pasted), and its
   * browser and context (whose lines are boilerplate).
   */
  private readonly pages = new Set<string>(['page']);
  private readonly harness = new Set<string>();
  private tests = 0;

  constructor(private readonly code: string) {}

  topLevel(statement: Statement): void {
    this.attempt(statement, () => {
      if (statement.type === 'ImportDeclaration') return;
      if (statement.type === 'VariableDeclaration' && statement.declarations.every((d) => isRequire(d.init)))
        return;
      if (statement.type !== 'ExpressionStatement') {
        this.statement(statement);
        return;
      }
      const expression = unwrap(statement.expression);
      // The library script: (async () => { … })();
      const script = expression.type === 'CallExpression' ? functionOf(expression.callee as Argument) : null;
      const chain = chainOf(expression);
      if (script && expression.type === 'CallExpression' && expression.arguments.length === 0)
        this.body(script, false);
      else if (chain?.root === 'test') this.testCall(chain);
      else this.statement(statement);
    });
  }

  private testCall(chain: CallChain): void {
    const kind = chain.links.map((link) => link.name).join('.');
    const args = (chain.links.at(-1)?.args ?? chain.rootArgs) || [];
    if (kind === 'use') this.contextOptions(args[0]);
    else if (kind === 'describe' || kind === 'describe.serial') {
      const block = functionOf(args[1]) ?? refuse('its body is not a function');
      if (block.body.type === 'BlockStatement') for (const inner of block.body.body) this.topLevel(inner);
    } else if (kind !== '' && kind !== 'only') refuse(`test.${kind}() does not convert`);
    else if (this.tests++ > 0)
      refuse('a second test does not convert: a journey is one test (record one per journey)');
    else this.body(functionOf(args[1]) ?? refuse('its body is not a function'), true);
  }

  /** A test's or the script's body; a test's page is its parameter's `page`. */
  private body(fn: FunctionExpression, isTest: boolean): void {
    if (isTest) {
      const fixtures = fn.params[0];
      if (fixtures?.type === 'ObjectPattern')
        for (const property of fixtures.properties)
          if (property.type === 'ObjectProperty' && property.key.type === 'Identifier')
            if (property.value.type === 'Identifier')
              (property.key.name === 'page' ? this.pages : this.harness).add(property.value.name);
    }
    if (fn.body.type !== 'BlockStatement') refuse('its body is not a block');
    for (const statement of fn.body.body) this.attempt(statement, () => this.statement(statement));
  }

  private statement(statement: Statement): void {
    if (statement.type === 'EmptyStatement') return;
    if (statement.type === 'VariableDeclaration') {
      this.declaration(statement);
      return;
    }
    const chain = statement.type === 'ExpressionStatement' ? chainOf(statement.expression) : null;
    if (!chain) refuse('only calls on the page convert');
    if (this.harness.has(chain.root) && chain.links.length === 1 && chain.links[0]?.name === 'close') return;
    let step: Draft | null = null;
    if (chain.root === 'expect') step = expectStep(chain, this.page());
    else if (this.pages.has(chain.root)) step = pageStep(chain);
    else {
      const popup = /^page/i.test(chain.root) ? ' (a popup or a new tab): a journey plays one page' : '';
      refuse(`it acts on ${chain.root}, not the page${popup}`);
    }
    if (step) this.add(step);
  }

  /** The script's boilerplate: `const browser = await chromium.launch(…)`, `newContext(…)`, `newPage()`. */
  private declaration(statement: Extract<Statement, { type: 'VariableDeclaration' }>): void {
    const [declarator, ...more] = statement.declarations;
    const init = declarator?.init;
    const chain = init ? chainOf(init) : null;
    const call = chain?.links.length === 1 ? chain.links[0] : undefined;
    if (more.length || declarator?.id.type !== 'Identifier' || !chain || !call?.args)
      refuse('a variable does not convert (a popup, a download or a value computed in the script)');
    const name = declarator.id.name;
    if (call.name === 'launch') this.harness.add(name);
    else if (call.name === 'newContext') {
      this.harness.add(name);
      this.contextOptions(call.args[0]);
    } else if (call.name === 'newPage' && this.harness.has(chain.root)) this.pages.add(name);
    else refuse('a variable does not convert (a popup, a download or a value computed in the script)');
  }

  /** `test.use({…})` or `browser.newContext({…})`: the device, locale, time zone, viewport, headers. */
  private contextOptions(argument: Argument | undefined): void {
    if (argument === undefined) return;
    const object = objectOf(argument) ?? refuse('its options are not an object literal');
    const options: RecordedOptions = {};
    for (const spread of object.spreads) options.device = deviceOf(spread);
    for (const [key, value] of object.properties) {
      if (key === 'locale') options.locale = stringOf(value) ?? refuse('its locale is not a text as written');
      else if (key === 'timezoneId')
        options.timezone = stringOf(value) ?? refuse('its time zone is not a text');
      else if (key === 'viewport') {
        const size = objectOf(value)?.properties;
        const [width, height] = [numberOf(size?.get('width')), numberOf(size?.get('height'))];
        if (width === null || height === null) refuse('its viewport is not a width and a height as written');
        options.viewport = { width: width as number, height: height as number };
      } else if (key === 'extraHTTPHeaders') {
        const headers = objectOf(value)?.properties ?? refuse('its headers are not an object literal');
        options.extraHeaders = Object.fromEntries(
          [...headers].map(([name, header]) => [
            name,
            stringOf(header) ?? refuse(`the header ${name} is not a text`),
          ]),
        );
      } else refuse(`the option ${key} does not convert`);
    }
    for (const [key, value] of Object.entries(options)) {
      const checked = journeyFields[key as keyof RecordedOptions].safeParse(value);
      if (!checked.success) refuse(`its ${key}: ${checked.error.issues[0]?.message}`);
    }
    Object.assign(this.options, options);
  }

  /** The step as the schema takes it, a password moved into the secrets. */
  private add(draft: Draft): void {
    if (this.steps.length >= MAX_JOURNEY_STEPS) refuse(`a journey has at most ${MAX_JOURNEY_STEPS} steps`);
    const step = journeyStep.safeParse(draft.action === 'fill' ? this.sealed(draft) : draft);
    if (!step.success) {
      const [issue] = step.error.issues;
      refuse(`${issue?.path.join('.') || 'the step'}: ${issue?.message ?? 'does not fit the step format'}`);
    } else this.steps.push(step.data);
  }

  private sealed(fill: Draft): Draft {
    const value = typeof fill.value === 'string' ? fill.value : '';
    if (!value || !SECRET_FIELD.test(JSON.stringify(fill.locator))) return fill;
    this.options.secrets ??= {};
    const secrets = this.options.secrets;
    const name =
      Object.keys(secrets).find((known) => secrets[known] === value) ??
      ['PASSWORD', ...Array.from({ length: 20 }, (_, i) => `PASSWORD_${i + 2}`)].find(
        (free) => !(free in secrets),
      );
    if (!name) return fill;
    secrets[name] = value;
    return { ...fill, value: `{{secret.${name}}}` };
  }

  private page(): string {
    return [...this.pages][0] ?? 'page';
  }

  /** Runs `convert` for one statement; a refusal becomes its unconverted line. */
  private attempt(statement: Statement, convert: () => void): void {
    try {
      convert();
    } catch (error) {
      if (!(error instanceof NotConverted)) throw error;
      const text = this.code.slice(statement.start ?? 0, statement.end ?? 0).trim();
      this.unconverted.push({
        line: statement.loc?.start.line ?? 1,
        text: text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text,
        reason: error.message,
      });
    }
  }
}

const isRequire = (init: Expression | null | undefined) => {
  const chain = init ? chainOf(init) : null;
  return chain?.root === 'require' && chain.links.length === 0;
};

/** `...devices['Pixel 7']` as a journey's device: a phone or a desktop (a tablet is neither). */
function deviceOf(spread: Expression): 'desktop' | 'phone' {
  const name =
    spread.type === 'MemberExpression' && spread.computed && spread.object.type === 'Identifier'
      ? stringOf(spread.property as Argument)
      : null;
  if (name === null) return refuse('only ...devices[name] spreads convert');
  if (/^Desktop /i.test(name)) return 'desktop';
  if (PHONES.test(name) && !/Tab|iPad|Kindle|Nexus (7|10)/i.test(name)) return 'phone';
  return refuse(`the device ${name} does not convert: a journey plays a desktop or a phone`);
}

/**
 * The steps a recorded test converts to, the options it sets and each statement that does not
 * convert with its line and reason. A test that does not parse converts to nothing: its syntax
 * errors come back as its unconverted lines.
 */
export function fromPlaywright(code: string): ConvertedRecording {
  const parsed = parseRecording(code);
  if (!parsed.program) {
    const lines = code.split('\n');
    return {
      steps: [],
      options: {},
      unconverted: parsed.errors.map((error) => ({
        line: error.line,
        text: (lines[error.line - 1] ?? '').trim().slice(0, SHOWN_CHARS),
        reason: `Must be JavaScript or TypeScript: ${error.message}`,
      })),
    };
  }
  const conversion = new Conversion(code);
  for (const statement of parsed.program.body) conversion.topLevel(statement);
  return { steps: conversion.steps, options: conversion.options, unconverted: conversion.unconverted };
}
