import { Liquid, LiquidError, Tag, type Template } from 'liquidjs';
import { LRUCache } from 'lru-cache';
import { isKnownVariable, TEMPLATE_MAX_CHARS, TEMPLATE_OUTPUT_MAX_CHARS } from './variables.js';

/** What is wrong with a template, where Liquid says (1-based), in words an editor acts on. */
export interface TemplateProblem {
  message: string;
  line: number | null;
  column: number | null;
}

export type Rendered = { text: string } | { problem: TemplateProblem };

/** A render's bounds: wall time, text and objects made, and tags and outputs rendered. */
export const RENDER_LIMIT_MS = 100;
const MEMORY_LIMIT = 1_000_000;
const TEMPLATE_LIMIT = 20_000;

/** Tags that read other templates from files: a channel's template stands alone. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;

/**
 * Liquid, sandboxed: no files (an empty in-memory set, and the tags that would read them refuse at
 * parse time), own properties of plain data only, unknown filters refused, dates in UTC. Liquid
 * runs no code of the template's own; its parse, time and memory limits bound the rest.
 */
function sandboxedLiquid(): Liquid {
  const liquid = new Liquid({
    templates: {},
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    timezoneOffset: 0,
    parseLimit: TEMPLATE_MAX_CHARS,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
  for (const name of FILE_TAGS)
    liquid.registerTag(
      name,
      class extends Tag {
        constructor(...args: ConstructorParameters<typeof Tag>) {
          super(...args);
          throw new Error(
            `the ${name} tag is not available: a template cannot read other templates or files`,
          );
        }
        render(): void {}
      },
    );
  return liquid;
}

const liquid = sandboxedLiquid();

/** Parsed templates by their text: a channel's template is parsed once, not at each delivery. */
const parsed = new LRUCache<string, Template[]>({ max: 500 });

/** Liquid's error where it points (`…, line:2, col:5`), as the editor reads it. */
export function problemOf(error: unknown): TemplateProblem {
  if (!(error instanceof LiquidError))
    return { message: error instanceof Error ? error.message : String(error), line: null, column: null };
  const [line = 1, column = 1] = error.token.getPosition();
  const message = (error.originalError?.message ?? error.message).replace(/, line:\d+, col:\d+$/, '');
  return { message: `line ${line}, column ${column}: ${message}`, line, column };
}

function parse(template: string): Template[] {
  const found = parsed.get(template);
  if (found) return found;
  if (template.length > TEMPLATE_MAX_CHARS)
    throw new Error(`a template has at most ${TEMPLATE_MAX_CHARS} characters`);
  const templates = liquid.parse(template);
  parsed.set(template, templates);
  return templates;
}

/** Why the template cannot be used, or null: what a channel write checks. */
export function templateProblem(template: string): TemplateProblem | null {
  try {
    parse(template);
    return null;
  } catch (error) {
    return problemOf(error);
  }
}

/** The template rendered over `scope` within its bounds, its text cut at TEMPLATE_OUTPUT_MAX_CHARS. */
export function renderTemplate(template: string, scope: Record<string, unknown>): Rendered {
  try {
    const text = String(liquid.renderSync(parse(template), scope, { templateLimit: TEMPLATE_LIMIT }));
    return {
      text:
        text.length > TEMPLATE_OUTPUT_MAX_CHARS ? `${text.slice(0, TEMPLATE_OUTPUT_MAX_CHARS - 1)}…` : text,
    };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}

/** The variables the template reads that no event has (misspelt, most often), as written. */
export function unknownVariables(template: string): string[] {
  try {
    const read = liquid.globalVariableSegmentsSync(parse(template));
    const unknown = read.filter((segments) => !isKnownVariable(segments)).map((segments) => pathOf(segments));
    return [...new Set(unknown)];
  } catch {
    // A template that does not parse has its problem told instead.
    return [];
  }
}

const pathOf = (segments: readonly unknown[]) =>
  segments
    .map((segment, i) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : Array.isArray(segment)
          ? '[…]'
          : `${i > 0 ? '.' : ''}${segment}`,
    )
    .join('');
