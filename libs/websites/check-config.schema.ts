import { z } from 'zod';
import type { CheckConfig } from '../checks/index.js';
import { patchBody } from '../contract/index.js';
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
} as const satisfies Record<string, Feature>;
export type CheckSwitch = keyof typeof CHECK_FEATURES;

/** Upper bound of the page-size limits: the probe reads at most max(maxPageSize, 10 MiB). */
const MAX_PAGE_SIZE_BYTES = 100 * 1024 * 1024;
const pageSize = z.number().int().min(0).max(MAX_PAGE_SIZE_BYTES).nullable();

/** "200", "200-299", or 200: one expected status code or an inclusive range, from 100 to 599. */
const statusCodeSpec = z.union([z.number().int(), z.string()]).transform((value, ctx) => {
  const text = String(value).trim();
  const match = /^([1-5][0-9]{2})(?:-([1-5][0-9]{2}))?$/.exec(text);
  if (!match || (match[2] !== undefined && Number(match[2]) < Number(match[1]))) {
    ctx.addIssue({ code: 'custom', message: 'must be a status code (100-599) or a range like "200-299"' });
    return z.NEVER;
  }
  return text;
});

const switches = Object.fromEntries(Object.keys(CHECK_FEATURES).map((key) => [key, z.boolean()])) as Record<
  CheckSwitch,
  z.ZodBoolean
>;

export const checkConfigFields = {
  ...switches,
  minPageSize: pageSize.describe('Smallest acceptable decoded body, in bytes'),
  maxPageSize: pageSize.describe('Largest acceptable decoded body, in bytes'),
  expectedStatusCodes: z
    .array(statusCodeSpec)
    .min(1)
    .max(20)
    .describe('Codes or ranges, e.g. ["200-299", "304"]'),
  responseTimeThresholdMs: z
    .number()
    .int()
    .min(1)
    .max(120_000)
    .nullable()
    .describe("Slower is degraded; null: the package's default"),
  keyword: z.string().min(1).max(1000).nullable(),
  keywordMode: z.enum(['present', 'absent']),
  keywordCaseSensitive: z.boolean(),
};

export const patchCheckConfigBody = patchBody(z.strictObject(checkConfigFields).partial()).meta({
  id: 'CheckConfigUpdate',
});

export type CheckConfigPatch = z.output<typeof patchCheckConfigBody>;

export const checkConfigView = z
  .object({
    websiteId: z.number().int(),
    ...Object.fromEntries(Object.keys(CHECK_FEATURES).map((key) => [key, z.boolean()])),
    minPageSize: z.number().int().nullable(),
    maxPageSize: z.number().int().nullable(),
    expectedStatusCodes: z.array(z.string()),
    responseTimeThresholdMs: z
      .number()
      .int()
      .describe('The threshold in force (the package default unless set)'),
    keyword: z.string().nullable(),
    keywordMode: z.enum(['present', 'absent']),
    keywordCaseSensitive: z.boolean(),
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
  };
}

export type CheckConfigProblem = { path: string; message: string };

/**
 * The configuration after merging `patch`, or what is wrong with it: the cross-field rules and the
 * switches turned on that the package does not allow (`forbidden`, answered with 403).
 */
export function mergeCheckConfig(
  current: CheckConfig,
  patch: CheckConfigPatch,
  allowed: (feature: Feature) => boolean,
): {
  config: CheckConfig;
  invalid: CheckConfigProblem[];
  forbidden: Array<{ path: CheckSwitch; feature: Feature }>;
} {
  const config: CheckConfig = { ...current, ...patch } as CheckConfig;
  const invalid: CheckConfigProblem[] = [];
  const forbidden = (Object.keys(CHECK_FEATURES) as CheckSwitch[])
    .filter((key) => patch[key] === true && !allowed(CHECK_FEATURES[key]))
    .map((key) => ({ path: key, feature: CHECK_FEATURES[key] }));
  if (config.minPageSize !== null && config.maxPageSize !== null && config.minPageSize > config.maxPageSize) {
    invalid.push({ path: 'minPageSize', message: `must not exceed maxPageSize (${config.maxPageSize})` });
  }
  if (config.checkSizeEnabled && config.minPageSize === null && config.maxPageSize === null) {
    invalid.push({ path: 'checkSizeEnabled', message: 'needs minPageSize or maxPageSize' });
  }
  if (config.checkKeywordEnabled && !config.keyword) {
    invalid.push({ path: 'keyword', message: 'is required while checkKeywordEnabled is true' });
  }
  return { config, invalid, forbidden };
}
