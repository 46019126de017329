import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import {
  assertionSchema,
  checkConfigSchema,
  jsonPathProblem,
  MAX_ASSERTIONS,
  patternProblem,
} from '../../../checks/index.js';
import { nameText } from '../../../contract/index.js';
import {
  fillPlaceholders,
  placeholdersIn,
  SECRET_NAME,
  SECRET_REFERENCE,
  startsWithPlaceholder,
  VALUE_NAME,
} from '../../../placeholders/index.js';
import { createWebsiteBody } from '../../../websites/index.js';
import { isCredentialName } from '../probe-kind.js';

/** Steps a flow may have whatever its package says (the package's `maxStepsPerJourney` bounds it below this). */
export const MAX_STEPS = 100;
const MAX_EXTRACTIONS = 20;
const MAX_VARIABLES = 20;
const MAX_SECRETS = 20;

// The website's own request fields, so a step is written as a website's check is.
const websiteField = createWebsiteBody.shape;
const httpMethod = websiteField.httpMethod.unwrap();
const requestBody = websiteField.requestBody.unwrap();
const maxRedirects = websiteField.maxRedirects.unwrap();

const valueName = z
  .string()
  .regex(VALUE_NAME, 'must be a letter or _, then letters, digits or _ (64 at most)')
  .refine((name) => name !== 'secret', '"secret" is taken: secrets are {{secret.NAME}}');

/** A credential written as text would be stored and shown as it is: it must come from a placeholder. */
const CLEAR_CREDENTIAL =
  'is a credential: give it as {{secret.NAME}} (sealed, write-only) or as a value an earlier step extracted';

const headers = websiteField.customHeaders
  .unwrap()
  .superRefine((record, context) => {
    for (const [name, value] of Object.entries(record))
      if (isCredentialName(name) && value !== '' && placeholdersIn(value).length === 0)
        context.addIssue({ code: 'custom', path: [name], message: CLEAR_CREDENTIAL });
  })
  .describe(
    'Sent with the request; a credential header (Authorization, a token, a key, a cookie) must hold a placeholder: {{secret.NAME}} or {{name}} of an earlier extraction',
  );

const request = z
  .strictObject({
    method: httpMethod.default('GET'),
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        'An absolute http(s) URL; placeholders may stand for any part ({{base}}/me, …?id={{orderId}}), a credential in its query only as one',
      ),
    headers: headers.default({}),
    body: requestBody.default(null).describe('Sent as it is, placeholders filled (at most 64 KiB)'),
    followRedirects: z.boolean().default(true),
    maxRedirects: maxRedirects.default(10),
  })
  .meta({ id: 'ApiFlowRequest', description: 'One request of an API flow, as a website’s check sends it' });

const extraction = z
  .discriminatedUnion('from', [
    z
      .strictObject({
        name: valueName,
        from: z.literal('jsonBody'),
        path: z
          .string()
          .min(1)
          .max(500)
          .superRefine((path, context) => {
            const problem = jsonPathProblem(path);
            if (problem) context.addIssue({ code: 'custom', message: problem });
          })
          .describe('An RFC 9535 JSONPath (as assertions take it): its first node'),
      })
      .meta({ id: 'ApiFlowExtractJson' }),
    z
      .strictObject({
        name: valueName,
        from: z.literal('header'),
        header: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, 'must be a header name'),
      })
      .meta({ id: 'ApiFlowExtractHeader' }),
    z
      .strictObject({
        name: valueName,
        from: z.literal('body'),
        pattern: z
          .string()
          .min(1)
          .max(1000)
          .superRefine((pattern, context) => {
            const problem = patternProblem(pattern);
            if (problem) context.addIssue({ code: 'custom', message: problem });
          })
          .describe('An RE2 pattern: its first capture group, or the whole match without one'),
      })
      .meta({ id: 'ApiFlowExtractPattern' }),
  ])
  .meta({
    id: 'ApiFlowExtraction',
    description:
      'A value of the answer kept as {{name}} for the steps after: from the JSON body by a JSONPath, from a header, or from the body by an RE2 capture',
  });

const step = z
  .strictObject({
    name: nameText(100).describe('What the step does, as failures name it: "Sign in"'),
    request,
    expectedStatusCodes: checkConfigSchema.shape.expectedStatusCodes
      .default(['200-299'])
      .describe('The answer’s status, codes or ranges (after redirects when followed)'),
    assertions: z
      .array(assertionSchema)
      .max(MAX_ASSERTIONS)
      .default([])
      .describe('Conditions on the answer, as a website’s check takes them; all must hold'),
    extract: z.array(extraction).max(MAX_EXTRACTIONS).default([]),
  })
  .meta({ id: 'ApiFlowStep' });
export type ApiFlowStep = z.output<typeof step>;
export type ApiFlowExtraction = z.output<typeof extraction>;

