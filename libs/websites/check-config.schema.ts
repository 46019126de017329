import { z } from 'zod';
import { assertionSchema, type CheckConfig, type CheckSwitch, checkConfigSchema } from '../checks/index.js';
import { patchBody, validate } from '../contract/index.js';
import type { FieldError } from '../errors/index.js';
import type { Feature } from '../packages/index.js';

/** The seven check switches and the package feature each needs. */
export const CHECK_FEATURES = {
  checkSslEnabled: 'sslCheck',
  checkHttpsRedirectEnabled: 'httpsRedirectCheck',
  checkStatusEnabled: 'statusCheck',
  checkSizeEnabled: 'sizeCheck',
  checkResponseTimeEnabled: 'responseTimeCheck',
  checkKeywordEnabled: 'keywordCheck',
  checkDomainExpiryEnabled: 'domainExpiryCheck',
} as const satisfies Record<CheckSwitch, Feature>;

export const patchCheckConfigBody = patchBody(z.strictObject(checkConfigSchema.shape).partial()).meta({
  id: 'CheckConfigUpdate',
});

export type CheckConfigPatch = z.output<typeof patchCheckConfigBody>;

export const checkConfigView = z
  .object({
    websiteId: z.number().int(),
    ...checkConfigSchema.shape,
    responseTimeThresholdMs: z
      .number()
      .int()
      .describe('The threshold in force (the package default unless set)'),
    assertions: z.array(assertionSchema).describe('Conditions on the answer; all must hold'),
  })
  .meta({ id: 'CheckConfig' });

/** A new website: status, SSL (for https) and response time on, the rest off; within the package's features. */
export function defaultCheckConfig(url: string, allowed: (feature: Feature) => boolean): CheckConfig {
  const on = (key: CheckSwitch, wanted: boolean) => wanted && allowed(CHECK_FEATURES[key]);
  return {
    checkSslEnabled: on('checkSslEnabled', url.startsWith('https:')),
    checkHttpsRedirectEnabled: false,
    checkStatusEnabled: on('checkStatusEnabled', true),
    checkSizeEnabled: false,
    checkResponseTimeEnabled: on('checkResponseTimeEnabled', true),
    checkKeywordEnabled: false,
    checkDomainExpiryEnabled: false,
    minPageSize: null,
    maxPageSize: null,
    expectedStatusCodes: ['200-399'],
    responseTimeThresholdMs: null,
    keyword: null,
    keywordMode: 'present',
    keywordCaseSensitive: false,
    assertions: [],
  };
}

/**
 * The configuration after merging `patch`, validated whole (so a stored configuration that broke a
 * rule is refused, not kept), or what is wrong: `invalid` fields, or the switches turned on that
 * the package does not allow (`forbidden`, answered with 403).
 */
export function mergeCheckConfig(
  current: CheckConfig,
  patch: CheckConfigPatch,
  allowed: (feature: Feature) => boolean,
):
  | { ok: true; config: CheckConfig }
  | {
      ok: false;
      invalid: FieldError[];
      forbidden: Array<{ path: CheckSwitch | 'assertions'; feature: Feature }>;
    } {
  const merged = validate(checkConfigSchema, { ...current, ...patch });
  const forbidden: Array<{ path: CheckSwitch | 'assertions'; feature: Feature }> = (
    Object.keys(CHECK_FEATURES) as CheckSwitch[]
  )
    .filter((key) => patch[key] === true && !allowed(CHECK_FEATURES[key]))
    .map((key) => ({ path: key, feature: CHECK_FEATURES[key] }));
  // Sending back what is stored is no change (a form saves every field), even after a downgrade.
  const assertionsChanged =
    JSON.stringify(patch.assertions ?? []) !== JSON.stringify(current.assertions ?? []);
  if ((patch.assertions?.length ?? 0) > 0 && assertionsChanged && !allowed('assertions'))
    forbidden.push({ path: 'assertions', feature: 'assertions' });
  if (merged.success && forbidden.length === 0) return { ok: true, config: merged.data };
  return { ok: false, invalid: merged.success ? [] : merged.errors, forbidden };
}

/** Why a check the package does not include cannot be turned on. */
export const lackedFeature = (feature: Feature) =>
  `needs the ${feature} feature, which the customer’s package lacks`;
