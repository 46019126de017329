import type {
  Action,
  AriaRole,
  AssertionKind,
  CountOperator,
  ElementState,
  FixtureFile,
  JourneyStep,
  JourneyStepSent,
  Locator,
  LocatorKind,
  MatchHow,
  MouseButton,
  TextMatch,
  WaitKind,
} from './journey-choices.js';

/*
 * A browser journey's steps as its form holds them, and as the API takes them (pure:
 * no component, no request). The types are the API's generated ones, so a change in its document
 * breaks the compile here instead of drifting.
 */

/** How a step finds its element: one text, whatever it finds by (a role's name, a label, a selector…). */
export interface LocatorDraft {
  by: LocatorKind;
  role: AriaRole;
  text: string;
  exact: boolean | undefined;
  /** Which of several: '' none (exactly one must match), 0 the first, -1 the last. */
  nth: string;
}

export interface MatchDraft {
  how: MatchHow;
  text: string;
}

/**
 * A step as the form holds it: the fields of every action, so that changing a step's action keeps
 * what was typed; `key` stable through moves.
 */
export interface StepDraft {
  key: number;
  action: Action;
  /** A screenshot's name (required there), else how its outcome is named. */
  name: string;
  timeoutMs: string;
  url: string;
  locator: LocatorDraft;
  /** A key pressed on an element (else on the page). */
  onElement: boolean;
  /** Typed into a field, or the option chosen (several: one a line). */
  value: string;
  several: boolean;
  checked: boolean;
  chord: string;
  button: MouseButton | undefined;
  clickCount: number | undefined;
  until: WaitKind;
  state: ElementState;
  /** The text waited for. */
  text: string;
  exact: boolean | undefined;
  that: AssertionKind;
  /** What a URL, title, text or value must be (an attribute's: empty, it is there). */
  match: MatchDraft;
  op: CountOperator;
  count: string;
  attribute: string;
  fullPage: boolean;
  file: FixtureFile | null;
}

let drafted = 0;

function locatorDraft(locator?: Locator): LocatorDraft {
  const draft: LocatorDraft = { by: 'role', role: 'button', text: '', exact: undefined, nth: '' };
  if (!locator) return draft;
  const nth = locator.nth === undefined ? '' : String(locator.nth);
  if (locator.by === 'role')
    return { ...draft, role: locator.role, text: locator.name ?? '', exact: locator.exact, nth };
  if (locator.by === 'testId') return { ...draft, by: locator.by, text: locator.id, nth };
  if (locator.by === 'css') return { ...draft, by: locator.by, text: locator.selector, nth };
  return { ...draft, by: locator.by, text: locator.text, exact: locator.exact, nth };
}

function locatorOf(draft: LocatorDraft): Locator {
  const nth = draft.nth.trim() === '' ? {} : { nth: Number(draft.nth) };
  const exact = draft.exact === undefined ? {} : { exact: draft.exact };
  switch (draft.by) {
    case 'role':
      return {
        by: 'role',
        role: draft.role,
        ...(draft.text === '' ? {} : { name: draft.text }),
        ...exact,
        ...nth,
      };
    case 'testId':
      return { by: 'testId', id: draft.text, ...nth };
    case 'css':
      return { by: 'css', selector: draft.text, ...nth };
    default:
      return { by: draft.by, text: draft.text, ...exact, ...nth };
  }
}

const matchDraft = (match: TextMatch): MatchDraft =>
  'equals' in match
    ? { how: 'equals', text: match.equals }
    : 'contains' in match
      ? { how: 'contains', text: match.contains }
      : { how: 'matches', text: match.matches };

const matchOf = ({ how, text }: MatchDraft): TextMatch =>
  how === 'equals' ? { equals: text } : how === 'contains' ? { contains: text } : { matches: text };

/** A new step's draft: go to a URL, the other actions' fields at their usual values. */
function blankDraft(): StepDraft {
  drafted += 1;
  return {
    key: drafted,
    action: 'goto',
    name: '',
    timeoutMs: '',
    url: '',
    locator: locatorDraft(),
    onElement: true,
    value: '',
    several: false,
    checked: true,
    chord: '',
    button: undefined,
    clickCount: undefined,
    until: 'element',
    state: 'visible',
    text: '',
    exact: undefined,
    that: 'visible',
    match: { how: 'contains', text: '' },
    op: 'equals',
    count: '1',
    attribute: '',
    fullPage: false,
    file: null,
  };
}

