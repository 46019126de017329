import { describe, expect, it } from 'vitest';
import { journeyStep } from '../../../../libs/journeys/journey-steps.schema.js';
import type { BrowserCheck, JourneyStep } from './journey-choices.js';
import { errorAt, type StepDraft, shownFields, stepDraft, stepOf } from './journey-drafts.js';
import { optionsDraft, optionsOf, withRecording } from './journey-options-draft.js';

const button = { by: 'role', role: 'button', name: 'Sign in' } as const;
const field = { by: 'label', text: 'Email', exact: true } as const;

/** A stored step of every action and variant the form edits. */
const STORED: Array<[string, JourneyStep]> = [
  ['goto', { action: 'goto', url: '{{shop}}/sign-in' }],
  [
    'a named click with its own timeout',
    { action: 'click', name: 'Sign in', timeoutMs: 2000, locator: button },
  ],
  [
    'a right double click, the second of several',
    { action: 'click', locator: { by: 'css', selector: 'li.card', nth: 1 }, button: 'right', clickCount: 2 },
  ],
  ['fill', { action: 'fill', locator: field, value: '{{secret.PASSWORD}}' }],
  ['fill that clears', { action: 'fill', locator: { by: 'placeholder', text: 'Search' }, value: '' }],
  ['select one', { action: 'select', locator: { by: 'label', text: 'Country' }, value: 'France' }],
  ['select several', { action: 'select', locator: { by: 'testId', id: 'tags' }, values: ['a', 'b'] }],
  ['uncheck', { action: 'check', locator: { by: 'text', text: 'Gift wrap' }, checked: false }],
  [
    'press on an element',
    { action: 'press', locator: { by: 'altText', text: 'Logo', nth: -1 }, key: 'Enter' },
  ],
  ['press on the page', { action: 'press', key: 'Control+A' }],
  ['hover', { action: 'hover', locator: { by: 'title', text: 'Help' } }],
  [
    'upload',
    {
      action: 'upload',
      locator: { by: 'label', text: 'Attachment' },
      file: { name: 'a.txt', mimeType: 'text/plain', contentBase64: 'aGk=' },
    },
  ],
  ['wait for an element', { action: 'waitFor', until: 'element', locator: button, state: 'detached' }],
  ['wait for a text', { action: 'waitFor', until: 'text', text: 'Welcome', exact: false }],
  ['wait for the URL', { action: 'waitFor', until: 'url', url: { matches: '/basket$' } }],
  ['wait for the network', { action: 'waitFor', until: 'networkIdle' }],
  ['expect visible', { action: 'expect', that: 'visible', locator: { by: 'text', text: 'Thank you' } }],
  ['expect hidden', { action: 'expect', that: 'hidden', locator: { by: 'text', text: 'Error' } }],
  ['expect a text', { action: 'expect', that: 'text', locator: field, text: { equals: '1' } }],
  ['expect a value', { action: 'expect', that: 'value', locator: field, value: { contains: '@' } }],
  ['expect checked', { action: 'expect', that: 'checked', locator: field, checked: true }],
  ['expect the URL', { action: 'expect', that: 'url', url: { contains: '/thanks' } }],
  ['expect the title', { action: 'expect', that: 'title', title: { equals: 'Shop' } }],
  ['expect a count', { action: 'expect', that: 'count', locator: field, op: 'atLeast', count: 3 }],
  [
    'expect an attribute there',
    { action: 'expect', that: 'attribute', locator: field, attribute: 'required' },
  ],
  [
    'expect an attribute’s value',
    { action: 'expect', that: 'attribute', locator: field, attribute: 'href', value: { equals: '/' } },
  ],
  ['a full-page screenshot', { action: 'screenshot', name: 'basket page', timeoutMs: 5000, fullPage: true }],
];

const journey: BrowserCheck = {
  id: 1,
  websiteId: 1,
  kind: 'browser',
  name: 'Buy a teapot',
  intervalSeconds: 600,
  timeoutSeconds: 60,
  status: 'up',
  since: null,
  lastCause: null,
  openIncidentId: null,
  createdAt: '2026-11-29T00:00:00Z',
  updatedAt: '2026-11-29T00:00:00Z',
  version: 1,
  steps: [{ action: 'goto', url: '{{shop}}/' }],
  device: 'phone',
  viewport: { width: 400, height: 800 },
  locale: 'de-DE',
  timezone: 'Europe/Berlin',
  extraHeaders: { 'X-Monitor': 'webmon' },
  basicAuth: { username: 'staging', password: '{{secret.BASIC}}' },
  cookies: [
    { name: 'consent', value: 'yes', domain: '.shop.example', path: '/', secure: true },
    { name: 'ab', value: 'b', url: 'https://shop.example/' },
  ],
  variables: { shop: 'https://shop.example' },
  secrets: { PASSWORD: '(set)', BASIC: '(set)' },
};

