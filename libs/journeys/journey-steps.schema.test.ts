import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { validate } from '../contract/validation.js';
import { browserJourney, journeyJsonSchema } from './browser-journey.schema.js';
import type { BrowserJourneyInput } from './journey-options.schema.js';
import { journeyProblems } from './journey-problems.js';
import { JOURNEY_ACTIONS, type JourneyStepInput, MAX_JOURNEY_STEPS } from './journey-steps.schema.js';

const goto: JourneyStepInput = { action: 'goto', url: 'https://shop.example/' };
const button = { by: 'role', role: 'button', name: 'Sign in' } as const;

/** A journey of a goto then `steps`, with `options`. */
const journey = (steps: unknown[], options: Partial<Record<keyof BrowserJourneyInput, unknown>> = {}) => ({
  version: 1,
  steps: [goto, ...steps],
  ...options,
});

/** The dotted paths and messages a journey is refused with, as the API's 400 lists them. */
function problemsOf(input: unknown) {
  const result = validate(browserJourney, input);
  return result.success ? [] : result.errors;
}

describe('browserJourney: every action', () => {
  it.each<[string, unknown]>([
    ['goto', goto],
    ['click', { action: 'click', locator: button }],
    [
      'click (right, double, nth)',
      { action: 'click', locator: { ...button, nth: -1 }, button: 'right', clickCount: 2 },
    ],
    ['fill', { action: 'fill', locator: { by: 'label', text: 'Email' }, value: 'ada@shop.example' }],
    ['select (value)', { action: 'select', locator: { by: 'label', text: 'Country' }, value: 'DE' }],
    ['select (values)', { action: 'select', locator: { by: 'testId', id: 'sizes' }, values: ['S', 'M'] }],
    ['check', { action: 'check', locator: { by: 'role', role: 'checkbox', name: 'Terms' } }],
    ['uncheck', { action: 'check', locator: { by: 'role', role: 'checkbox' }, checked: false }],
    ['press (page)', { action: 'press', key: 'Enter' }],
    [
      'press (element)',
      { action: 'press', locator: { by: 'placeholder', text: 'Search' }, key: 'Control+A' },
    ],
    ['hover', { action: 'hover', locator: { by: 'css', selector: 'nav > ul li:nth-child(2)' } }],
    [
      'upload',
      {
        action: 'upload',
        locator: { by: 'label', text: 'Attachment' },
        file: { name: 'invoice.pdf', mimeType: 'application/pdf', contentBase64: 'JVBERi0xLjQK' },
      },
    ],
    ['waitFor element', { action: 'waitFor', until: 'element', locator: { by: 'text', text: 'Loading' } }],
    [
      'waitFor element hidden',
      { action: 'waitFor', until: 'element', locator: { by: 'altText', text: 'Spinner' }, state: 'detached' },
    ],
    ['waitFor text', { action: 'waitFor', until: 'text', text: '3 results', exact: true }],
    ['waitFor url', { action: 'waitFor', until: 'url', url: { matches: '/basket$' } }],
    ['waitFor networkIdle', { action: 'waitFor', until: 'networkIdle', timeoutMs: 30_000 }],
    ['expect visible', { action: 'expect', that: 'visible', locator: { by: 'text', text: 'Welcome' } }],
    ['expect hidden', { action: 'expect', that: 'hidden', locator: { by: 'text', text: 'Error' } }],
    ['expect text', { action: 'expect', that: 'text', locator: button, text: { contains: 'Sign' } }],
    ['expect value', { action: 'expect', that: 'value', locator: button, value: { equals: '' } }],
    ['expect checked', { action: 'expect', that: 'checked', locator: button, checked: false }],
    ['expect url', { action: 'expect', that: 'url', url: { equals: 'https://shop.example/basket' } }],
    ['expect title', { action: 'expect', that: 'title', title: { matches: '(?i)^shop' } }],
    [
      'expect count',
      { action: 'expect', that: 'count', locator: { by: 'title', text: 'Item' }, op: 'atLeast', count: 1 },
    ],
    [
      'expect attribute',
      {
        action: 'expect',
        that: 'attribute',
        locator: button,
        attribute: 'aria-busy',
        value: { equals: 'false' },
      },
    ],
    [
      'expect attribute present',
      { action: 'expect', that: 'attribute', locator: button, attribute: 'disabled' },
    ],
    ['screenshot', { action: 'screenshot', name: 'basket', fullPage: true, timeoutMs: 100 }],
  ])('%s', (_, step) => {
    expect(problemsOf(journey([step]))).toEqual([]);
  });

  it('lists every action in JOURNEY_ACTIONS', () => {
    expect(JOURNEY_ACTIONS).toHaveLength(11);
  });

  it('fills the defaults: version, device, options, check and screenshot', () => {
    const parsed = browserJourney.parse({
      steps: [goto, { action: 'check', locator: button }, { action: 'screenshot', name: 'home' }],
    });
    expect(parsed).toMatchObject({
      version: 1,
      device: 'desktop',
      viewport: null,
      locale: null,
      timezone: null,
      extraHeaders: {},
      basicAuth: null,
      cookies: [],
      variables: {},
      secrets: {},
    });
    expect(parsed.steps[1]).toEqual({ action: 'check', locator: button, checked: true });
    expect(parsed.steps[2]).toEqual({ action: 'screenshot', name: 'home', fullPage: false });
  });

  it('takes the options', () => {
    const options = {
      device: 'phone',
      viewport: { width: 390, height: 844 },
      locale: 'de-DE',
      timezone: 'Europe/Berlin',
      extraHeaders: { 'X-Monitor': 'webmon', Authorization: 'Bearer {{secret.TOKEN}}' },
      basicAuth: { username: 'staging', password: '{{secret.STAGING}}' },
      cookies: [
        { name: 'consent', value: 'yes', domain: '.shop.example', path: '/', sameSite: 'Lax' },
        { name: 'session', value: '{{secret.SESSION}}', url: 'https://shop.example/' },
      ],
      variables: { city: 'Berlin' },
      secrets: { TOKEN: 't0ken-value', STAGING: 'hunter22', SESSION: 'abcd1234' },
    };
    expect(problemsOf(journey([], options))).toEqual([]);
  });
});

