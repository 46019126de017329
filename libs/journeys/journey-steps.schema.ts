import { z } from 'zod';
import { ARIA_ROLES } from './aria-roles.js';
import { cssSelectorProblem } from './css-selector.js';
import { keyProblem } from './keyboard-keys.js';
import { MAX_TEXT_CHARS, textMatch } from './text-match.js';

/**
 * A browser journey's steps, as written (JSON, versioned): each step one action of Playwright's
 * on the one page of a fresh browser context, in order, each waited for before the next. Texts a
 * step types or compares may hold placeholders (`{{name}}`, `{{secret.NAME}}`, see
 * placeholders.ts); selectors, roles, keys and files do not.
 */

/** The step format's version: a journey says which it is written in. */
export const JOURNEY_FORMAT_VERSION = 1;
/** At most this many steps a journey. */
export const MAX_JOURNEY_STEPS = 50;
/** The bounds of a step's own `timeoutMs`. */
export const STEP_TIMEOUT_MS = { min: 100, max: 60_000 } as const;
/** A step's timeout when it gives none (the runner's). */
export const DEFAULT_STEP_TIMEOUT_MS = 10_000;
/**
 * A fixture file an upload step sends, decoded, at most; all of a journey's together at most
 * `MAX_FIXTURE_BYTES_PER_JOURNEY`. Base64 adds a third: a journey stays within the API's 1 MiB body.
 */
export const MAX_FIXTURE_FILE_BYTES = 256 * 1024;
export const MAX_FIXTURE_BYTES_PER_JOURNEY = 512 * 1024;
/** At most this many screenshot steps a journey (each one is kept with the run). */
export const MAX_SCREENSHOTS = 10;
/** A URL, a typed value and a CSS selector at most. */
export const MAX_URL_CHARS = 2048;
export const MAX_VALUE_CHARS = 10_000;
export const MAX_SELECTOR_CHARS = 1000;

/** "Must be one of a, b" where zod would say "Invalid discriminator value". */
const oneOf = (values: readonly string[]) => ({
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'invalid_union' ? `Must be one of ${values.join(', ')}` : undefined,
});

const text = (max = MAX_TEXT_CHARS) => z.string().min(1).max(max);

/** Which of the elements found: 0 the first, -1 the last. */
const nth = z
  .int()
  .min(-1)
  .max(1000)
  .optional()
  .describe(
    'Which of the elements found: 0 the first, 1 the second, -1 the last; none: exactly one must match',
  );
const exact = z
  .boolean()
  .optional()
  .describe('Match the whole text, case-sensitively; by default a part of it, in any case');

export const LOCATOR_KINDS = [
  'role',
  'label',
  'text',
  'placeholder',
  'altText',
  'title',
  'testId',
  'css',
] as const;

/**
 * How a step finds its element, as Playwright's `getBy…` do (role and accessible name first, as
 * users find things; CSS last). A locator that finds several elements fails the step, unless
 * `nth` picks one.
 */
export const locator = z
  .discriminatedUnion(
    'by',
    [
      z.strictObject({
        by: z.literal('role'),
        role: z.enum(ARIA_ROLES, { error: 'Must be an ARIA role such as button, link, textbox or heading' }),
        name: text().optional().describe('Its accessible name (a button’s text, a field’s label)'),
        exact,
        nth,
      }),
      z.strictObject({ by: z.literal('label'), text: text(), exact, nth }),
      z.strictObject({ by: z.literal('text'), text: text(), exact, nth }),
      z.strictObject({ by: z.literal('placeholder'), text: text(), exact, nth }),
      z.strictObject({ by: z.literal('altText'), text: text(), exact, nth }),
      z.strictObject({ by: z.literal('title'), text: text(), exact, nth }),
      z.strictObject({ by: z.literal('testId'), id: text(200), nth }),
      z.strictObject({
        by: z.literal('css'),
        selector: text(MAX_SELECTOR_CHARS).superRefine((selector, context) => {
          const problem = cssSelectorProblem(selector);
          if (problem) context.addIssue({ code: 'custom', message: problem });
        }),
        nth,
      }),
    ],
    oneOf(LOCATOR_KINDS),
  )
  .meta({ id: 'JourneyLocator' });
export type Locator = z.output<typeof locator>;
export type LocatorKind = Locator['by'];

const common = {
  name: text(100).optional().describe('What the step does, as its outcome names it'),
  timeoutMs: z
    .int()
    .min(STEP_TIMEOUT_MS.min)
    .max(STEP_TIMEOUT_MS.max)
    .optional()
    .describe(`How long the step may take, in ms (default ${DEFAULT_STEP_TIMEOUT_MS})`),
};

/** One step's object: its action, its name and timeout, its own fields. */
const step = <A extends string, S extends z.ZodRawShape>(action: A, shape: S) =>
  z.strictObject({ action: z.literal(action), ...common, ...shape });

