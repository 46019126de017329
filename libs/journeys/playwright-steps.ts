import {
  type Argument,
  booleanOf,
  type CallChain,
  type ChainLink,
  chainOf,
  numberOf,
  optionsOf,
  refuse,
  regexOf,
  stringOf,
  stringsOf,
  timeoutOf,
  unwrap,
} from './playwright-source.js';

/**
 * One Playwright call as one step, written as the step format reads it; the step schema then
 * judges it (a selector that does not parse, a role that does not exist), so nothing here
 * repeats its rules. A call with anything we cannot honour is refused with the reason.
 */

/** A step or a locator as built, before the schema checks it. */
export type Draft = Record<string, unknown>;

const FINDERS: Record<string, string> = {
  getByLabel: 'label',
  getByText: 'text',
  getByPlaceholder: 'placeholder',
  getByAltText: 'altText',
  getByTitle: 'title',
};

/** Links that narrow a locator further: one locator finds a step's element, so they do not convert. */
const NARROWING = new Set([
  'filter',
  'and',
  'or',
  'locator',
  'frameLocator',
  'contentFrame',
  'owner',
  'describe',
]);

function textOf(argument: Argument | undefined, what: string): string {
  const text = stringOf(argument);
  if (text !== null) return text;
  return regexOf(argument)
    ? refuse(`${what} as a regular expression does not convert (give the text)`)
    : refuse(`${what} is not a text as written`);
}

/** A JavaScript regular expression as an RE2 pattern: its i, m and s flags inline. */
function patternOf(regex: { pattern: string; flags: string }): string {
  const unknown = regex.flags.replace(/[imsugdy]/g, '');
  if (unknown) refuse(`the flag ${unknown} does not convert`);
  const inline = regex.flags.replace(/[^ims]/g, '');
  return `${inline ? `(?${inline})` : ''}${regex.pattern}`;
}

/** A text matcher's argument: a text (`equals` or `contains`) or a regular expression (`matches`). */
function matchOf(argument: Argument | undefined, text: 'equals' | 'contains', what: string): Draft {
  const regex = regexOf(argument);
  if (regex) return { matches: patternOf(regex) };
  const value = stringOf(argument);
  return value === null
    ? refuse(`${what} is not a text or a regular expression as written`)
    : { [text]: value };
}

/** Playwright's URL glob (`**` any text, `*` any but "/") as an RE2 pattern. */
function urlMatchOf(argument: Argument | undefined): Draft {
  const glob = stringOf(argument);
  if (glob === null || !/[*?{[]/.test(glob)) return matchOf(argument, 'equals', 'the URL');
  if (/[?{[]/.test(glob))
    refuse('a URL glob with ?, [ ] or { } does not convert (give a regular expression)');
  const pattern = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+^$()|\\]/g, '\\$&')))
    .join('');
  return { matches: `^${pattern}$` };
}

function finderOf(link: ChainLink): Draft {
  const args = link.args ?? refuse(`.${link.name} does not convert`);
  if (link.name === 'getByRole') {
    const role = stringOf(args[0]) ?? refuse('its role is not a text as written');
    const options = optionsOf(args[1], ['name', 'exact']);
    return {
      by: 'role',
      role,
      ...(options.has('name') && { name: textOf(options.get('name'), 'a name') }),
      ...(options.has('exact') && { exact: booleanOf(options.get('exact')) }),
    };
  }
  if (link.name === 'getByTestId') return { by: 'testId', id: textOf(args[0], 'a test id') };
  if (link.name === 'locator') {
    const selector = textOf(args[0], 'a selector');
    if (args.length > 1) refuse('a locator with options (has, hasText) does not convert');
    if (
      /^(xpath=|\/\/|\.\.|text=|id=|role=|data-test|internal:|nth=|visible=)/.test(selector) ||
      selector.includes('>>')
    )
      refuse('only CSS selectors convert (not XPath, text=, role= or >> chains)');
    return { by: 'css', selector: selector.replace(/^css=/, '') };
  }
  const by = FINDERS[link.name] ?? refuse(`.${link.name}() does not convert`);
  const options = optionsOf(args[1], ['exact']);
  return {
    by,
    text: textOf(args[0], 'a text'),
    ...(options.has('exact') && { exact: booleanOf(options.get('exact')) }),
  };
}

/** The locator a chain begins with (`getByRole(…)` then `.first()`, `.last()` or `.nth(i)`), and what follows. */
export function locatorFrom(links: readonly ChainLink[]): { locator: Draft; rest: ChainLink[] } {
  const [finder, ...rest] = links;
  if (!finder) return refuse('it finds no element');
  const locator = finderOf(finder);
  const picked = rest[0];
  if (picked?.args && ['first', 'last', 'nth'].includes(picked.name)) {
    const nth = picked.name === 'first' ? 0 : picked.name === 'last' ? -1 : numberOf(picked.args[0]);
    locator.nth = nth ?? refuse('its position is not a number as written');
    rest.shift();
  }
  const narrowing = rest.find((link) => NARROWING.has(link.name) || link.name.startsWith('getBy'));
  if (narrowing) refuse(`.${narrowing.name}() does not convert: a step finds its element with one locator`);
  return { locator, rest };
}

