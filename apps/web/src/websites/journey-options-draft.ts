import { placeholdersIn, SECRET_REFERENCE } from '../../../../libs/placeholders/index.js';
import type { Schemas } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { type Row, type SecretRow, secretsOf } from './api-flow-drafts.js';
import type { BrowserCheck, Device, JourneyBody } from './journey-choices.js';
import { isBlank, type StepDraft, stepDraft } from './journey-drafts.js';

/*
 * A browser journey's options (the browser it runs in, what every request carries, its variables
 * and write-only secrets) as its form holds them and as the API takes them, and a recording joined
 * to the editor (pure: no component, no request).
 */

type OptionsSent = Omit<JourneyBody, 'name' | 'intervalSeconds' | 'timeoutSeconds' | 'version' | 'steps'>;
/** The recorder's conversion of a Playwright test. */
export type Recording =
  paths['/api/browser-steps/from-playwright']['post']['responses'][200]['content']['application/json'];

type Cookie = Schemas['JourneyCookie'];

/** A cookie as the form holds it: what it is set for (a URL, else a domain); the rest kept as stored. */
export interface CookieDraft {
  name: string;
  value: string;
  scope: string;
  kept: Omit<Cookie, 'name' | 'value' | 'url' | 'domain'>;
}

/** A journey's browser and values as the form holds them. */
export interface OptionsDraft {
  device: Device;
  /** The viewport's width and height: both empty, the device's. */
  width: string;
  height: string;
  locale: string;
  timezone: string;
  headers: Row[];
  /** HTTP basic auth: empty, none; the password is one of the secrets, by its name. */
  basicUser: string;
  basicSecret: string;
  cookies: CookieDraft[];
  variables: Row[];
  secrets: SecretRow[];
}

const rowsOf = (record: Record<string, string> | undefined): Row[] =>
  Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));
const recordOf = (rows: readonly Row[]): Record<string, string> =>
  Object.fromEntries(rows.filter((row) => row.name.trim() !== '').map((row) => [row.name.trim(), row.value]));
/** The secret a text names when it is one secret's placeholder and nothing else (the basic-auth password), else ''. */
const secretReferenced = (text: string) =>
  SECRET_REFERENCE.test(text) ? (placeholdersIn(text)[0]?.name ?? '') : '';

export function optionsDraft(journey?: BrowserCheck | null): OptionsDraft {
  return {
    device: journey?.device ?? 'desktop',
    width: journey?.viewport ? String(journey.viewport.width) : '',
    height: journey?.viewport ? String(journey.viewport.height) : '',
    locale: journey?.locale ?? '',
    timezone: journey?.timezone ?? '',
    headers: rowsOf(journey?.extraHeaders),
    basicUser: journey?.basicAuth?.username ?? '',
    basicSecret: secretReferenced(journey?.basicAuth?.password ?? ''),
    cookies: (journey?.cookies ?? []).map(({ name, value, url, domain, ...kept }) => ({
      name,
      value,
      scope: url ?? domain ?? '',
      kept,
    })),
    variables: rowsOf(journey?.variables),
    // A stored secret comes back by name only: kept as "(set)" unless replaced or removed.
    secrets: Object.keys(journey?.secrets ?? {}).map((name) => ({
      name,
      value: '',
      stored: true,
      removed: false,
    })),
  };
}

/** The options as the API takes them: empty fields are the defaults (null), the secrets write-only. */
export function optionsOf(draft: OptionsDraft): OptionsSent {
  const secret = draft.basicSecret.trim();
  return {
    device: draft.device,
    viewport:
      draft.width.trim() === '' && draft.height.trim() === ''
        ? null
        : { width: Number(draft.width), height: Number(draft.height) },
    locale: draft.locale.trim() || null,
    timezone: draft.timezone.trim() || null,
    extraHeaders: recordOf(draft.headers),
    basicAuth:
      draft.basicUser.trim() === ''
        ? null
        : {
            username: draft.basicUser.trim(),
            // Its name, or the placeholder as written: the API names a wrong one at basicAuth.password.
            password: secret.startsWith('{{') ? secret : `{{secret.${secret}}}`,
          },
    cookies: draft.cookies
      .filter((cookie) => cookie.name.trim() !== '')
      .map(({ name, value, scope, kept }) => ({
        name: name.trim(),
        value,
        ...(/^https?:/i.test(scope.trim()) ? { url: scope.trim() } : { domain: scope.trim() }),
        ...kept,
      })),
    variables: recordOf(draft.variables),
    secrets: secretsOf(draft.secrets),
  };
}

/**
 * The editor with a recording's steps and options: its steps replace the editor's (or follow them,
 * `keep`; a blank step is dropped either way), its device, viewport, locale and time zone replace
 * the editor's, its headers and secrets join them (a secret of the same name gets the recording's
 * value, as a replacement of a stored one does).
 */
export function withRecording(
  editor: { steps: StepDraft[]; options: OptionsDraft },
  recording: Recording,
  keep: boolean,
): { steps: StepDraft[]; options: OptionsDraft } {
  const recorded = recording.steps.map((step) => stepDraft(step));
  const steps =
    recorded.length === 0
      ? editor.steps
      : [...(keep ? editor.steps.filter((s) => !isBlank(s)) : []), ...recorded];
  const given = recording.options;
  const options = { ...editor.options };
  if (given.device) options.device = given.device;
  if (given.viewport !== undefined) {
    options.width = given.viewport ? String(given.viewport.width) : '';
    options.height = given.viewport ? String(given.viewport.height) : '';
  }
  if (given.locale !== undefined) options.locale = given.locale ?? '';
  if (given.timezone !== undefined) options.timezone = given.timezone ?? '';
  options.headers = joined(
    options.headers,
    given.extraHeaders,
    (row, value) => ({ ...row, value }),
    (name, value) => ({
      name,
      value,
    }),
  );
  options.secrets = joined(
    options.secrets,
    given.secrets,
    (row, value) => ({ ...row, value, removed: false }),
    (name, value) => ({ name, value, stored: false, removed: false }),
  );
  return { steps, options };
}

function joined<R extends Row>(
  rows: readonly R[],
  record: Record<string, string> | undefined,
  replaced: (row: R, value: string) => R,
  added: (name: string, value: string) => R,
): R[] {
  const next = [...rows];
  for (const [name, value] of Object.entries(record ?? {})) {
    const at = next.findIndex((row) => row.name.trim() === name);
    if (at === -1) next.push(added(name, value));
    else next[at] = replaced(next[at] as R, value);
  }
  return next;
}
