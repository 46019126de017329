import { z } from 'zod';
import { hostField } from '../../monitor-common.js';

/** An ICMP check's own fields, each once (create fills the defaults, PATCH takes any). */
export const icmpFields = {
  host: hostField.describe("What to ping (default: the website's host)"),
  count: z.number().int().min(1).max(10).describe('Echo requests sent each check'),
  maxLossPercent: z.number().min(0).max(99).describe('Lost replies above this share are down'),
  maxRttMs: z
    .number()
    .int()
    .min(1)
    .max(60_000)
    .nullable()
    .describe('An average round trip above this is degraded (null: not judged)'),
};

/** As a check takes them (the host left out: the website's). */
export const icmpSettings = z.strictObject({
  host: icmpFields.host.optional(),
  count: icmpFields.count.default(3),
  maxLossPercent: icmpFields.maxLossPercent.default(0),
  maxRttMs: icmpFields.maxRttMs.default(null),
});
export type IcmpSettings = z.output<typeof icmpSettings>;