describe('browserJourney: a journey that cannot run is refused at the field', () => {
  it.each<[string, unknown, { path: string; message: RegExp }[]]>([
    [
      'an unknown action',
      journey([{ action: 'doubleTap', locator: button }]),
      [{ path: 'steps.1.action', message: /^Must be one of goto, click, fill, .*screenshot$/ }],
    ],
    [
      'a missing field',
      journey([{ action: 'fill', locator: button }]),
      [{ path: 'steps.1.value', message: /^Required$/ }],
    ],
    [
      'an unknown field',
      journey([{ action: 'hover', locator: button, force: true }]),
      [{ path: 'steps.1.force', message: /^Unknown field$/ }],
    ],
    [
      'an unknown locator',
      journey([{ action: 'click', locator: { by: 'xpath', path: '//a' } }]),
      [{ path: 'steps.1.locator.by', message: /^Must be one of role, label, text, .*css$/ }],
    ],
    [
      'a CSS selector that does not parse',
      journey([goto, goto, { action: 'click', locator: { by: 'css', selector: 'button:hovr' } }]),
      [
        {
          path: 'steps.3.locator.selector',
          message: /^Must be a CSS selector: ":hovr" is not a pseudo-class/,
        },
      ],
    ],
    [
      'an ARIA role that does not exist',
      journey([{ action: 'click', locator: { by: 'role', role: 'buton', name: 'Buy' } }]),
      [{ path: 'steps.1.locator.role', message: /^Must be an ARIA role such as button/ }],
    ],
    [
      'a key Playwright does not know',
      journey([{ action: 'press', key: 'Ctrl+Return' }]),
      [{ path: 'steps.1.key', message: /^Must be a key such as Enter.*"Ctrl", "Return"/ }],
    ],
    [
      'a URL that is not http(s)',
      journey([{ action: 'goto', url: 'file:///etc/passwd' }]),
      [{ path: 'steps.1.url', message: /^Must be an http\(s\) URL/ }],
    ],
    [
      'a URL with a password',
      journey([{ action: 'goto', url: 'https://ada:pw@shop.example/' }]),
      [{ path: 'steps.1.url', message: /^Must not hold a user name or password/ }],
    ],
    [
      'an undefined variable',
      journey([{ action: 'fill', locator: button, value: 'Hello {{name}}' }], {
        variables: { city: 'Berlin' },
      }),
      [
        {
          path: 'steps.1.value',
          message: /^Must name a variable the journey has: \{\{name\}\} is not one \(city\)$/,
        },
      ],
    ],
    [
      'an undefined secret',
      journey([
        { action: 'fill', locator: { by: 'label', text: 'Password' }, value: '{{ secret.PASSWORD }}' },
      ]),
      [
        {
          path: 'steps.1.value',
          message:
            /^Must name a secret the journey has: \{\{ secret.PASSWORD \}\} is not one \(none is defined\)$/,
        },
      ],
    ],
    [
      'an undefined secret in an option',
      journey([], { basicAuth: { username: 'staging', password: '{{secret.STAGING}}' } }),
      [{ path: 'basicAuth.password', message: /^Must name a secret the journey has/ }],
    ],
    [
      'a clear password in basic auth',
      journey([], { basicAuth: { username: 'staging', password: 'hunter2' } }),
      [{ path: 'basicAuth.password', message: /^Must be a secret such as \{\{secret.PASSWORD\}\}/ }],
    ],
    [
      'a journey that does not start by going somewhere',
      { steps: [{ action: 'click', locator: button }] },
      [{ path: 'steps.0.action', message: /^Must be goto/ }],
    ],
    ['no steps', { steps: [] }, [{ path: 'steps', message: /^Choose at least one$/ }]],
    [
      'too many steps',
      { steps: Array.from({ length: MAX_JOURNEY_STEPS + 1 }, () => goto) },
      [{ path: 'steps', message: /^At most 50 items$/ }],
    ],
    [
      'a step timeout out of bounds',
      journey([{ action: 'hover', locator: button, timeoutMs: 120_000 }]),
      [{ path: 'steps.1.timeoutMs', message: /^At most 60000$/ }],
    ],
    [
      'an invalid text pattern',
      journey([{ action: 'expect', that: 'title', title: { matches: '(?<=a)b' } }]),
      [{ path: 'steps.1.title.matches', message: /^Must be a regular expression RE2 runs/ }],
    ],
    [
      'select with neither value nor values',
      journey([{ action: 'select', locator: button }]),
      [{ path: 'steps.1.value', message: /^Must give either value or values$/ }],
    ],
    [
      'a fixture file over its bound',
      journey([
        {
          action: 'upload',
          locator: button,
          file: { name: 'big.bin', mimeType: 'application/octet-stream', contentBase64: 'A'.repeat(400_000) },
        },
      ]),
      [{ path: 'steps.1.file.contentBase64', message: /^Must be at most 256 KiB$/ }],
    ],
    [
      'a fixture file that is not base64',
      journey([
        {
          action: 'upload',
          locator: button,
          file: { name: 'a.txt', mimeType: 'text/plain', contentBase64: 'a b' },
        },
      ]),
      [{ path: 'steps.1.file.contentBase64', message: /^Must be base64$/ }],
    ],
    [
      'two screenshots of one name',
      journey([
        { action: 'screenshot', name: 'home' },
        { action: 'screenshot', name: 'home' },
      ]),
      [{ path: 'steps.2.name', message: /^Must differ from the other screenshots/ }],
    ],
    [
      'an unknown time zone and locale',
      journey([], { timezone: 'Mars/Olympus', locale: 'english' }),
      [
        { path: 'locale', message: /^Must be a language tag/ },
        { path: 'timezone', message: /^Must be an IANA time zone/ },
      ],
    ],
    [
      'a header the browser sets, a variable name with a dash',
      journey([], { extraHeaders: { Host: 'x' }, variables: { 'my-city': 'Berlin' } }),
      [
        { path: 'extraHeaders.Host', message: /^Must not be a header the browser sets/ },
        { path: 'variables.my-city', message: /^Must be a variable name: a letter or _/ },
      ],
    ],
    [
      'a cookie with neither url nor domain',
      journey([], { cookies: [{ name: 'a', value: 'b' }] }),
      [{ path: 'cookies.0.url', message: /^Must give either url or domain$/ }],
    ],
  ])('%s', (_, input, expected) => {
    const problems = problemsOf(input);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((want, i) => {
      expect(problems[i]?.path).toBe(want.path);
      expect(problems[i]?.message).toMatch(want.message);
    });
  });

  it('runs the cross-field rules only once the shape is right (each error the real one)', () => {
    const input = { steps: [{ action: 'fill', locator: button, value: '{{nope}}' }, { action: 'nope' }] };
    expect(problemsOf(input).map((problem) => problem.path)).toEqual(['steps.1.action']);
  });

  it('checks a URL with its variables filled, a secret standing in', () => {
    const variables = { base: 'https://shop.example', scheme: 'ftp' };
    expect(
      problemsOf(
        journey([{ action: 'goto', url: '{{base}}/login?t={{secret.T}}' }], {
          variables,
          secrets: { T: 'token-1' },
        }),
      ),
    ).toEqual([]);
    expect(
      problemsOf(journey([{ action: 'goto', url: '{{scheme}}://shop.example' }], { variables })),
    ).toEqual([expect.objectContaining({ path: 'steps.1.url' })]);
  });
});

