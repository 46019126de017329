import type { FieldError } from '../errors/index.js';
import { fillPlaceholders, placeholdersIn } from '../placeholders/index.js';
import { type BrowserJourney, isHttpUrl } from './journey-options.schema.js';
import { decodedBytes, MAX_FIXTURE_BYTES_PER_JOURNEY, MAX_SCREENSHOTS } from './journey-steps.schema.js';
import { journeyTexts, type TextPath } from './journey-texts.js';

/**
 * The rules of a journey that span fields, so that one that cannot run is refused when written
 * rather than failing at 3 a.m.: it starts by going somewhere, its URLs are http(s), each
 * placeholder names a variable or secret it has, its files and screenshots stay within bounds.
 * The shape (actions, fields, selectors, roles, keys) is the schema's; these run on a journey
 * that has it.
 */

/** A problem with its path as zod gives one (`browserJourney` adds them as issues). */
export interface JourneyIssue {
  path: TextPath;
  message: string;
}

/** What else the journey may name besides its own fields. */
export interface KnownNames {
  /** Secrets stored already (sealed) that the journey sent does not repeat (a PATCH without secrets). */
  secretNames?: Iterable<string>;
}

/** Stands in for a secret when a URL is checked: its value is not known when written, its place is. */
const SECRET_STAND_IN = 'secret';

const listed = (names: readonly string[]) => (names.length ? names.join(', ') : 'none is defined');

function placeholderIssues(journey: BrowserJourney, known: KnownNames): JourneyIssue[] {
  const variables = Object.keys(journey.variables);
  const secrets = [...new Set([...Object.keys(journey.secrets), ...(known.secretNames ?? [])])];
  const issues: JourneyIssue[] = [];
  for (const { path, text } of journeyTexts(journey))
    for (const placeholder of placeholdersIn(text)) {
      if (placeholder.kind === 'variable' && !variables.includes(placeholder.name))
        issues.push({
          path,
          message: `Must name a variable the journey has: ${placeholder.text} is not one (${listed(variables)})`,
        });
      if (placeholder.kind === 'secret' && !secrets.includes(placeholder.name))
        issues.push({
          path,
          message: `Must name a secret the journey has: ${placeholder.text} is not one (${listed(secrets)})`,
        });
    }
  return issues;
}

/** A goto's URL with its variables filled and its secrets stood in for; null when a secret begins it. */
function urlToCheck(url: string, journey: BrowserJourney): string | null {
  if (/^\{\{\s*secret\./.test(url)) return null;
  const stoodIn = Object.fromEntries(
    placeholdersIn(url)
      .filter((placeholder) => placeholder.kind === 'secret')
      .map((placeholder) => [placeholder.name, SECRET_STAND_IN]),
  );
  return fillPlaceholders(url, { variables: journey.variables, secrets: stoodIn });
}

function stepIssues(journey: BrowserJourney): JourneyIssue[] {
  const issues: JourneyIssue[] = [];
  if (journey.steps[0]?.action !== 'goto')
    issues.push({
      path: ['steps', 0, 'action'],
      message: 'Must be goto: a journey starts by going to a URL (the page is blank until then)',
    });
  let fixtureBytes = 0;
  let screenshotSteps = 0;
  const screenshots = new Set<string>();
  journey.steps.forEach((step, i) => {
    if (step.action === 'goto') {
      const url = urlToCheck(step.url, journey);
      // A secret at the start could stand for any scheme (file:, chrome:, javascript:): it may
      // stand for a part of a URL, never its start.
      if (url === null)
        issues.push({
          path: ['steps', i, 'url'],
          message:
            'Must begin with http:// or https://: a secret may stand for a part of the URL, not its start',
        });
      else if (!isHttpUrl(url))
        issues.push({
          path: ['steps', i, 'url'],
          message: 'Must be an http(s) URL such as https://shop.example/login (with its variables filled)',
        });
      else if (new URL(url).username || new URL(url).password)
        issues.push({
          path: ['steps', i, 'url'],
          message: 'Must not hold a user name or password: give them in basicAuth',
        });
    }
    if (step.action === 'upload') {
      fixtureBytes += decodedBytes(step.file.contentBase64);
      if (fixtureBytes > MAX_FIXTURE_BYTES_PER_JOURNEY)
        issues.push({
          path: ['steps', i, 'file', 'contentBase64'],
          message: `Must keep the journey's files within ${MAX_FIXTURE_BYTES_PER_JOURNEY / 1024} KiB together`,
        });
    }
    if (step.action === 'screenshot') {
      if (screenshots.has(step.name))
        issues.push({ path: ['steps', i, 'name'], message: 'Must differ from the other screenshots’ names' });
      screenshots.add(step.name);
      if (++screenshotSteps > MAX_SCREENSHOTS)
        issues.push({ path: ['steps', i], message: `Must be one of at most ${MAX_SCREENSHOTS} screenshots` });
    }
  });
  return issues;
}

/** The journey's cross-field problems with zod's paths (for `browserJourney`'s refinement). */
export function journeyIssues(journey: BrowserJourney, known: KnownNames = {}): JourneyIssue[] {
  return [...stepIssues(journey), ...placeholderIssues(journey, known)];
}

/**
 * Why the journey cannot run, each problem at its field (`steps.3.value`, `basicAuth.password`),
 * as the API's 400 names them; empty when it can. `journey` has the schema's shape already.
 */
export function journeyProblems(journey: BrowserJourney, known: KnownNames = {}): FieldError[] {
  return journeyIssues(journey, known).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