const CLICK_BUTTONS = ['left', 'right', 'middle'];

/** An action on a located element: `click()`, `fill('…')`, `check()` … */
function actionStep(locator: Draft, action: ChainLink): Draft {
  const args = action.args ?? refuse(`.${action.name} does not convert`);
  const last = (known: string[], at: number) => {
    const options = optionsOf(args[at], known);
    return { options, timeout: timeoutOf(options) };
  };
  switch (action.name) {
    case 'click':
    case 'dblclick': {
      const { options, timeout } = last(['button', 'clickCount', 'timeout'], 0);
      const button = stringOf(options.get('button'));
      if (button !== null && !CLICK_BUTTONS.includes(button))
        refuse('its button is not left, right or middle');
      const clickCount = action.name === 'dblclick' ? 2 : numberOf(options.get('clickCount'));
      return {
        action: 'click',
        locator,
        ...(button !== null && { button }),
        ...(clickCount !== null && { clickCount }),
        ...timeout,
      };
    }
    case 'fill':
      return {
        action: 'fill',
        locator,
        value: textOf(args[0], 'the value'),
        ...last(['timeout'], 1).timeout,
      };
    case 'clear':
      return { action: 'fill', locator, value: '', ...last(['timeout'], 0).timeout };
    case 'press':
      return { action: 'press', locator, key: textOf(args[0], 'the key'), ...last(['timeout'], 1).timeout };
    case 'check':
    case 'uncheck':
      return { action: 'check', locator, checked: action.name === 'check', ...last(['timeout'], 0).timeout };
    case 'setChecked': {
      const checked = booleanOf(args[0]) ?? refuse('its value is not true or false as written');
      return { action: 'check', locator, checked, ...last(['timeout'], 1).timeout };
    }
    case 'selectOption': {
      const value = stringOf(args[0]);
      const values = value === null ? stringsOf(args[0]) : null;
      if (value === null && values === null) refuse('only options chosen by value or label as texts convert');
      return {
        action: 'select',
        locator,
        ...(value !== null ? { value } : { values }),
        ...last(['timeout'], 1).timeout,
      };
    }
    case 'hover':
      return { action: 'hover', locator, ...last(['timeout'], 0).timeout };
    case 'waitFor': {
      const { options, timeout } = last(['state', 'timeout'], 0);
      const state = stringOf(options.get('state'));
      return { action: 'waitFor', until: 'element', locator, ...(state !== null && { state }), ...timeout };
    }
    case 'setInputFiles':
      return refuse('a file on the recording machine does not convert: add an upload step with the file');
    default:
      return refuse(`.${action.name}() does not convert`);
  }
}

/** A statement on the page: `page.goto(…)`, `page.keyboard.press(…)`, `page.getBy…(…).click()` … */
export function pageStep(chain: CallChain): Draft | null {
  const [first, second] = chain.links;
  if (!first) return refuse('it does nothing with the page');
  const args = first.args ?? [];
  const last = (known: string[], at: number) => timeoutOf(optionsOf(args[at], known));
  switch (first.name) {
    case 'goto':
      return { action: 'goto', url: textOf(args[0], 'the URL'), ...last(['timeout'], 1) };
    case 'keyboard':
      if (second?.name === 'press' && second.args && chain.links.length === 2)
        return {
          action: 'press',
          key: textOf(second.args[0], 'the key'),
          ...timeoutOf(optionsOf(second.args[1], [])),
        };
      return refuse('only page.keyboard.press() converts (type into a field with fill)');
    case 'waitForURL':
      return { action: 'waitFor', until: 'url', url: urlMatchOf(args[0]), ...last(['timeout'], 1) };
    case 'waitForLoadState': {
      const state = stringOf(args[0]);
      if (state !== 'networkidle')
        refuse('only waiting for networkidle converts (a goto waits for the page to load)');
      return { action: 'waitFor', until: 'networkIdle', ...last(['timeout'], 1) };
    }
    case 'waitForSelector': {
      const options = optionsOf(args[1], ['state', 'timeout']);
      const { locator } = locatorFrom([{ name: 'locator', args: args.slice(0, 1) }]);
      const state = stringOf(options.get('state'));
      return {
        action: 'waitFor',
        until: 'element',
        locator,
        ...(state !== null && { state }),
        ...timeoutOf(options),
      };
    }
    case 'waitForTimeout':
      return refuse(
        'a fixed wait does not convert: wait for an element, a text, a URL or the network instead',
      );
    case 'screenshot': {
      const options = optionsOf(args[0], ['path', 'fullPage', 'timeout']);
      const path = stringOf(options.get('path'));
      const name =
        path
          ?.split(/[\\/]/)
          .pop()
          ?.replace(/\.(png|jpe?g)$/i, '') || 'screenshot';
      const fullPage = booleanOf(options.get('fullPage'));
      return { action: 'screenshot', name, ...(fullPage !== null && { fullPage }), ...timeoutOf(options) };
    }
    case 'close':
      return null;
    case 'once':
    case 'on':
      return refuse('an event handler does not convert (a journey dismisses dialogs by itself)');
    default: {
      if (!first.name.startsWith('getBy') && first.name !== 'locator')
        return refuse(`page.${first.name}() does not convert`);
      const { locator, rest } = locatorFrom(chain.links);
      if (rest.length !== 1 || !rest[0]) return refuse('it is not one action on one element');
      return actionStep(locator, rest[0]);
    }
  }
}

