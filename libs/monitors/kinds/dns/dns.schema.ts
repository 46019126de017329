import { z } from 'zod';
import { patchBody } from '../../../contract/index.js';
import { errorMessage } from '../../../errors/index.js';
import { DNS_RECORD_TYPES, type DnsRecordType, normalizeDnsValue } from '../../../probe/index.js';
import {
  hostField,
  intervalField,
  monitorName,
  monitorStatusFields,
  timeoutField,
} from '../../monitor-common.js';

/** A learned answer ('unchanged'): kept until acknowledged, or this long after it changed. */
const RELEARN_DEFAULT_SECONDS = 86_400;

const expectedField = z
  .union([z.literal('unchanged'), z.array(z.string().trim().min(1).max(1000)).min(1).max(50)])
  .describe(
    "The values the answer must be (in any order), or 'unchanged': the first answer is learned and a change raises dns.changed",
  );

const fields = {
  name: monitorName.describe('What people call it (default: the record type and name)'),
  recordType: z.enum(DNS_RECORD_TYPES),
  host: hostField.describe("The name to look up (default: the website's host)"),
  expected: expectedField,
  intervalSeconds: intervalField,
  timeoutSeconds: timeoutField,
  relearnAfterSeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .describe("With 'unchanged': a changed answer not acknowledged is learned this long after the change"),
};

/**
 * Expected values checked and written as the resolver's answers are (so they compare as sets);
 * each refused one is named by its index.
 */
export function normalizeExpected(
  recordType: DnsRecordType,
  values: readonly string[],
): { values: string[]; problems: Array<{ path: string; message: string }> } {
  const normalized: string[] = [];
  const problems: Array<{ path: string; message: string }> = [];
  values.forEach((value, index) => {
    try {
      normalized.push(normalizeDnsValue(recordType, value));
    } catch (error) {
      problems.push({
        path: `expected.${index}`,
        message: errorMessage(error),
      });
    }
  });
  return { values: [...new Set(normalized)].sort(), problems };
}

const createFields = z.strictObject({
  ...fields,
  name: fields.name.optional(),
  host: fields.host.optional(),
  intervalSeconds: fields.intervalSeconds.default(300),
  timeoutSeconds: fields.timeoutSeconds.default(5),
  relearnAfterSeconds: fields.relearnAfterSeconds.default(RELEARN_DEFAULT_SECONDS),
});

/** Expected values written as answers are (each refused one named by its index). */
function withNormalizedExpected<T extends { recordType: DnsRecordType; expected: 'unchanged' | string[] }>(
  body: T,
  ctx: z.RefinementCtx,
): T {
  if (body.expected === 'unchanged') return body;
  const { values, problems } = normalizeExpected(body.recordType, body.expected);
  for (const problem of problems)
    ctx.addIssue({
      code: 'custom',
      path: problem.path.split('.').map((part, i) => (i === 1 ? Number(part) : part)),
      message: problem.message,
    });
  return { ...body, expected: values };
}

export const createDnsCheckBody = createFields
  .transform(withNormalizedExpected)
  .meta({ id: 'DnsCheckCreate' });
/** A DNS check's own fields as a check reads them (name, interval and timeout aside; the host left out: the website's). */
export const dnsSettings = createFields
  .pick({ recordType: true, host: true, expected: true, relearnAfterSeconds: true })
  .transform(withNormalizedExpected);
/** As `POST /api/websites/{ref}/monitors` takes it. */
export const createDnsMonitorBody = createFields
  .extend({ kind: z.literal('dns') })
  .transform(withNormalizedExpected)
  .meta({ id: 'DnsMonitorCreate' });
export type DnsCheckCreate = z.output<typeof createDnsCheckBody>;

/** A PATCH: its `expected` values are normalised against the record type the check will have (see the routes). */
export const updateDnsCheckBody = patchBody(z.strictObject(fields).partial()).meta({ id: 'DnsCheckUpdate' });
export type DnsCheckUpdate = z.output<typeof updateDnsCheckBody>;

export const dnsCheckView = z
  .object({
    id: z.number().int(),
    websiteId: z.number().int(),
    kind: z.literal('dns'),
    name: z.string(),
    recordType: z.enum(DNS_RECORD_TYPES),
    host: z.string(),
    expected: z.union([z.literal('unchanged'), z.array(z.string())]),
    learned: z
      .object({ values: z.array(z.string()), at: z.iso.datetime() })
      .nullable()
      .describe("With 'unchanged': the answer it holds to"),
    pendingChange: z
      .object({ previous: z.array(z.string()), current: z.array(z.string()), since: z.iso.datetime() })
      .nullable()
      .describe('A changed answer not yet learned (acknowledge it to learn it now)'),
    intervalSeconds: z.number().int(),
    timeoutSeconds: z.number().int(),
    relearnAfterSeconds: z.number().int(),
    ...monitorStatusFields,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'DnsCheck' });