/** A stored (or converted) step as the form holds it; none: a new step. */
export function stepDraft(step?: JourneyStep): StepDraft {
  const draft = blankDraft();
  if (!step) return draft;
  const common: StepDraft = {
    ...draft,
    action: step.action,
    name: step.name ?? '',
    timeoutMs: step.timeoutMs === undefined ? '' : String(step.timeoutMs),
  };
  switch (step.action) {
    case 'goto':
      return { ...common, url: step.url };
    case 'click':
      return {
        ...common,
        locator: locatorDraft(step.locator),
        button: step.button,
        clickCount: step.clickCount,
      };
    case 'fill':
      return { ...common, locator: locatorDraft(step.locator), value: step.value };
    case 'select':
      return {
        ...common,
        locator: locatorDraft(step.locator),
        several: step.values !== undefined,
        value: step.values ? step.values.join('\n') : (step.value ?? ''),
      };
    case 'check':
      return { ...common, locator: locatorDraft(step.locator), checked: step.checked };
    case 'press':
      return {
        ...common,
        locator: locatorDraft(step.locator),
        onElement: step.locator !== undefined,
        chord: step.key,
      };
    case 'hover':
      return { ...common, locator: locatorDraft(step.locator) };
    case 'upload':
      return { ...common, locator: locatorDraft(step.locator), file: step.file };
    case 'screenshot':
      return { ...common, fullPage: step.fullPage };
    case 'waitFor': {
      const waited = { ...common, until: step.until };
      if (step.until === 'element')
        return { ...waited, locator: locatorDraft(step.locator), state: step.state };
      if (step.until === 'text') return { ...waited, text: step.text, exact: step.exact };
      if (step.until === 'url') return { ...waited, match: matchDraft(step.url) };
      return waited;
    }
    case 'expect': {
      const expected = { ...common, that: step.that };
      switch (step.that) {
        case 'url':
          return { ...expected, match: matchDraft(step.url) };
        case 'title':
          return { ...expected, match: matchDraft(step.title) };
        case 'text':
          return { ...expected, locator: locatorDraft(step.locator), match: matchDraft(step.text) };
        case 'value':
          return { ...expected, locator: locatorDraft(step.locator), match: matchDraft(step.value) };
        case 'checked':
          return { ...expected, locator: locatorDraft(step.locator), checked: step.checked };
        case 'count':
          return { ...expected, locator: locatorDraft(step.locator), op: step.op, count: String(step.count) };
        case 'attribute':
          return {
            ...expected,
            locator: locatorDraft(step.locator),
            attribute: step.attribute,
            match: step.value ? matchDraft(step.value) : { how: 'equals', text: '' },
          };
        default:
          return { ...expected, locator: locatorDraft(step.locator) };
      }
    }
  }
}

/** The draft as the API takes it: only its action's fields (the API checks them, naming `steps.<i>.<field>`). */
export function stepOf(draft: StepDraft): JourneyStepSent {
  const common = {
    ...(draft.name.trim() === '' ? {} : { name: draft.name.trim() }),
    ...(draft.timeoutMs.trim() === '' ? {} : { timeoutMs: Number(draft.timeoutMs) }),
  };
  const locator = locatorOf(draft.locator);
  switch (draft.action) {
    case 'goto':
      return { action: 'goto', ...common, url: draft.url.trim() };
    case 'click':
      return {
        action: 'click',
        ...common,
        locator,
        ...(draft.button === undefined ? {} : { button: draft.button }),
        ...(draft.clickCount === undefined ? {} : { clickCount: draft.clickCount }),
      };
    case 'fill':
      return { action: 'fill', ...common, locator, value: draft.value };
    case 'select':
      return draft.several
        ? { action: 'select', ...common, locator, values: lines(draft.value) }
        : { action: 'select', ...common, locator, value: draft.value };
    case 'check':
      return { action: 'check', ...common, locator, checked: draft.checked };
    case 'press':
      return { action: 'press', ...common, ...(draft.onElement ? { locator } : {}), key: draft.chord.trim() };
    case 'hover':
      return { action: 'hover', ...common, locator };
    case 'upload':
      // No file chosen: sent without, so the API names `file` at the control that chooses one.
      return { action: 'upload', ...common, locator, file: draft.file as FixtureFile };
    case 'screenshot':
      return {
        action: 'screenshot',
        name: draft.name.trim(),
        ...(draft.timeoutMs.trim() === '' ? {} : { timeoutMs: Number(draft.timeoutMs) }),
        fullPage: draft.fullPage,
      };
    case 'waitFor':
      return waitOf(draft, common, locator);
    case 'expect':
      return expectOf(draft, common, locator);
  }
}