describe('the journey form’s steps and options, as the API takes them', () => {
  it.each(STORED)('a stored step comes back as it was through the form’s draft: %s', (_, step) => {
    expect(stepOf(stepDraft(step))).toEqual(step);
    expect(journeyStep.safeParse(stepOf(stepDraft(step))).success).toBe(true);
  });

  it('a new step goes to a URL; another action keeps what was typed in the fields they share', () => {
    const draft = stepDraft();
    expect(stepOf({ ...draft, url: ' https://shop.example/ ' })).toEqual({
      action: 'goto',
      url: 'https://shop.example/',
    });
    const typed: StepDraft = {
      ...draft,
      action: 'fill',
      name: ' Email ',
      locator: { ...draft.locator, by: 'label', text: 'Email' },
      value: 'ada@shop.example',
    };
    expect(stepOf(typed)).toEqual({
      action: 'fill',
      name: 'Email',
      locator: { by: 'label', text: 'Email' },
      value: 'ada@shop.example',
    });
    expect(
      stepOf({ ...typed, action: 'expect', that: 'value', match: { how: 'equals', text: 'x' } }),
    ).toEqual({
      action: 'expect',
      name: 'Email',
      that: 'value',
      locator: { by: 'label', text: 'Email' },
      value: { equals: 'x' },
    });
    // A role's empty name is no name; several options are one a line.
    expect(
      stepOf({ ...typed, action: 'click', locator: { ...typed.locator, by: 'role', text: '' } }),
    ).toEqual({
      action: 'click',
      name: 'Email',
      locator: { by: 'role', role: 'button' },
    });
    expect(stepOf({ ...typed, action: 'select', several: true, value: 'a\n\n b \n' })).toMatchObject({
      values: ['a', 'b'],
    });
    expect(stepDraft().key).not.toBe(stepDraft().key);
  });

  it('each field the schema refuses in a step is one the form shows at its control', () => {
    const broken: StepDraft[] = STORED.map(([, step]) => {
      const draft = stepDraft(step);
      return {
        ...draft,
        name: draft.action === 'screenshot' ? 'no/slash' : draft.name,
        timeoutMs: '5',
        url: 'x'.repeat(3000),
        locator: { ...draft.locator, text: '', nth: 'first' },
        value: draft.action === 'select' ? '' : draft.value,
        chord: 'Hyper+Q',
        text: '',
        match: { how: 'matches', text: '(?<=a)' },
        count: '-1',
        attribute: 'a b',
        file: draft.action === 'upload' ? null : draft.file,
      };
    });
    for (const draft of broken) {
      const refused = journeyStep.safeParse(stepOf(draft));
      expect(refused.success, draft.action).toBe(false);
      for (const issue of refused.error?.issues ?? [])
        expect(shownFields(draft), `${draft.action} ${issue.path.join('.')}`).toContain(
          String(issue.path[0] ?? ''),
        );
    }
  });

  it('an error at a control’s path or under it', () => {
    const errors = { 'url.matches': 'bad pattern', 'locator.text': 'too short', locator: 'missing' };
    expect(errorAt(errors, 'url')).toBe('bad pattern');
    expect(errorAt(errors, 'locator.name', 'locator.text', 'locator')).toBe('too short');
    expect(errorAt(errors, 'value')).toBeUndefined();
  });

  it('a stored journey’s options come back as they were, its secrets kept as (set)', () => {
    expect(optionsOf(optionsDraft(journey))).toEqual({
      device: 'phone',
      viewport: { width: 400, height: 800 },
      locale: 'de-DE',
      timezone: 'Europe/Berlin',
      extraHeaders: { 'X-Monitor': 'webmon' },
      basicAuth: { username: 'staging', password: '{{secret.BASIC}}' },
      cookies: journey.cookies,
      variables: { shop: 'https://shop.example' },
      secrets: { PASSWORD: '(set)', BASIC: '(set)' },
    });
  });

  it('a new journey’s options are the API’s defaults: empty fields are null', () => {
    const draft = optionsDraft(null);
    expect(optionsOf(draft)).toEqual({
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
    // A basic-auth password is a secret by its name (or the placeholder as written).
    expect(optionsOf({ ...draft, basicUser: 'u', basicSecret: 'BASIC' }).basicAuth).toEqual({
      username: 'u',
      password: '{{secret.BASIC}}',
    });
    expect(optionsOf({ ...draft, basicUser: 'u', basicSecret: '{{secret.B}}' }).basicAuth?.password).toBe(
      '{{secret.B}}',
    );
  });

  it('a recording replaces a blank editor’s steps, or follows them; its options and secrets join the editor’s', () => {
    const recording = {
      steps: [STORED[0]?.[1], STORED[3]?.[1]] as JourneyStep[],
      options: { locale: 'en-GB', extraHeaders: { 'X-Monitor': 'recorded' }, secrets: { PASSWORD: 'pw' } },
      unconverted: [{ line: 7, text: 'await page.waitForTimeout(500);', reason: 'a fixed wait' }],
    };
    const blank = { steps: [stepDraft()], options: optionsDraft(null) };
    const replaced = withRecording(blank, recording, false);
    expect(replaced.steps.map(stepOf)).toEqual(recording.steps);
    expect(replaced.options.locale).toBe('en-GB');
    expect(optionsOf(replaced.options).secrets).toEqual({ PASSWORD: 'pw' });

    const stored = { steps: [stepDraft(STORED[1]?.[1]), stepDraft()], options: optionsDraft(journey) };
    const followed = withRecording(stored, recording, true);
    expect(followed.steps.map((s) => s.action)).toEqual(['click', 'goto', 'fill']);
    const options = optionsOf(followed.options);
    expect(options.extraHeaders).toEqual({ 'X-Monitor': 'recorded' });
    // The stored PASSWORD is replaced by the recording's; BASIC is kept as it was.
    expect(options.secrets).toEqual({ PASSWORD: 'pw', BASIC: '(set)' });
    expect(options.device).toBe('phone');
    expect(withRecording(stored, { ...recording, steps: [] }, false).steps).toBe(stored.steps);
  });
});
