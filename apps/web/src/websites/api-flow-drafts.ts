import { HTTP_METHODS } from '../../../../libs/websites/website.schema.js';
import type { Schemas } from '../api/client.js';

/*
 * An API flow's steps, variables and secrets as its form holds them, and as the API takes them (pure:
 * no component, no request). The types are the API's generated ones, so a change in its document
 * breaks the compile here instead of drifting.
 */

/** A step as the API shows it. */
export type ApiFlowStep = Schemas['ApiFlowStep'];
type StepInput = Schemas['ApiFlowStepInput'];
type RequestInput = StepInput['request'];
/**
 * A step as the form sends it: the API's input, `maxRedirects` optional as the API takes it (the
 * generated type requires each field that has a default): a new step leaves it to the API's default.
 */
export type StepSent = Omit<StepInput, 'request'> & {
  request: Omit<RequestInput, 'maxRedirects'> & Partial<Pick<RequestInput, 'maxRedirects'>>;
};
/**
 * What the form sends for a flow: the API's create body without its kind (added on create) and
 * without the client certificate, which the form has no control for (a PATCH keeps the stored one).
 */
export type ApiFlowBody = Omit<Schemas['ApiFlowCheckCreate'], 'kind' | 'clientCertificate' | 'steps'> & {
  steps: StepSent[];
};

type Assertion = ApiFlowStep['assertions'][number];
export type Method = Schemas['HttpMethod'];
export const METHODS: readonly Method[] = HTTP_METHODS;
export type ExtractSource = Schemas['ApiFlowExtraction']['from'];
export const SOURCES = [
  ['jsonBody', 'JSON body at a path', '$.token'],
  ['header', 'Response header', 'x-csrf-token'],
  ['body', 'Body, by an RE2 pattern (its first group)', 'id=(\\d+)'],
] as const satisfies ReadonlyArray<readonly [ExtractSource, string, string]>;

/** A step as the form holds it: headers as rows, the statuses as text, `key` stable through moves. */
export interface StepDraft {
  key: number;
  name: string;
  method: Method;
  url: string;
  headers: Array<{ name: string; value: string }>;
  body: string;
  followRedirects: boolean;
  maxRedirects: number | undefined;
  statuses: string;
  assertions: Assertion[];
  extract: Array<{ name: string; from: ExtractSource; target: string }>;
}

let drafted = 0;
export function stepDraft(step?: ApiFlowStep): StepDraft {
  drafted += 1;
  return {
    key: drafted,
    name: step?.name ?? '',
    method: step?.request.method ?? 'GET',
    url: step?.request.url ?? '',
    headers: Object.entries(step?.request.headers ?? {}).map(([name, value]) => ({ name, value })),
    body: step?.request.body ?? '',
    followRedirects: step?.request.followRedirects ?? true,
    maxRedirects: step?.request.maxRedirects,
    statuses: (step?.expectedStatusCodes ?? ['200-299']).join(', '),
    assertions: step?.assertions ?? [],
    extract: (step?.extract ?? []).map((e) => ({
      name: e.name,
      from: e.from,
      target: e.from === 'jsonBody' ? e.path : e.from === 'header' ? e.header : e.pattern,
    })),
  };
}

/** The draft as the API takes it (the API checks it, naming `steps.<i>.<field>`). */
export function stepOf(draft: StepDraft): StepSent {
  return {
    name: draft.name,
    request: {
      method: draft.method,
      url: draft.url.trim(),
      headers: Object.fromEntries(
        draft.headers.filter((h) => h.name.trim() !== '').map((h) => [h.name.trim(), h.value]),
      ),
      body: draft.body === '' ? null : draft.body,
      followRedirects: draft.followRedirects,
      ...(draft.maxRedirects === undefined ? {} : { maxRedirects: draft.maxRedirects }),
    },
    expectedStatusCodes: draft.statuses
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean),
    assertions: draft.assertions,
    extract: draft.extract.map((e) =>
      e.from === 'jsonBody'
        ? { name: e.name, from: e.from, path: e.target }
        : e.from === 'header'
          ? { name: e.name, from: e.from, header: e.target }
          : { name: e.name, from: e.from, pattern: e.target },
    ),
  };
}

/** The errors under `prefix` (`steps.2.`), by their path below it, as a part of the form shows them. */
export const errorsUnder = (errors: Record<string, string>, prefix: string) =>
  Object.fromEntries(
    Object.entries(errors)
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, message]) => [path.slice(prefix.length), message]),
  );

/**
 * The API's refusals of a header's name (not a header name, one the probe sets, given twice); its
 * other refusals of a header (a credential in clear, a placeholder nothing defines) are of its value.
 * Both come at `request.headers.<name>`: this tells the form which control to show them at.
 */
export const HEADER_NAME_REFUSAL = /header name|set by the probe|given twice/;

/** Shown for a stored secret: the API keeps its value when it is sent back. */
export const SEALED = '(set)';

/** A variable (or a secret's name and new value). */
export interface Row {
  name: string;
  value: string;
}
/** A secret: a stored one by name only (its value never comes back), kept unless replaced or removed. */
export interface SecretRow extends Row {
  stored: boolean;
  removed: boolean;
}

/** The secrets as the API takes them: stored ones kept as "(set)" or replaced, removed ones left out, new ones set. */
export function secretsOf(rows: readonly SecretRow[]): Record<string, string> {
  return Object.fromEntries(
    rows.flatMap((row) =>
      !row.name.trim() || row.removed
        ? []
        : [[row.name.trim(), row.stored && row.value === '' ? SEALED : row.value]],
    ),
  );
}