type Common = { name?: string; timeoutMs?: number };

function waitOf(draft: StepDraft, common: Common, locator: Locator): JourneyStepSent {
  switch (draft.until) {
    case 'element':
      return { action: 'waitFor', ...common, until: 'element', locator, state: draft.state };
    case 'text':
      return {
        action: 'waitFor',
        ...common,
        until: 'text',
        text: draft.text,
        ...(draft.exact === undefined ? {} : { exact: draft.exact }),
      };
    case 'url':
      return { action: 'waitFor', ...common, until: 'url', url: matchOf(draft.match) };
    case 'networkIdle':
      return { action: 'waitFor', ...common, until: 'networkIdle' };
  }
}

function expectOf(draft: StepDraft, common: Common, locator: Locator): JourneyStepSent {
  const step = { action: 'expect', ...common } as const;
  switch (draft.that) {
    case 'visible':
    case 'hidden':
      return { ...step, that: draft.that, locator };
    case 'text':
      return { ...step, that: 'text', locator, text: matchOf(draft.match) };
    case 'value':
      return { ...step, that: 'value', locator, value: matchOf(draft.match) };
    case 'checked':
      return { ...step, that: 'checked', locator, checked: draft.checked };
    case 'url':
      return { ...step, that: 'url', url: matchOf(draft.match) };
    case 'title':
      return { ...step, that: 'title', title: matchOf(draft.match) };
    case 'count':
      return { ...step, that: 'count', locator, op: draft.op, count: Number(draft.count) };
    case 'attribute':
      return {
        ...step,
        that: 'attribute',
        locator,
        attribute: draft.attribute.trim(),
        ...(draft.match.text === '' ? {} : { value: matchOf(draft.match) }),
      };
  }
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Whether a step finds an element with its locator (a press may, on the page it need not). */
export function hasLocator(draft: StepDraft): boolean {
  switch (draft.action) {
    case 'goto':
    case 'screenshot':
      return false;
    case 'press':
      return draft.onElement;
    case 'waitFor':
      return draft.until === 'element';
    case 'expect':
      return draft.that !== 'url' && draft.that !== 'title';
    default:
      return true;
  }
}

/**
 * The fields of the step the form shows a control for, as the first part of their path under the
 * step (`locator` for `locator.text`; '' for the step as a whole): the API's errors at any other
 * path are named above the form, so none goes unseen.
 */
export function shownFields(draft: StepDraft): string[] {
  const own: Record<Action, string[]> = {
    goto: ['url'],
    click: ['button', 'clickCount'],
    fill: ['value'],
    select: ['value', 'values'],
    check: ['checked'],
    press: ['key'],
    hover: [],
    upload: ['file'],
    waitFor: ['until', ...WAITED_FIELDS[draft.until]],
    expect: ['that', ...EXPECTED_FIELDS[draft.that]],
    screenshot: ['fullPage'],
  };
  return ['', 'action', 'name', 'timeoutMs', ...(hasLocator(draft) ? ['locator'] : []), ...own[draft.action]];
}

const WAITED_FIELDS: Record<WaitKind, string[]> = {
  element: ['state'],
  text: ['text', 'exact'],
  url: ['url'],
  networkIdle: [],
};
const EXPECTED_FIELDS: Record<AssertionKind, string[]> = {
  visible: [],
  hidden: [],
  text: ['text'],
  value: ['value'],
  checked: ['checked'],
  url: ['url'],
  title: ['title'],
  count: ['op', 'count'],
  attribute: ['attribute', 'value'],
};

/** A draft nobody has typed in (the one a new journey starts with): a recording replaces it. */
export const isBlank = (draft: StepDraft) => draft.action === 'goto' && draft.url === '' && draft.name === '';

/** The first error at one of `paths` or under it (`url` and `url.equals`), as one control shows them. */
export function errorAt(errors: Record<string, string>, ...paths: string[]): string | undefined {
  for (const path of paths) {
    const found = Object.entries(errors).find(([at]) => at === path || at.startsWith(`${path}.`));
    if (found) return found[1];
  }
  return undefined;
}
