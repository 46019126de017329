/**
 * Browser journeys: the declarative step format (versioned JSON, one zod schema for types,
 * validation and JSON Schema), its placeholders and secrets, the converter from Playwright's
 * recorder (pure), and the runner: one Chromium per process, a fresh context per run behind its
 * own guarding proxy. A module the app imports (the schema, the recording body) is imported from
 * its own file so that neither the parser nor playwright-core reaches the browser's bundle.
 */
export { ARIA_ROLES, type AriaRole } from './aria-roles.js';
export { browserJourney, journeyJsonSchema } from './browser-journey.schema.js';
export { cssSelectorProblem } from './css-selector.js';
export { fromPlaywright } from './from-playwright.js';
export {
  type GuardProxy,
  type GuardProxyOptions,
  type GuardRefusal,
  startGuardProxy,
} from './guard-proxy.js';
export { GUARDED_CHROMIUM_ARGS, guardedContextOptions } from './guard-proxy-chromium.js';
export { BrowserUnavailableError, JourneyBrowser, type JourneyBrowserOptions } from './journey-browser.js';
export { journeyRunEvidence } from './journey-evidence.schema.js';
export {
  type BrowserJourney,
  type BrowserJourneyInput,
  isHttpUrl,
  JOURNEY_DEVICES,
  type JourneyCookie,
  type JourneyDevice,
  type JourneyOptions,
  journeyFields,
  journeySettings,
  MAX_COOKIES,
  MAX_EXTRA_HEADERS,
  MAX_SECRET_CHARS,
  MAX_SECRETS,
  MAX_VARIABLES,
  PLAYWRIGHT_DEVICES,
} from './journey-options.schema.js';
export { type JourneyIssue, journeyIssues, journeyProblems, type KnownNames } from './journey-problems.js';
export {
  type FailedRequest,
  type JourneyRun,
  type JourneyRunInput,
  MAX_SCREENSHOT_BYTES,
  MAX_TRACE_BYTES,
  type StepOutcome,
} from './journey-runner.js';
export {
  COUNT_OPERATORS,
  type CountOperator,
  DEFAULT_STEP_TIMEOUT_MS,
  ELEMENT_STATES,
  type ElementState,
  JOURNEY_ACTIONS,
  JOURNEY_FORMAT_VERSION,
  type JourneyAction,
  type JourneyStep,
  type JourneyStepInput,
  journeyStep,
  LOCATOR_KINDS,
  type Locator,
  type LocatorKind,
  locator,
  MAX_FIXTURE_BYTES_PER_JOURNEY,
  MAX_FIXTURE_FILE_BYTES,
  MAX_JOURNEY_STEPS,
  MAX_SCREENSHOTS,
  MAX_SELECTOR_CHARS,
  MAX_URL_CHARS,
  MAX_VALUE_CHARS,
  STEP_TIMEOUT_MS,
  type StepOf,
} from './journey-steps.schema.js';
export {
  fillJourney,
  journeyTexts,
  mapJourneyTexts,
  mapStepTexts,
  type TextMapper,
  type TextPath,
} from './journey-texts.js';
export { keyProblem } from './keyboard-keys.js';
export { secretMasks } from './placeholders.js';
export {
  type ConvertedRecording,
  MAX_RECORDING_CHARS,
  type RecordedOptions,
  recordingBody,
  type UnconvertedLine,
} from './recording.schema.js';
export {
  describeMatch,
  MAX_TEXT_CHARS,
  matchesText,
  matchText,
  re2Problem,
  type TextMatch,
  textMatch,
} from './text-match.js';
export type { PageVitals } from './web-vitals.js';