/** An API flow's own fields, each once (create fills the defaults, PATCH takes any). */
export const apiFlowFields = {
  steps: z
    .array(step)
    .min(1)
    .max(MAX_STEPS)
    .describe(
      'Requests made in order, cookies shared; the first that fails stops the flow (at most the package’s maxStepsPerJourney)',
    ),
  variables: z
    .record(valueName, z.string().max(2000))
    .refine(
      (variables) => Object.keys(variables).length <= MAX_VARIABLES,
      `at most ${MAX_VARIABLES} variables`,
    )
    .describe('Values the steps use as {{name}} (a base URL, an account name): plain, shown as they are'),
  secrets: z
    .record(
      z.string().regex(SECRET_NAME, 'must be a secret name: letters, digits or _ (64 at most)'),
      // Shorter than MIN_MASKED_CHARS: refused when sealed (`sealSettings`), so a stored flow still parses.
      z.string().min(1).max(8000),
    )
    .refine((secrets) => Object.keys(secrets).length <= MAX_SECRETS, `at most ${MAX_SECRETS} secrets`)
    .describe(
      'Values the steps use as {{secret.NAME}} (a password, an API key, a client key): sealed when written (at least 4 characters: shorter ones could not be blanked), shown as "(set)", blanked in evidence',
    ),
  clientCertificate: z
    .strictObject({
      cert: z
        .string()
        .max(32 * 1024)
        .refine((pem) => parsesAsCertificate(pem), 'is not a PEM certificate'),
      key: z
        .string()
        .regex(SECRET_REFERENCE, 'must be {{secret.NAME}}: the private key is a secret, sealed when written'),
    })
    .nullable()
    .describe(
      'Presented by every step (mTLS, as a website’s check does): a PEM certificate, its key a secret',
    ),
};

function parsesAsCertificate(pem: string): boolean {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}

/** As a check takes them; a placeholder that names nothing before it is refused when written. */
export const apiFlowSettings = z
  .strictObject({
    steps: apiFlowFields.steps,
    variables: apiFlowFields.variables.default({}),
    secrets: apiFlowFields.secrets.default({}),
    clientCertificate: apiFlowFields.clientCertificate.default(null),
  })
  .superRefine((settings, context) => {
    for (const problem of placeholderProblems(settings.steps, settings.variables))
      context.addIssue({ code: 'custom', ...problem });
  });
export type ApiFlowSettings = z.output<typeof apiFlowSettings>;

/** The texts of a step that placeholders fill, by their path under the step. */
export function stepTexts(step: Pick<ApiFlowStep, 'request'>): Array<[path: string[], text: string]> {
  const { url, headers, body } = step.request;
  return [
    [['request', 'url'], url],
    ...Object.entries(headers).map(([name, value]): [string[], string] => [
      ['request', 'headers', name],
      value,
    ]),
    ...(body === null ? [] : [[['request', 'body'], body] as [string[], string]]),
  ];
}

/** The text with the variables put in (what is known when it is written). */
const withVariables = (text: string, variables: Record<string, string>) =>
  fillPlaceholders(text, { variables });

/** What a placeholder left unfilled stands as when a URL's shape is judged (a host name would take it). */
const PLACED = 'webmon-placeholder';

/** The URL with the variables put in and the other placeholders as a plain word: what it is shaped like. */
function urlShapeProblem(url: string, variables: Record<string, string>): string | null {
  const known = withVariables(url, variables);
  // A URL that begins with a value an earlier step found is judged when it runs.
  if (startsWithPlaceholder(known)) return null;
  const sample = known.replace(/\{\{[^}]*\}\}/g, PLACED);
  const parsed = URL.canParse(sample) ? new URL(sample) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return 'must be an absolute http:// or https:// URL';
  if (parsed.username || parsed.password) return 'must not hold a user name or password: send a header';
  for (const [name, value] of parsed.searchParams)
    if (isCredentialName(name) && value !== '' && !value.includes(PLACED))
      return `its query parameter ${name} ${CLEAR_CREDENTIAL}`;
  return null;
}

/**
 * Each placeholder of a step that names no variable and no value an earlier step extracts (a secret
 * is checked against the secrets stored, which a PATCH may keep unsent), and each URL not shaped as one.
 */
export function placeholderProblems(
  steps: ReadonlyArray<Pick<ApiFlowStep, 'request' | 'extract'>>,
  variables: Record<string, string>,
): Array<{ path: Array<string | number>; message: string }> {
  const problems: Array<{ path: Array<string | number>; message: string }> = [];
  const known = new Set(Object.keys(variables));
  for (const [name, value] of Object.entries(variables))
    for (const use of placeholdersIn(value))
      if (use.kind === 'variable')
        problems.push({
          path: ['variables', name],
          message: `${use.text}: a variable may use secrets, not other values`,
        });
  for (const [index, step] of steps.entries()) {
    for (const [path, text] of stepTexts(step))
      for (const use of placeholdersIn(text))
        if (use.kind === 'variable' && !known.has(use.name))
          problems.push({
            path: ['steps', index, ...path],
            message: `${use.text} is not a variable or a value an earlier step extracts${known.size ? ` (${[...known].join(', ')})` : ''}`,
          });
    const shape = urlShapeProblem(step.request.url, variables);
    if (shape) problems.push({ path: ['steps', index, 'request', 'url'], message: shape });
    for (const extracted of step.extract) known.add(extracted.name);
  }
  return problems;
}

/**
 * The host and port a step's URL reaches, where the text and variables name them (not a value found
 * when it runs): the SSRF guard judges it when written, every address again when it runs.
 */
export function writtenTarget(
  url: string,
  variables: Record<string, string>,
): { host: string; port: number } | null {
  const known = withVariables(url, variables);
  if (startsWithPlaceholder(known)) return null;
  const sample = known.replace(/\{\{[^}]*\}\}/g, PLACED);
  const parsed = URL.canParse(sample) ? new URL(sample) : null;
  if (!parsed || parsed.hostname.includes(PLACED)) return null;
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}
