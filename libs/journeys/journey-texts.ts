import { fillPlaceholders, type PlaceholderValues } from '../placeholders/index.js';
import type { BrowserJourney } from './journey-options.schema.js';
import type { JourneyStep, Locator } from './journey-steps.schema.js';
import type { TextMatch } from './text-match.js';

/**
 * The texts of a journey that hold placeholders, in one place: URLs, typed and chosen values,
 * the texts, names and test ids locators find by, compared texts, header and cookie values and
 * basic auth. Selectors, roles, keys, step and screenshot names and files are taken as written.
 */

/** Where a text is in the journey, as zod paths go (`['steps', 3, 'value']`). */
export type TextPath = readonly (string | number)[];
/** Gives a text its new value, knowing where it is. */
export type TextMapper = (text: string, path: TextPath) => string;

function mapLocator(locator: Locator, map: TextMapper, at: TextPath): Locator {
  switch (locator.by) {
    case 'css':
      return locator;
    case 'role':
      return locator.name === undefined ? locator : { ...locator, name: map(locator.name, [...at, 'name']) };
    case 'testId':
      return { ...locator, id: map(locator.id, [...at, 'id']) };
    default:
      return { ...locator, text: map(locator.text, [...at, 'text']) };
  }
}

function mapMatch(match: TextMatch, map: TextMapper, at: TextPath): TextMatch {
  if ('equals' in match) return { equals: map(match.equals, [...at, 'equals']) };
  if ('contains' in match) return { contains: map(match.contains, [...at, 'contains']) };
  return { matches: map(match.matches, [...at, 'matches']) };
}

/** The step with each of its placeholder-holding texts mapped (the step itself is not changed). */
export function mapStepTexts(step: JourneyStep, map: TextMapper, at: TextPath = []): JourneyStep {
  const found = <S extends { locator: Locator }>(located: S): S => ({
    ...located,
    locator: mapLocator(located.locator, map, [...at, 'locator']),
  });
  switch (step.action) {
    case 'goto':
      return { ...step, url: map(step.url, [...at, 'url']) };
    case 'fill':
      return { ...found(step), value: map(step.value, [...at, 'value']) };
    case 'select':
      return {
        ...found(step),
        ...(step.value !== undefined && { value: map(step.value, [...at, 'value']) }),
        ...(step.values !== undefined && {
          values: step.values.map((value, i) => map(value, [...at, 'values', i])),
        }),
      };
    case 'press':
      return step.locator ? { ...step, locator: mapLocator(step.locator, map, [...at, 'locator']) } : step;
    case 'click':
    case 'check':
    case 'hover':
    case 'upload':
      return found(step);
    case 'screenshot':
      return step;
    case 'waitFor':
      switch (step.until) {
        case 'element':
          return found(step);
        case 'text':
          return { ...step, text: map(step.text, [...at, 'text']) };
        case 'url':
          return { ...step, url: mapMatch(step.url, map, [...at, 'url']) };
        case 'networkIdle':
          return step;
      }
      break;
    case 'expect':
      switch (step.that) {
        case 'visible':
        case 'hidden':
        case 'checked':
        case 'count':
          return found(step);
        case 'text':
          return { ...found(step), text: mapMatch(step.text, map, [...at, 'text']) };
        case 'value':
          return { ...found(step), value: mapMatch(step.value, map, [...at, 'value']) };
        case 'attribute':
          return step.value === undefined
            ? found(step)
            : { ...found(step), value: mapMatch(step.value, map, [...at, 'value']) };
        case 'url':
          return { ...step, url: mapMatch(step.url, map, [...at, 'url']) };
        case 'title':
          return { ...step, title: mapMatch(step.title, map, [...at, 'title']) };
      }
  }
}

/** The journey with each placeholder-holding text mapped: its steps' and its options'. */
export function mapJourneyTexts(journey: BrowserJourney, map: TextMapper): BrowserJourney {
  return {
    ...journey,
    steps: journey.steps.map((step, i) => mapStepTexts(step, map, ['steps', i])),
    extraHeaders: Object.fromEntries(
      Object.entries(journey.extraHeaders).map(([name, value]) => [name, map(value, ['extraHeaders', name])]),
    ),
    basicAuth: journey.basicAuth && {
      username: map(journey.basicAuth.username, ['basicAuth', 'username']),
      password: map(journey.basicAuth.password, ['basicAuth', 'password']),
    },
    cookies: journey.cookies.map((cookie, i) => ({
      ...cookie,
      value: map(cookie.value, ['cookies', i, 'value']),
    })),
  };
}

/** Each placeholder-holding text of the journey with where it is. */
export function journeyTexts(journey: BrowserJourney): Array<{ path: TextPath; text: string }> {
  const texts: Array<{ path: TextPath; text: string }> = [];
  mapJourneyTexts(journey, (text, path) => {
    texts.push({ path, text });
    return text;
  });
  return texts;
}

/**
 * The journey as the runner plays it: every placeholder filled with the journey's variables and
 * the opened secrets (`secretMasks(opened)` tells what to blank in its output).
 */
export function fillJourney(journey: BrowserJourney, opened: PlaceholderValues): BrowserJourney {
  const values = { variables: opened.variables ?? journey.variables, secrets: opened.secrets ?? {} };
  return mapJourneyTexts(journey, (text) => fillPlaceholders(text, values));
}