/** `expect(page…).toBeVisible()` and the other assertions a step can make. */
export function expectStep(chain: CallChain, page: string): Draft {
  if (chain.links[0]?.name === 'soft' || chain.links[0]?.name === 'poll')
    return refuse(`expect.${chain.links[0].name}() does not convert (a failing step stops the journey)`);
  const [subject, message] = chain.rootArgs ?? [];
  if (!subject || message) return refuse('only expect(one subject) converts');
  const negated = chain.links[0]?.name === 'not';
  const [matcher, ...more] = chain.links.slice(negated ? 1 : 0);
  if (!matcher?.args || more.length) return refuse('it is not one assertion');
  const args = matcher.args;
  const tail = (at: number) => timeoutOf(optionsOf(args[at], ['timeout']));
  const not = () => refuse(`.not.${matcher.name}() does not convert`);
  const target =
    subject.type === 'SpreadElement' || subject.type === 'ArgumentPlaceholder' ? null : unwrap(subject);
  if (target?.type === 'Identifier' && target.name === page) {
    if (negated) not();
    if (matcher.name === 'toHaveURL')
      return { action: 'expect', that: 'url', url: matchOf(args[0], 'equals', 'the URL'), ...tail(1) };
    if (matcher.name === 'toHaveTitle')
      return { action: 'expect', that: 'title', title: matchOf(args[0], 'equals', 'the title'), ...tail(1) };
    return refuse(`expect(page).${matcher.name}() does not convert`);
  }
  const located = target && chainOf(target);
  if (located?.root !== page || located.rootArgs)
    return refuse('it asserts on something other than the page');
  const { locator, rest } = locatorFrom(located.links);
  if (rest.length) return refuse('it asserts on something other than one element');
  switch (matcher.name) {
    case 'toBeVisible':
    case 'toBeHidden':
      return {
        action: 'expect',
        that: negated === (matcher.name === 'toBeVisible') ? 'hidden' : 'visible',
        locator,
        ...tail(0),
      };
    case 'toContainText':
    case 'toHaveText':
    case 'toHaveValue': {
      if (negated) not();
      const field = matcher.name === 'toHaveValue' ? 'value' : 'text';
      const text = matcher.name === 'toContainText' ? 'contains' : 'equals';
      return {
        action: 'expect',
        that: field,
        locator,
        [field]: matchOf(args[0], text, `the ${field}`),
        ...tail(1),
      };
    }
    case 'toBeChecked': {
      const options = optionsOf(args[0], ['checked', 'timeout']);
      const checked = options.has('checked') ? booleanOf(options.get('checked')) : true;
      if (checked === null) return refuse('its checked is not true or false as written');
      return {
        action: 'expect',
        that: 'checked',
        locator,
        checked: checked !== negated,
        ...timeoutOf(options),
      };
    }
    case 'toHaveCount': {
      const count = numberOf(args[0]) ?? refuse('its count is not a number as written');
      return {
        action: 'expect',
        that: 'count',
        locator,
        op: negated ? 'notEquals' : 'equals',
        count,
        ...tail(1),
      };
    }
    case 'toHaveAttribute': {
      if (negated) not();
      const attribute = textOf(args[0], 'the attribute');
      const valued = args[1] !== undefined && (stringOf(args[1]) !== null || regexOf(args[1]) !== null);
      return {
        action: 'expect',
        that: 'attribute',
        locator,
        attribute,
        ...(valued && { value: matchOf(args[1], 'equals', 'the value') }),
        ...tail(valued ? 2 : 1),
      };
    }
    default:
      return refuse(`.${matcher.name}() does not convert`);
  }
}