const FILE_NAME = /^[^/\\:*?"<>|\p{Cc}]{1,200}$/u;
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** The bytes base64 text decodes to (z.base64 has checked its form). */
export const decodedBytes = (base64: string) =>
  Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

const fixtureFile = z
  .strictObject({
    name: z.string().regex(FILE_NAME, 'Must be a file name such as invoice.pdf (no folders)'),
    mimeType: z.string().regex(MIME_TYPE, 'Must be a media type such as application/pdf'),
    contentBase64: z
      .base64('Must be base64')
      .refine(
        (content) => decodedBytes(content) <= MAX_FIXTURE_FILE_BYTES,
        `Must be at most ${MAX_FIXTURE_FILE_BYTES / 1024} KiB`,
      ),
  })
  .meta({ id: 'JourneyFixtureFile' });

const selectStep = step('select', {
  locator,
  value: text().optional().describe('The option chosen, by its value or its label'),
  values: z.array(text()).min(1).max(50).optional().describe('The options chosen in a multiple select'),
}).superRefine((select, context) => {
  if ((select.value === undefined) === (select.values === undefined))
    context.addIssue({ code: 'custom', path: ['value'], message: 'Must give either value or values' });
});

export const ELEMENT_STATES = ['visible', 'hidden', 'attached', 'detached'] as const;
const WAIT_KINDS = ['element', 'text', 'url', 'networkIdle'] as const;

const waitForStep = z.discriminatedUnion(
  'until',
  [
    step('waitFor', {
      until: z.literal('element'),
      locator,
      state: z.enum(ELEMENT_STATES).default('visible'),
    }),
    step('waitFor', { until: z.literal('text'), text: text(), exact }),
    step('waitFor', { until: z.literal('url'), url: textMatch }),
    step('waitFor', {
      until: z.literal('networkIdle').describe('No request for 500 ms (the page has settled)'),
    }),
  ],
  oneOf(WAIT_KINDS),
);

export const COUNT_OPERATORS = [
  'equals',
  'notEquals',
  'atLeast',
  'atMost',
  'greaterThan',
  'lessThan',
] as const;
const ASSERTION_KINDS = [
  'visible',
  'hidden',
  'text',
  'value',
  'checked',
  'url',
  'title',
  'count',
  'attribute',
] as const;

const expectStep = z.discriminatedUnion(
  'that',
  [
    step('expect', { that: z.literal('visible'), locator }),
    step('expect', {
      that: z.literal('hidden').describe('Hidden or absent (a text that must not show)'),
      locator,
    }),
    step('expect', { that: z.literal('text'), locator, text: textMatch }),
    step('expect', { that: z.literal('value'), locator, value: textMatch }),
    step('expect', { that: z.literal('checked'), locator, checked: z.boolean().default(true) }),
    step('expect', { that: z.literal('url'), url: textMatch }),
    step('expect', { that: z.literal('title'), title: textMatch }),
    step('expect', {
      that: z.literal('count'),
      locator,
      op: z.enum(COUNT_OPERATORS).default('equals'),
      count: z.int().min(0).max(10_000),
    }),
    step('expect', {
      that: z.literal('attribute'),
      locator,
      attribute: z.string().regex(/^[^\s"'>/=\p{Cc}]{1,100}$/u, 'Must be an attribute name such as href'),
      value: textMatch.optional().describe('What its value must be; none: the attribute is there'),
    }),
  ],
  oneOf(ASSERTION_KINDS),
);

export const JOURNEY_ACTIONS = [
  'goto',
  'click',
  'fill',
  'select',
  'check',
  'press',
  'hover',
  'upload',
  'waitFor',
  'expect',
  'screenshot',
] as const;

/** One step of a journey: what it does is its `action`. */
export const journeyStep = z
  .discriminatedUnion(
    'action',
    [
      step('goto', { url: text(MAX_URL_CHARS).describe('An http(s) URL, placeholders filled') }),
      step('click', {
        locator,
        button: z.enum(['left', 'right', 'middle']).optional(),
        clickCount: z.int().min(1).max(3).optional().describe('2: a double click'),
      }),
      step('fill', {
        locator,
        value: z.string().max(MAX_VALUE_CHARS).describe('Replaces what the field holds; "": clears it'),
      }),
      selectStep,
      step('check', {
        locator,
        checked: z.boolean().default(true).describe('false: unchecks'),
      }),
      step('press', {
        locator: locator.optional().describe('The element focused first; none: the page'),
        key: z
          .string()
          .min(1)
          .max(100)
          .superRefine((key, context) => {
            const problem = keyProblem(key);
            if (problem) context.addIssue({ code: 'custom', message: problem });
          })
          .describe('A key or a chord: Enter, Tab, ArrowDown, a, Control+A'),
      }),
      step('hover', { locator }),
      step('upload', { locator, file: fixtureFile }),
      waitForStep,
      expectStep,
      // Its name is required and names the file too, so it is the step's own, not `common`'s.
      z.strictObject({
        action: z.literal('screenshot'),
        name: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$/, 'Must be letters, digits, spaces, _ . or -')
          .describe('The step’s and the screenshot’s name (placeholders are not filled: names are shown)'),
        timeoutMs: common.timeoutMs,
        fullPage: z.boolean().default(false),
      }),
    ],
    oneOf(JOURNEY_ACTIONS),
  )
  .meta({ id: 'JourneyStep' });

export type JourneyStep = z.output<typeof journeyStep>;
export type JourneyStepInput = z.input<typeof journeyStep>;
export type JourneyAction = JourneyStep['action'];
/** The step of one action: `StepOf<'fill'>`. */
export type StepOf<A extends JourneyAction> = Extract<JourneyStep, { action: A }>;
export type ElementState = (typeof ELEMENT_STATES)[number];
export type CountOperator = (typeof COUNT_OPERATORS)[number];
