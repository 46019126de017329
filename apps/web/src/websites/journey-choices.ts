import { ARIA_ROLES } from '../../../../libs/journeys/aria-roles.js';
import type { Schemas } from '../api/client.js';

/*
 * The choices a browser journey's form offers (actions, locators, waits, expectations, devices…)
 * in words, typed by the API's generated unions so that a choice the API adds breaks the compile
 * here until it has its words.
 */

/** A browser journey as the API shows it. */
export type BrowserCheck = Schemas['BrowserCheck'];
/** A step as the API shows it, and as the form sends it. */
export type JourneyStep = Schemas['JourneyStep'];
export type JourneyStepSent = Schemas['JourneyStepInput'];
/** What the form sends for a journey: the API's create body without its kind (added on create). */
export type JourneyBody = Omit<Schemas['BrowserCheckCreate'], 'kind'>;

export type Action = JourneyStep['action'];
export type StepOf<A extends Action> = Extract<JourneyStep, { action: A }>;
export type Locator = Schemas['JourneyLocator'];
export type LocatorKind = Locator['by'];
export type AriaRole = Extract<Locator, { by: 'role' }>['role'];
export type WaitKind = StepOf<'waitFor'>['until'];
export type AssertionKind = StepOf<'expect'>['that'];
export type ElementState = Extract<StepOf<'waitFor'>, { until: 'element' }>['state'];
export type CountOperator = Extract<StepOf<'expect'>, { that: 'count' }>['op'];
export type TextMatch = Extract<StepOf<'expect'>, { that: 'url' }>['url'];
export type MatchHow = TextMatch extends infer M ? (M extends unknown ? keyof M : never) : never;
export type MouseButton = NonNullable<StepOf<'click'>['button']>;
export type FixtureFile = StepOf<'upload'>['file'];
export type Device = JourneyBody['device'];

/** Each choice in words, in the order the form offers them (typed by the API's unions: none missing). */
export const ACTIONS: Record<Action, string> = {
  goto: 'Go to a URL',
  click: 'Click',
  fill: 'Fill in a field',
  select: 'Choose an option',
  check: 'Check or uncheck',
  press: 'Press a key',
  hover: 'Hover',
  upload: 'Upload a file',
  waitFor: 'Wait for',
  expect: 'Expect',
  screenshot: 'Take a screenshot',
};
export const LOCATORS: Record<LocatorKind, string> = {
  role: 'Role and name',
  label: 'Label',
  text: 'Text',
  placeholder: 'Placeholder',
  altText: 'Alt text',
  title: 'Title',
  testId: 'Test id',
  css: 'CSS selector',
};
export const WAITS: Record<WaitKind, string> = {
  element: 'an element',
  text: 'a text to show',
  url: 'the URL',
  networkIdle: 'the network to settle',
};
export const ASSERTIONS: Record<AssertionKind, string> = {
  visible: 'an element is visible',
  hidden: 'an element is hidden or absent',
  text: 'an element’s text',
  value: 'a field’s value',
  checked: 'a box is checked (or not)',
  url: 'the page’s URL',
  title: 'the page’s title',
  count: 'how many elements match',
  attribute: 'an element’s attribute',
};
export const STATES: Record<ElementState, string> = {
  visible: 'visible',
  hidden: 'hidden',
  attached: 'in the page',
  detached: 'gone from the page',
};
export const OPERATORS: Record<CountOperator, string> = {
  equals: 'exactly',
  notEquals: 'not',
  atLeast: 'at least',
  atMost: 'at most',
  greaterThan: 'more than',
  lessThan: 'fewer than',
};
export const MATCHES: Record<MatchHow, string> = {
  equals: 'equals',
  contains: 'contains',
  matches: 'matches (RE2 pattern)',
};
export const BUTTONS: Record<MouseButton, string> = { left: 'left', right: 'right', middle: 'middle' };
export const DEVICES: Record<Device, string> = {
  desktop: 'Desktop (Chrome)',
  phone: 'Phone (Pixel 7: touch, mobile viewport)',
};
export const ROLES: readonly AriaRole[] = ARIA_ROLES;