describe('journeyProblems', () => {
  const parsed = browserJourney.parse(
    journey([{ action: 'fill', locator: { by: 'label', text: 'Password' }, value: '{{secret.PASSWORD}}' }], {
      secrets: { PASSWORD: 'hunter22' },
    }),
  );

  it('is empty for a journey that can run', () => {
    expect(journeyProblems(parsed)).toEqual([]);
  });

  it('takes secrets stored already (a PATCH that does not send them again)', () => {
    const withoutSecrets = { ...parsed, secrets: {} };
    expect(journeyProblems(withoutSecrets)).toEqual([
      { path: 'steps.1.value', message: expect.stringMatching(/^Must name a secret the journey has/) },
    ]);
    expect(journeyProblems(withoutSecrets, { secretNames: ['PASSWORD'] })).toEqual([]);
  });

  it('names placeholders in locators, compared texts and options at their paths', () => {
    const many = {
      ...parsed,
      steps: [
        ...parsed.steps,
        { action: 'click' as const, locator: { by: 'role' as const, role: 'link' as const, name: '{{a}}' } },
        { action: 'expect' as const, that: 'url' as const, url: { contains: '{{b}}' } },
      ],
      extraHeaders: { 'X-Id': '{{c}}' },
      cookies: [{ name: 'k', value: '{{d}}', domain: 'shop.example' }],
    };
    expect(journeyProblems(many).map((problem) => problem.path)).toEqual([
      'steps.2.locator.name',
      'steps.3.url.contains',
      'extraHeaders.X-Id',
      'cookies.0.value',
    ]);
  });
});

describe('journeyJsonSchema', () => {
  const schema = journeyJsonSchema();
  const ajv = new Ajv2020({ strict: false, formats: { base64: true } });
  const check = ajv.compile(schema);

  it('is a JSON Schema of the format with every action and locator', () => {
    const text = JSON.stringify(schema);
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $ref: '#/$defs/BrowserJourney',
      $defs: { BrowserJourney: { type: 'object', required: ['steps'] } },
    });
    for (const action of JOURNEY_ACTIONS) expect(text).toContain(`"const":"${action}"`);
    for (const by of ['role', 'label', 'text', 'placeholder', 'altText', 'title', 'testId', 'css'])
      expect(text).toContain(`"const":"${by}"`);
  });

  it('takes what the schema takes and refuses an unknown action', () => {
    const good = journey([
      { action: 'fill', locator: { by: 'label', text: 'Email' }, value: 'a@b.example' },
      { action: 'expect', that: 'count', locator: button, count: 2 },
      { action: 'waitFor', until: 'networkIdle' },
    ]);
    expect(check(good)).toBe(true);
    expect(check(journey([{ action: 'doubleTap' }]))).toBe(false);
    expect(check(journey([{ action: 'click' }]))).toBe(false);
  });
});
