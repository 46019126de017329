import { z } from 'zod';
import { assertionSchema, MAX_ASSERTIONS } from './assertions.js';

/** Upper bound of the page-size limits: the probe reads at most max(maxPageSize, 10 MiB). */
const MAX_PAGE_SIZE_BYTES = 100 * 1024 * 1024;
const pageSize = z.number().int().min(0).max(MAX_PAGE_SIZE_BYTES).nullable();

/** "200", "200-299", or 200: one expected status code or an inclusive range, from 100 to 599. */
const statusCodeSpec = z
  .union([z.number().int(), z.string()])
  .transform((value, ctx) => {
    const text = String(value).trim();
    const match = /^([1-5][0-9]{2})(?:-([1-5][0-9]{2}))?$/.exec(text);
    if (!match || (match[2] !== undefined && Number(match[2]) < Number(match[1]))) {
      ctx.addIssue({ code: 'custom', message: 'must be a status code (100-599) or a range like "200-299"' });
      return z.NEVER;
    }
    return text;
  })
  // Documents the output (what is stored and shown) as the string it always is.
  .pipe(z.string());

/**
 * What a website asks of its checks, as stored: each field within its bounds and the rules between
 * fields. `responseTimeThresholdMs` null means "the package's default". Its shape is also the API's
 * (the websites lib derives the PATCH body and the view from it).
 */
export const checkConfigSchema = z
  .object({
    checkSslEnabled: z.boolean(),
    checkHttpsRedirectEnabled: z.boolean(),
    checkStatusEnabled: z.boolean(),
    checkSizeEnabled: z.boolean(),
    checkResponseTimeEnabled: z.boolean(),
    checkKeywordEnabled: z.boolean(),
    checkDomainExpiryEnabled: z.boolean(),
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
    // Optional: configurations stored before assertions existed have none.
    assertions: z
      .array(assertionSchema)
      .max(MAX_ASSERTIONS)
      .optional()
      .describe('Conditions on the answer (JSON body, headers, body, status, response time); all must hold'),
  })
  .superRefine((config, ctx) => {
    const { minPageSize, maxPageSize } = config;
    if (minPageSize !== null && maxPageSize !== null && minPageSize > maxPageSize) {
      ctx.addIssue({
        code: 'custom',
        path: ['minPageSize'],
        message: `must not exceed maxPageSize (${maxPageSize})`,
      });
    }
    if (config.checkSizeEnabled && minPageSize === null && maxPageSize === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['checkSizeEnabled'],
        message: 'needs minPageSize or maxPageSize',
      });
    }
    if (config.checkKeywordEnabled && !config.keyword) {
      ctx.addIssue({
        code: 'custom',
        path: ['keyword'],
        message: 'is required while checkKeywordEnabled is true',
      });
    }
  });

export type CheckConfig = z.output<typeof checkConfigSchema>;

/** The switches that turn a check on. */
export type CheckSwitch = Extract<keyof CheckConfig, `check${string}Enabled`>;
